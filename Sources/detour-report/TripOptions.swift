import ArgumentParser
import DetourCore
import DetourIO
import Foundation

/// The options every command that reads a trip takes.
struct TripOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The trip file (JSON or GPX), or - for standard input.", valueName: "trip"))
    var input: String

    @Option(
        help: ArgumentHelp(
            "The trip format (json or gpx) when the file name does not tell it; otherwise the first bytes decide.",
            valueName: "format"))
    var inputFormat: TripFormat?

    @Option(
        help: ArgumentHelp(
            "The largest trip file accepted, in MiB (default 64 for JSON, which is read whole; 4096 for GPX, which streams).",
            valueName: "mib"))
    var maxInputMib: Int?

    @Option(
        help: ArgumentHelp(
            "How problems are written to standard error: text (default), or json (one JSON object per line).",
            valueName: "format"))
    var diagnostics: DiagnosticPrinter.Format = .text

    /// Where problems go, in the format asked for.
    var printer: DiagnosticPrinter { DiagnosticPrinter(file: input, format: diagnostics) }

    /// The reading limits, with the input size from `--max-input-mib` when given.
    var limits: ReadLimits {
        maxInputMib.map { ReadLimits.standard.withInputLimit(mebibytes: $0) } ?? .standard
    }

    mutating func validate() throws {
        if let maxInputMib, !(1...1_048_576).contains(maxInputMib) {
            throw ValidationError("--max-input-mib must be between 1 and 1048576")
        }
    }

    /// The trip's format when the option or the file name settles it.
    var declaredFormat: TripFormat? {
        inputFormat ?? TripFormat(fileName: input)
    }

    /// Reads and validates the trip, printing every diagnostic.
    ///
    /// Throws the exit code to end with when the trip cannot be read or is invalid.
    func loadTrip() throws(ExitCode) -> (trip: Trip, warnings: [Diagnostic]) {
        let outcome: TripValidator.Outcome?
        do throws(Files.Failure) {
            if declaredFormat == .gpx {
                // GPX streams: a track of millions of points never sits in memory whole.
                outcome = TripLoader.loadGPX(try Files.open(input), name: input, limits: limits)
            } else if let bytes = try Files.read(input, limit: limits.maxJSONBytes) {
                let format = declaredFormat ?? TripFormat(sniffing: Array(bytes.prefix(64)))
                outcome = TripLoader.load(bytes, format: format, limits: limits)
            } else {
                outcome = nil
            }
        } catch {
            printer.report(.readFailed, "cannot read the trip: \(error.reason)")
            throw ExitCodes.noInput
        }
        guard let outcome else {
            printer.print([ReadLimits.tooLarge("a trip read whole (JSON)", limit: limits.maxJSONBytes)])
            throw ExitCodes.invalidTrip
        }
        printer.print(outcome.diagnostics)
        guard let trip = outcome.trip else { throw ExitCodes.invalidTrip }
        return (trip, outcome.diagnostics.warnings)
    }
}

extension TripFormat: ExpressibleByArgument {}
