#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of the process's own, for work that blocks (files, pipes, a renderer's recursion):
/// Swift concurrency's cooperative threads must never block, so every thread detour-report starts
/// is one of these.
///
/// A batch run's workers are joined; a reader of a pipe or a folder's watch runs detached, for
/// as long as what it reads. Each gets the main thread's stack size, not the 512 KiB or so a
/// secondary thread has by default: templates render recursively.
public final class PlainThread: @unchecked Sendable {
    // Only the new thread reads `body`, once; `handle` is written once, before `start` returns.
    private let body: @Sendable () -> Void
    private var handle = pthread_t()

    private init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// The stack each thread gets.
    public static let stackSize = 8 << 20

    /// The thread-specific key each of these threads sets, so that ``isCurrent`` can tell it.
    private static let marker: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Whether the calling thread is one of these (rather than one of Swift's cooperative
    /// threads, an event loop or the main thread).
    public static var isCurrent: Bool {
        guard let marker else { return false }
        return pthread_getspecific(marker) != nil
    }

    /// Starts `body` on a new thread, which ``join()`` waits for; `nil` when the system has no
    /// thread to give.
    public static func start(_ body: @escaping @Sendable () -> Void) -> PlainThread? {
        let thread = PlainThread(body)
        return thread.launch() ? thread : nil
    }

    /// Starts `body` on a new thread that nobody waits for; false when the system has no thread
    /// to give.
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let thread = PlainThread(body)
        guard thread.launch() else { return false }
        pthread_detach(thread.handle)
        return true
    }

    /// Returns once the thread has run its body.
    public func join() {
        pthread_join(handle, nil)
    }

    private func launch() -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.stackSize)
        let box = Unmanaged.passRetained(self)
        let status = pthread_create(
            &handle, &attributes,
            { pointer in
                guard let pointer else { return nil }
                if let marker = PlainThread.marker { pthread_setspecific(marker, pointer) }
                Unmanaged<PlainThread>.fromOpaque(pointer).takeRetainedValue().body()
                return nil
            }, box.toOpaque())
        if status != 0 { box.release() }
        return status == 0
    }
}
