import DetourCommandLine
import DetourJob
import Dispatch
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What Ctrl-C (SIGINT) and `kill` (SIGTERM) do to a run that writes files.
///
/// The signal stops the run where it is: no report is started any more, the temporary files
/// being written are removed (see ``TemporaryFiles``), and the program exits with 128 plus the
/// signal's number (130, 143), as a shell reports a program the signal ended. A browser printing
/// PDFs is ended and its profile removed, and so is the folder `--check -d` renders into. Reports already
/// written stay, and so does the old index: a batch writes its index last.
enum Interrupts {
    /// The sources that watch the two signals; kept for the run's life.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Set when a signal has come: its handler is ending the run, and exits.
    private static let interrupted = Atomic(false)

    /// Temporary folders of the run (`--check -d` renders into one), removed with all they hold.
    private static let folders = Mutex<[FilePath]>([])

    /// Removes `folder` and everything in it if a signal ends the run.
    static func removeOnSignal(_ folder: FilePath) {
        folders.withLock { $0.append(folder) }
    }

    /// Installs the handling, once, before anything is written.
    static func removeTemporariesAndExit() {
        guard sources.isEmpty else { return }
        let queue = DispatchQueue(label: "detour-report.signals")
        for number in [SIGINT, SIGTERM] {
            // The signal is taken from its default action (which would end the program at once,
            // leaving the files) and handed to the queue.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                interrupted.store(true, ordering: .sequentiallyConsistent)
                for path in TemporaryFiles.shared.stop() { fileStore.remove(path) }
                for folder in folders.withLock({ $0 }) { TemporaryFolder.remove(folder) }
                ChromiumPrinter.endAll()
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Waits for the handler to exit when a signal has come, so the run that it cut short does
    /// not exit first, with its own code, while the handler is still cleaning up (ending a
    /// browser takes a moment).
    static func letTheHandlerExit() {
        guard interrupted.load(ordering: .sequentiallyConsistent) else { return }
        while true { pause() }
    }
}
