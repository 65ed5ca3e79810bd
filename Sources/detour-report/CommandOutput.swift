import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourFiles
import DetourJob
import DetourRender
import SystemPackage

/// Delivering what the command writes, and saying on standard error what went wrong.
enum CommandOutput {
    /// Writes what `produce` hands its sink to `path` (standard output for `nil` or `-`), as
    /// ``Delivery/deliver(to:store:flush:followLinks:isNew:registry:_:)`` does.
    ///
    /// Throws 73 when the target cannot be created or replaced, 74 when writing failed part-way;
    /// a reader that went away (`| head`) ends it quietly, with 74 still.
    static func write(
        to path: String?, printer: DiagnosticPrinter, flush: Bool = true,
        _ produce: (@escaping ReportSink) throws(Delivery.Failure) -> Void
    ) throws(ExitCode) {
        try write(toFile: path.flatMap { $0 == "-" ? nil : FilePath($0) }, printer: printer, flush: flush, produce)
    }

    /// Writes what `produce` hands its sink to the file `target` (standard output for `nil`).
    ///
    /// `followLinks` as ``Delivery/destination(of:store:followLinks:)`` takes it: `-o` follows
    /// them, a batch run's index does not.
    static func write(
        toFile target: FilePath?, printer: DiagnosticPrinter, flush: Bool = true, followLinks: Bool = true,
        _ produce: (@escaping ReportSink) throws(Delivery.Failure) -> Void
    ) throws(ExitCode) {
        do {
            try Delivery.deliver(to: target, store: fileStore, flush: flush, followLinks: followLinks, produce)
        } catch {
            if case .cutOff(_, readerWentAway: true) = error {
            } else {
                printer.print([error.diagnostic(target: target)], file: target?.string ?? "detour-report")
            }
            throw exitCode(error)
        }
    }

    /// Exit 73 when `path` names anything already there (`-` never does).
    ///
    /// The commands that make a trip (`init`, `import`) never replace one someone has written.
    /// `remedy` ends the message: what to do instead.
    static func refuseExisting(_ path: String, printer: DiagnosticPrinter, remedy: String) throws(ExitCode) {
        guard path != "-", (try? fileStore.info(FilePath(path), followLinks: false)) != nil else { return }
        printer.report(.cannotCreateOutput, "the file exists; \(remedy)", file: path)
        throw ExitCodes.cannotCreate
    }

    /// Writes `text` as ``write(to:printer:flush:_:)`` does.
    static func write(_ text: String, to path: String?, printer: DiagnosticPrinter) throws(ExitCode) {
        let bytes = Array(text.utf8)
        try write(to: path, printer: printer) { sink in sink(bytes) }
    }

    /// Writes `text` to the file `target` in a batch run's folder, never through a link there.
    static func write(_ text: String, toFile target: FilePath, printer: DiagnosticPrinter) throws(ExitCode) {
        let bytes = Array(text.utf8)
        try write(toFile: target, printer: printer, followLinks: false) { sink in sink(bytes) }
    }

    /// 73 for an output that could not be created, 74 for one cut off.
    static func exitCode(_ failure: Delivery.Failure) -> ExitCode {
        switch failure {
        case .cannotCreate: return ExitCodes.cannotCreate
        case .cutOff: return ExitCodes.ioError
        case .unprintable: return ExitCodes.unavailable
        }
    }
}
