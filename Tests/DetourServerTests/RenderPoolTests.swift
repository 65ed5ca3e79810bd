import DetourCore
import DetourRender
import Dispatch
import Synchronization
import Testing

@testable import DetourServer

/// The server's own threads for checks and renders: never more at once than its width, one run
/// per key, and a run of one key holds up no other.
@Suite struct RenderPoolTests {
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
        let flight = SingleFlight<String, Int>(pool: RenderPool(width: 4))
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
        let flight = SingleFlight<String, String>(pool: RenderPool(width: 2))
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
        let pool = RenderPool(width: width)
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

extension RenderPoolTests {
    /// Where the system gives no thread, the work is done on the caller's, and still done.
    @Test func withoutAThreadTheWorkRunsOnTheCallers() async {
        let pool = RenderPool(width: 2, startThread: { _ in false })
        let values = await withTaskGroup(of: Int.self) { group in
            for index in 0..<6 { group.addTask { await pool.run { index * 2 } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted() == [0, 2, 4, 6, 8, 10])
    }
}

/// The rendered outputs, bounded in bytes, one version of each trip, day and format.
@Suite struct OutputCacheTests {
    static func key(_ name: String, _ format: OutputFormat = .html) -> OutputCache.Key {
        OutputCache.Key(name: name, today: .unixEpoch, format: format)
    }

    static func output(_ bytes: Int) -> RenderedOutput {
        RenderedOutput(bytes: Array(repeating: UInt8(ascii: "x"), count: bytes))
    }

    @Test func theLimitIsInBytesAndTheOutputUsedLongestAgoGoesFirst() {
        let cache = OutputCache(limit: 300)
        cache.keep(Self.output(100), for: Self.key("a"), etag: "1")
        cache.keep(Self.output(100), for: Self.key("b"), etag: "1")
        cache.keep(Self.output(100), for: Self.key("c"), etag: "1")
        #expect(cache.size == (300, 3), "exactly at the limit, all are kept")
        // "a" is used again, so "b" is the one used longest ago.
        #expect(cache[Self.key("a"), etag: "1"] != nil)
        cache.keep(Self.output(1), for: Self.key("d"), etag: "1")
        #expect(cache.size == (201, 3), "one byte past it, one output goes")
        #expect(cache[Self.key("b"), etag: "1"] == nil)
        #expect(cache[Self.key("a"), etag: "1"] != nil && cache[Self.key("c"), etag: "1"] != nil)
    }

    @Test func aNewVersionTakesTheOldOnesPlace() {
        let cache = OutputCache(limit: 1 << 20)
        for version in 0..<10 {
            cache.keep(Self.output(1000), for: Self.key("big"), etag: "\(version)")
            cache.keep(Self.output(500), for: Self.key("big", .markdown), etag: "\(version)")
        }
        #expect(cache.size == (1500, 2), "ten saves keep one version's outputs")
        #expect(cache[Self.key("big"), etag: "8"] == nil, "an old version is no hit")
        #expect(cache[Self.key("big"), etag: "9"] != nil)
        cache.forget("big")
        #expect(cache.size == (0, 0))
    }

    @Test func anOutputLargerThanTheLimitIsNotKept() {
        let cache = OutputCache(limit: 100)
        cache.keep(Self.output(100), for: Self.key("fits"), etag: "1")
        cache.keep(Self.output(101), for: Self.key("huge"), etag: "1")
        #expect(cache.size == (100, 1))
        #expect(cache[Self.key("huge"), etag: "1"] == nil)
    }
}
