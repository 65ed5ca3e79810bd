import DetourBase
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log written by a thread of its own: the server's request log on standard error.
///
/// A request hands its line over and goes on, never waiting for the write, so a reader of
/// standard error that stops reading (a full pipe, a paused pager, a stuck terminal) holds up no
/// request and no event loop. Lines wait in a queue bounded in bytes; past the bound they are
/// left out and counted, and the count takes their place in the log once it is written again.
/// The thread writes every waiting line with one `write(2)`, and ends when none is left, so an
/// idle server holds none.
public final class LogWriter: Sendable {
    private struct State {
        var lines: [String] = []
        var bytes = 0
        var leftOut = 0
        var writing = false
    }

    private let state = Mutex(State())
    /// Signalled when the thread has written everything and ends (``finish(within:)`` waits on it).
    private let idle = NSCondition()
    /// The most bytes of lines waiting to be written, newlines counted.
    public let limit: Int
    /// Writes bytes, blocking as long as the reader makes it.
    private let sink: @Sendable ([UInt8]) -> Void
    /// Starts a thread for a closure; false when the system has none to give.
    private let startThread: @Sendable (@escaping @Sendable () -> Void) -> Bool

    /// The default bound: a mebibyte, about 20,000 lines of a request log.
    public static let defaultLimit = 1 << 20

    /// A log that `sink` writes, at most `limit` bytes waiting (tests give a sink that blocks, and
    /// a `startThread` that gives no thread).
    public init(
        limit: Int = LogWriter.defaultLimit, sink: @escaping @Sendable ([UInt8]) -> Void,
        startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool = { PlainThread.detach($0) }
    ) {
        self.limit = limit
        self.sink = sink
        self.startThread = startThread
    }

    /// The log on standard error.
    public static func standardError() -> LogWriter {
        LogWriter { bytes in try? StandardStreams.write(bytes, to: STDERR_FILENO) }
    }

    /// Queues `line` (without its newline), or counts it as left out when the queue is full.
    public func write(_ line: String) {
        let start = state.withLock { state -> Bool in
            let size = line.utf8.count + 1
            guard state.bytes + size <= limit else {
                state.leftOut += 1
                // With nothing being written, the count would wait for the next line: a writer
                // starts now to write it.
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            state.lines.append(line)
            state.bytes += size
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        // With no thread to be had, the line is written here, as if the log had no thread.
        if start, !startThread({ self.drain() }) { drain() }
    }

    /// Waits until every line queued is written, for at most `timeout`.
    ///
    /// A server that stops leaves its last lines in the log, and a reader that never reads again
    /// cannot keep it from ending. The wait blocks a thread of its own, never one of Swift's
    /// cooperative threads.
    public func finish(within timeout: Duration) async {
        await BlockingPool(width: 1).run { self.waitUntilWritten(within: timeout) }
    }

    /// ``finish(within:)`` on the calling thread.
    func waitUntilWritten(within timeout: Duration) {
        let deadline = Date(timeIntervalSinceNow: timeout / .seconds(1))
        idle.lock()
        defer { idle.unlock() }
        while state.withLock({ $0.writing }) {
            guard idle.wait(until: deadline) else { return }
        }
    }

    /// Writes what is queued until nothing is; then the thread ends.
    private func drain() {
        while let text = state.withLock({ state -> [UInt8]? in
            guard !state.lines.isEmpty || state.leftOut > 0 else {
                state.writing = false
                return nil
            }
            var text = state.lines.joined(separator: "\n")
            if !state.lines.isEmpty { text += "\n" }
            if state.leftOut > 0 {
                text += LogWriter.leftOutLine(state.leftOut) + "\n"
            }
            state.lines.removeAll(keepingCapacity: true)
            state.bytes = 0
            state.leftOut = 0
            return Array(text.utf8)
        }) {
            sink(text)
        }
        idle.lock()
        idle.broadcast()
        idle.unlock()
    }

    /// The line that stands for `count` lines left out.
    static func leftOutLine(_ count: Int) -> String {
        "detour-report: \(count) \(count == 1 ? "line" : "lines") of the log left out: "
            + "standard error was not read fast enough"
    }
}
