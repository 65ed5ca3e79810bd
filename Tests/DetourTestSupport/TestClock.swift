import Synchronization

/// A clock in seconds since 1970 that a test moves by hand, for whatever takes its time as a
/// closure (the accounts' store).
public final class TestClock: Sendable {
    private let seconds: Mutex<Int64>

    /// A clock at `start`: by default 2026-11-22, the day the goldens are as of.
    public init(_ start: Int64 = 1_795_305_600) {
        seconds = Mutex(start)
    }

    /// The clock as a closure.
    public var now: @Sendable () -> Int64 { { self.seconds.withLock { $0 } } }

    /// Moves the clock on by `by` seconds.
    public func advance(_ by: Int64) {
        seconds.withLock { $0 += by }
    }
}
