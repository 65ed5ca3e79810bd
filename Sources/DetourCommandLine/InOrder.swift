import Synchronization

/// Values that threads finish in any order, handed on in the order of their indexes, with no
/// thread ever waiting for another.
///
/// A batch run's workers finish trips in any order, and each trip's messages are printed in the
/// order of the trips. Each index is finished once, by one thread. A thread that finishes one
/// and finds nobody handing on takes that role: it hands on every value now due (from the next
/// index on, up to the first not finished) and leaves the role. One that finds the role taken
/// leaves at once, since the thread in the role looks again after leaving it and takes the role
/// back for what came meanwhile. A lock here would put every worker to sleep behind the one
/// writing to the terminal: measured, nearly all of a batch run's context switches.
///
/// The role is one atomic flag, tried and never waited for; the values and the next index are
/// touched only by the thread in the role (or by ``all()``, once the threads have ended). The
/// flag, the index and each value's mark are sequentially consistent: a value marked finished
/// after the thread in the role looked is seen by its look after leaving.
public final class InOrder<Value: Sendable>: @unchecked Sendable {
    /// How many values there are, indexes 0 to `count - 1`.
    public let count: Int
    private let values: UnsafeMutablePointer<Value?>
    private let finished: UnsafeMutablePointer<Atomic<Bool>>
    private let handing = Atomic(false)
    private let next = Atomic(0)
    private let ended = Atomic(0)
    private let handOn: (@Sendable (Handing) -> Void)?

    /// What the thread in the role hands on.
    public struct Handing {
        /// The values now due, in index order; none when the value just finished came early, or
        /// when another thread has already handed it on.
        public var due: ArraySlice<Value>
        /// How many values are finished, as far as this thread has seen.
        public var finished: Int
        /// The value whose finishing thread is handing on.
        public var latest: Value
    }

    /// `count` values, to be handed on in order to `handOn`, which is called by one thread at a
    /// time, each time a thread that finished a value takes the role; without `handOn`, the
    /// values are only kept, for ``all()``, and no thread takes the role.
    public init(count: Int, handOn: (@Sendable (Handing) -> Void)? = nil) {
        self.count = count
        self.handOn = handOn
        values = .allocate(capacity: count)
        values.initialize(repeating: nil, count: count)
        finished = .allocate(capacity: count)
        for index in 0..<count { (finished + index).initialize(to: Atomic(false)) }
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
        finished.deinitialize(count: count)
        finished.deallocate()
    }

    /// Finishes `index` with `value`; each index once.
    public func finish(_ index: Int, _ value: Value) {
        // Traps outside 0..<count, as an array's subscript does, before a pointer is touched.
        let index = (0..<count)[index]
        values[index] = value
        // Counted before it is marked: a thread in the role that hands this value on has seen it
        // counted, so the last hand-on says every value is finished.
        ended.wrappingAdd(1, ordering: .sequentiallyConsistent)
        finished[index].store(true, ordering: .sequentiallyConsistent)
        guard let handOn else { return }
        var retaken = false
        while handing.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            var due: [Value] = []
            var first = next.load(ordering: .sequentiallyConsistent)
            while first < count, finished[first].load(ordering: .sequentiallyConsistent), let value = values[first] {
                due.append(value)
                first += 1
            }
            next.store(first, ordering: .sequentiallyConsistent)
            // A role taken back finds nothing due when another thread handed it on meanwhile:
            // only the first take reports a value that came early.
            if !retaken || !due.isEmpty {
                let seen = ended.load(ordering: .sequentiallyConsistent)
                handOn(Handing(due: ArraySlice(due), finished: seen, latest: value))
            }
            handing.store(false, ordering: .sequentiallyConsistent)
            retaken = true
            // What was finished while this thread handed on, by a thread that found the role taken.
            let now = next.load(ordering: .sequentiallyConsistent)
            guard now < count, finished[now].load(ordering: .sequentiallyConsistent) else { return }
        }
    }

    /// Every value in index order, once every index is finished and the threads that finished
    /// them have ended; `nil` for an index not finished.
    public func all() -> [Value?] {
        (0..<count).map { values[$0] }
    }
}
