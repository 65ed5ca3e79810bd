import DetourBase
import DetourJob
import Synchronization

/// Work spread over several threads of the process's own, outside Swift's cooperative pool
/// (the work reads and writes files, which blocks).
///
/// Each thread takes the next index from one atomic counter, so a long item does not hold up a
/// queue and no thread waits for another.
public enum Workers {
    /// Calls `body` once with each index of `0..<count`, on `workers` threads (at least one, at
    /// most `count`), and returns when every call has; the calling thread runs `meanwhile` while
    /// it waits.
    public static func forEach(
        _ count: Int, workers: Int, meanwhile: () -> Void = {}, _ body: @escaping @Sendable (Int) -> Void
    ) {
        let next = Counter()
        let work: @Sendable () -> Void = {
            while case let index = next.take(), index < count { body(index) }
        }
        let threads = (0..<max(1, min(workers, count))).compactMap { _ in PlainThread.start(work) }
        meanwhile()
        // Without a thread of its own, the calling thread does the work.
        if threads.isEmpty { work() }
        for thread in threads { thread.join() }
    }

    /// `body` of each index of `0..<count`, in index order, computed on `workers` threads.
    public static func map<Value: Sendable>(
        _ count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Value
    ) -> [Value] {
        let values = InOrder<Value>(count: count)
        forEach(count, workers: workers) { values.finish($0, body($0)) }
        return values.all().compactMap { $0 }
    }

    /// The index of the next item to take.
    private final class Counter: Sendable {
        private let next = Atomic(0)

        /// The next index; past the last item, a number past the end.
        func take() -> Int {
            next.wrappingAdd(1, ordering: .relaxed).oldValue
        }
    }
}
