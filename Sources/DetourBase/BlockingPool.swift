import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Blocking work (a trip checked, a report rendered, a password hashed) on threads of the process's
/// own, never on Swift's cooperative threads, which every request shares: at most `width` pieces
/// at once (the cores), in the order asked.
///
/// A thread is started when work comes and none is free, and ends when no work is left, so an
/// idle server holds none.
public final class BlockingPool: Sendable {
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var next = 0
        var running = 0
    }

    private let state = Mutex(State())
    /// The most pieces of work at once.
    public let width: Int
    /// Starts a thread for a closure; false when the system has none to give.
    private let startThread: @Sendable (@escaping @Sendable () -> Void) -> Bool

    /// A pool of at most `width` threads, each started by `startThread` (tests put one in place
    /// that gives none).
    public init(
        width: Int,
        startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool = { PlainThread.detach($0) }
    ) {
        self.width = max(1, width)
        self.startThread = startThread
    }

    /// Runs `work` on one of the pool's threads and returns its value.
    public func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: work()) }
        }
    }

    /// Queues `job`; starts a thread when fewer than `width` run.
    public func enqueue(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.queue.append(job)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        guard start, !startThread({ self.drain() }) else { return }
        // No thread to be had: the work waits for a running thread, or, with none, runs here.
        let alone = state.withLock { state -> Bool in
            state.running -= 1
            return state.running == 0
        }
        if alone { drain(counted: false) }
    }

    /// Runs queued work until none is left; then the thread ends.
    private func drain(counted: Bool = true) {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            guard state.next < state.queue.count else {
                state.queue.removeAll()
                state.next = 0
                if counted { state.running -= 1 }
                return nil
            }
            defer { state.next += 1 }
            return state.queue[state.next]
        }) {
            job()
        }
        #if os(Linux)
        // A render of a large trip frees hundreds of megabytes, which the C library keeps in the
        // thread's arena unless told: handed back once no work is left, a server that renders a
        // big trip after each save stays at the size of one render.
        _ = BlockingPool.trim?(0)
        #endif
    }

    #if os(Linux)
    /// glibc's `malloc_trim(3)`, which Swift's C module for the library does not declare.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        // RTLD_DEFAULT: the symbol wherever the process has it.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}

/// One run at a time for each key: a request for a key whose run is under way waits for that
/// run's value instead of starting another (requests arriving together for a trip just saved
/// render it once), and requests for other keys are not held up by it.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let flights = Mutex<[Key: [CheckedContinuation<Value, Never>]]>([:])
    let pool: BlockingPool

    public init(pool: BlockingPool) {
        self.pool = pool
    }

    /// `work`'s value for `key`, from the run under way for it or from a new one on the pool.
    public func run(_ key: Key, _ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let first = flights.withLock { flights -> Bool in
                let waiting = flights[key]
                flights[key, default: []].append(continuation)
                return waiting == nil
            }
            guard first else { return }
            pool.enqueue { [self] in
                let value = work()
                if let waiters = flights.withLock({ $0.removeValue(forKey: key) }) {
                    for waiter in waiters { waiter.resume(returning: value) }
                }
            }
        }
    }

    /// How many requests wait for `key`'s run: for tests, which wait for their requests to
    /// have arrived before letting a run end.
    public func waiters(for key: Key) -> Int {
        flights.withLock { $0[key]?.count ?? 0 }
    }
}
