import DetourBase
import Dispatch
import Synchronization
import Testing

/// The pool of threads for blocking work: never more at once than its width, one run
/// per key, and a run of one key holds up no other.
@Suite struct BlockingPoolTests {
    /// Work that waits, on its pool thread, until the test lets it end.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
    }

    /// Counters shared by the tasks of a test.
    final class Counts: Sendable {
        let runs = Atomic(0)
        let running = Atomic(0)
        let most = Atomic(0)
    }

    @Test func requestsForOneKeyTogetherShareOneRun() async {
        let flight = SingleFlight<String, Int>(pool: BlockingPool(width: 4))
        let counts = Counts()
        let gate = Gate()
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    await flight.run("lisbon") {
                        gate.wait()
                        return counts.runs.add(1, ordering: .relaxed).newValue
                    }
                }
            }
            // Every request has arrived before the run may end: then all sixteen wait for it.
            while flight.waiters(for: "lisbon") < 16 { await Task.yield() }
            gate.open()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.runs.load(ordering: .relaxed) == 1)
        #expect(values == Array(repeating: 1, count: 16))
    }

    /// A slow render of one trip, and a request for another gets its answer meanwhile.
    @Test func aSlowRunHoldsUpNoOtherKey() async {
        let flight = SingleFlight<String, String>(pool: BlockingPool(width: 2))
        let gate = Gate()
        async let slow = flight.run("big") {
            gate.wait()
            return "big"
        }
        while flight.waiters(for: "big") < 1 { await Task.yield() }
        // Answered while "big" still waits at its gate.
        #expect(await flight.run("small") { "small" } == "small")
        gate.open()
        #expect(await slow == "big")
    }

    /// Three times as much work as threads: never more than the width at once, all of it done.
    @Test(arguments: [1, 2, 4])
    func neverMoreRunsAtOnceThanTheWidth(_ width: Int) async {
        let pool = BlockingPool(width: width)
        let counts = Counts()
        let done = await withTaskGroup(of: Int.self) { group in
            for index in 0..<(3 * width) {
                group.addTask {
                    await pool.run {
                        let now = counts.running.add(1, ordering: .sequentiallyConsistent).newValue
                        counts.most.max(now, ordering: .sequentiallyConsistent)
                        // Work long enough that the runs overlap when they can.
                        var sum = 0
                        for step in 0..<200_000 { sum &+= step ^ index }
                        counts.running.subtract(1, ordering: .sequentiallyConsistent)
                        return sum == -1 ? 0 : 1
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(done == 3 * width)
        #expect(counts.most.load(ordering: .sequentiallyConsistent) <= width)
    }
}

extension BlockingPoolTests {
    /// Where the system gives no thread, the work is done on the caller's, and still done.
    @Test func withoutAThreadTheWorkRunsOnTheCallers() async {
        let pool = BlockingPool(width: 2, startThread: { _ in false })
        let values = await withTaskGroup(of: Int.self) { group in
            for index in 0..<6 { group.addTask { await pool.run { index * 2 } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted() == [0, 2, 4, 6, 8, 10])
    }
}
