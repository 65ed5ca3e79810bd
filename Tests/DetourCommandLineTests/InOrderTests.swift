import DetourCommandLine
import Foundation
import Synchronization
import Testing

/// Values finished in any order on many threads are handed on once each, in index order, by
/// one thread at a time; ``Workers`` calls its body once for each index.
@Suite struct InOrderTests {
    /// What was handed on, in the order it was, and whether two threads were ever in the role.
    final class Log: Sendable {
        let state = Mutex<(values: [Int], calls: Int, finished: [Int], early: [Int])>(([], 0, [], []))
        let inRole = Atomic(0)
        let overlapped = Atomic(false)

        func record(_ handing: InOrder<Int>.Handing) {
            if inRole.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlapped.store(true, ordering: .sequentiallyConsistent)
            }
            state.withLock { state in
                state.values += handing.due
                state.calls += 1
                state.finished.append(handing.finished)
                if handing.due.isEmpty { state.early.append(handing.latest) }
            }
            inRole.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
    }

    @Test(arguments: [1, 2, 8, 64])
    func valuesFinishedOnManyThreadsAreHandedOnInOrderOnce(_ workers: Int) {
        let count = 5_000
        let log = Log()
        let values = InOrder<Int>(count: count) { log.record($0) }
        Workers.forEach(count, workers: workers) { index in values.finish(index, index * 3) }
        let (handed, calls, finished, early) = log.state.withLock { $0 }
        #expect(handed == (0..<count).map { $0 * 3 })
        let overlapped = log.overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!overlapped)
        // A call hands on at least one value, or reports a value that came early, once: never a
        // call with nothing to say, however the threads interleave.
        #expect(Set(early).count == early.count)
        #expect(calls >= 1 && calls - early.count <= count)
        #expect(finished.last == count)
        #expect(values.all() == (0..<count).map { $0 * 3 })
    }

    /// Finished backwards on one thread: nothing is due until the first, then everything is.
    @Test func valuesFinishedBackwardsAreHandedOnWhenTheFirstComes() {
        let log = Log()
        let values = InOrder<Int>(count: 4) { log.record($0) }
        for index in [3, 2, 1] { values.finish(index, index) }
        #expect(log.state.withLock { $0.values } == [])
        #expect(values.all() == [nil, 1, 2, 3])
        values.finish(0, 0)
        #expect(log.state.withLock { $0.values } == [0, 1, 2, 3])
        #expect(log.state.withLock { $0.finished } == [1, 2, 3, 4])
    }

    @Test(arguments: [0, 1, 7, 1_000])
    func workersCallTheBodyOnceForEachIndex(_ count: Int) {
        let seen = Mutex<[Int]>([])
        Workers.forEach(count, workers: 4) { index in seen.withLock { $0.append(index) } }
        #expect(seen.withLock { $0 }.sorted() == Array(0..<count))
        #expect(Workers.map(count, workers: 3) { $0 * $0 } == (0..<count).map { $0 * $0 })
    }
}
