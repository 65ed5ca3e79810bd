import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an interrupted run must not leave behind: the names its new files have in the output
/// folder before they replace their targets.
///
/// ``Delivery`` writes every report to a new file beside its target and puts it in place when
/// complete. A signal that ends the program (Ctrl-C, `kill`) must leave neither half a report
/// nor a hidden temporary file, tens of megabytes each. Where the file system allows it (Linux:
/// ext4, XFS, Btrfs, tmpfs), the new file has no name at all while it is written (`O_TMPFILE`):
/// if the program ends, the kernel frees it. It gets a name only in the step that puts it in
/// place: under its target's own name when there is none yet, or under a temporary name that a
/// rename at once moves over the old file. Elsewhere the file is named `.NAME.XXXXXX` from its
/// creation, and its name is remembered here until it is renamed or removed.
///
/// Every step that can leave a name (creating a named file, putting a file in place) runs in
/// ``step(_:)``, which costs a thread two atomic additions and never waits. The executable's
/// signal handler calls ``stop()``: from then on no step starts; it waits for the steps under
/// way (a system call or two each), then removes the named files still being written, and the
/// program exits. No worker of a batch run ever waits for another here.
public final class TemporaryFiles: Sendable {
    /// The run's registry.
    public static let shared = TemporaryFiles()

    /// Set by ``stop()``: no step starts from then on.
    private let stopped = Atomic(false)
    /// How many threads are in a step.
    private let inSteps = Atomic(0)
    /// The named files being written, on file systems without unnamed files.
    private let named = Mutex<Set<FilePath>>([])

    /// A registry of its own; the run's is ``shared``.
    public init() {}

    /// Runs `body`, a step that may leave a file's name in a folder, so that a stop comes before
    /// it or after it, never in its middle; once the run is stopped, returns `nil` instead.
    ///
    /// A thread counts itself in, then looks at ``stopped``; ``stop()`` sets ``stopped``, then
    /// waits for the count to fall to zero. Both in sequentially consistent order, so either the
    /// step sees the stop and does nothing, or the stop sees the step and waits for it.
    func step<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T? {
        inSteps.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { inSteps.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard !stopped.load(ordering: .sequentiallyConsistent) else { return nil }
        return try body()
    }

    /// Remembers the named file `path`, created in a ``step(_:)``, until ``forget(_:)``.
    func remember(_ path: FilePath) {
        _ = named.withLock { $0.insert(path) }
    }

    /// Forgets the named file `path`: it was renamed into place or removed.
    func forget(_ path: FilePath) {
        _ = named.withLock { $0.remove(path) }
    }

    /// Stops the run: no step starts from now on.
    ///
    /// Returns, once the steps under way have ended, the named files still being written, for
    /// the caller to remove.
    public func stop() -> [FilePath] {
        stopped.store(true, ordering: .sequentiallyConsistent)
        while inSteps.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
        return named.withLock { Array($0) }
    }
}
