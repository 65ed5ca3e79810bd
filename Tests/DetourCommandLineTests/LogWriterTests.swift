import DetourBase
import Dispatch
import Synchronization
import Testing

@testable import DetourCommandLine

/// The request log's writer: a stalled reader holds no one up, and what it cannot keep is counted.
@Suite(.timeLimit(.minutes(1))) struct LogWriterTests {
    /// A reader of the log: what it was given, and on which kind of thread; with `stalled`, its
    /// first write waits until ``release()``.
    final class Reader: Sendable {
        private let state = Mutex((text: "", writes: 0, onPlainThreads: true))
        private let stalled: Bool
        /// Signalled when the first write has begun.
        let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)

        init(stalled: Bool = false) {
            self.stalled = stalled
        }

        func write(_ bytes: [UInt8]) {
            let first = state.withLock { state -> Bool in
                state.writes += 1
                state.onPlainThreads = state.onPlainThreads && PlainThread.isCurrent
                return state.writes == 1
            }
            if first && stalled {
                entered.signal()
                gate.wait()
            }
            state.withLock { $0.text += String(decoding: bytes, as: UTF8.self) }
        }

        func release() { gate.signal() }

        /// Returns once the first write has begun, waiting on a thread of its own.
        func waitUntilEntered() async {
            await BlockingPool(width: 1).run { self.entered.wait() }
        }

        var text: String { state.withLock { $0.text } }
        var writes: Int { state.withLock { $0.writes } }
        var onPlainThreads: Bool { state.withLock { $0.onPlainThreads } }
    }

    @Test func linesAreWrittenInOrderByAThreadOfItsOwn() async {
        let reader = Reader()
        let log = LogWriter(sink: reader.write)
        for line in ["GET / 200 512 0.1ms", "GET /trips/a.html 200 17795 0.4ms", "HEAD /x 404 - 0.0ms"] {
            log.write(line)
        }
        await log.finish(within: .seconds(30))
        #expect(reader.text == "GET / 200 512 0.1ms\nGET /trips/a.html 200 17795 0.4ms\nHEAD /x 404 - 0.0ms\n")
        #expect(reader.onPlainThreads)
    }

    /// While the reader reads nothing, every line is handed over at once; the queue keeps
    /// `limit` bytes exactly, the next line is counted, and the count is written after the lines
    /// kept, once the reader reads again.
    @Test func aStalledReaderHoldsNoOneUpAndWhatIsLeftOutIsCounted() async {
        let reader = Reader(stalled: true)
        // "line NN" and its newline: 8 bytes; ten of them fill the queue exactly.
        let log = LogWriter(limit: 80, sink: reader.write)
        log.write("first")
        await reader.waitUntilEntered()
        for number in 10..<40 {
            log.write("line \(number)")
        }
        #expect(reader.writes == 1)
        reader.release()
        await log.finish(within: .seconds(30))
        let kept = (10..<20).map { "line \($0)\n" }.joined()
        #expect(reader.text == "first\n" + kept + LogWriter.leftOutLine(20) + "\n")
        // Read again, the log goes on as before.
        log.write("after")
        await log.finish(within: .seconds(30))
        #expect(reader.text.hasSuffix("standard error was not read fast enough\nafter\n"))
        #expect(LogWriter.leftOutLine(1).contains(" 1 line of the log left out"))
    }

    /// A line longer than the bound is left out, never cut, and counted at once: whether a line
    /// is still being written (its writer writes the count after it) or every line is written
    /// (a writer starts for the count alone).
    @Test func aLineLongerThanTheBoundIsLeftOutWhole() async {
        let stalled = Reader(stalled: true)
        let busy = LogWriter(limit: 8, sink: stalled.write)
        busy.write("1234567")
        await stalled.waitUntilEntered()
        busy.write("12345678")
        stalled.release()
        await busy.finish(within: .seconds(30))
        #expect(stalled.text == "1234567\n" + LogWriter.leftOutLine(1) + "\n")

        let reader = Reader()
        let idle = LogWriter(limit: 8, sink: reader.write)
        idle.write("1234567")
        await idle.finish(within: .seconds(30))
        #expect(reader.text == "1234567\n")
        idle.write("12345678")
        await idle.finish(within: .seconds(30))
        #expect(reader.text == "1234567\n" + LogWriter.leftOutLine(1) + "\n")
    }

    /// With no thread to be had, a line is written by whoever hands it over, as before.
    @Test func withNoThreadTheLineIsWrittenWhereItIsGiven() async {
        let reader = Reader()
        let log = LogWriter(sink: reader.write, startThread: { _ in false })
        log.write("GET / 200 512 0.1ms")
        #expect(reader.text == "GET / 200 512 0.1ms\n")
        #expect(!reader.onPlainThreads)
        await log.finish(within: .seconds(30))
    }

    /// A reader that never reads again keeps the server from ending for `within` at the most.
    @Test func finishingWaitsForAStalledReaderOnlySoLong() async {
        let reader = Reader(stalled: true)
        let log = LogWriter(sink: reader.write)
        log.write("stuck")
        await reader.waitUntilEntered()
        await log.finish(within: .milliseconds(1))
        #expect(reader.text.isEmpty)
        reader.release()
        await log.finish(within: .seconds(30))
        #expect(reader.text == "stuck\n")
    }
}
