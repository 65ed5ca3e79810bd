import Synchronization
import SystemPackage

/// The temporary files the run is writing, so that an interrupted run leaves none behind.
///
/// ``Delivery`` writes every report to a temporary file beside its target and renames it into
/// place when complete. A signal that ends the program (Ctrl-C, `kill`) would leave those files,
/// tens of megabytes each, hidden in the output folder. Each is registered here from the moment
/// it is created until it is renamed or removed, under one lock, so the executable's signal
/// handler can ``stop()`` the run, remove exactly the files still open, and exit: finished
/// reports, and an index not yet rewritten, stay as they were.
public final class TemporaryFiles: Sendable {
    /// The run's registry.
    public static let shared = TemporaryFiles()

    private struct State {
        var paths: Set<FilePath> = []
        var stopped = false
    }

    private let state = Mutex(State())

    init() {}

    /// Creates a temporary file with `create` and registers it, in one step no signal can split;
    /// once the run is stopped, no more are created.
    func making(_ create: () throws(FileError) -> any TemporaryFile) throws(FileError) -> any TemporaryFile {
        try state.withLock { (state: inout State) throws(FileError) -> any TemporaryFile in
            guard !state.stopped else { throw FileError(.interrupted, reason: "the run was interrupted") }
            let file = try create()
            state.paths.insert(file.path)
            return file
        }
    }

    /// Forgets `path`: it was renamed into place or removed.
    func forget(_ path: FilePath) {
        _ = state.withLock { $0.paths.remove(path) }
    }

    /// Stops the run: no temporary file is created from now on, and the ones still being
    /// written are returned, for the caller to remove.
    public func stop() -> [FilePath] {
        state.withLock { state in
            state.stopped = true
            return Array(state.paths)
        }
    }
}
