import ArgumentParser
import DetourCore
import DetourIO
import Foundation

/// The options every command that reads a trip takes.
struct TripOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The trip file (JSON or GPX), or - for standard input; with -d, any number of trips and folders of trips.",
            valueName: "trip"))
    var inputs: [String] = []

    /// The one trip of a command that reads one.
    var input: String { inputs.first ?? "-" }

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
        if inputs.isEmpty {
            throw ValidationError("Missing expected argument '<trip>'")
        }
        if let maxInputMib, !(1...1_048_576).contains(maxInputMib) {
            throw ValidationError("--max-input-mib must be between 1 and 1048576")
        }
    }

    /// Reads and validates the trip, printing every diagnostic.
    ///
    /// Throws the exit code to end with when the trip cannot be read or is invalid.
    func loadTrip() throws(ExitCode) -> (trip: Trip, warnings: [Diagnostic]) {
        let outcome: TripValidator.Outcome
        switch TripOptions.read(input, format: inputFormat, limits: limits) {
        case .unreadable(let diagnostic):
            printer.print([diagnostic])
            throw ExitCodes.noInput
        case .read(let read):
            outcome = read
        }
        printer.print(outcome.diagnostics)
        guard let trip = outcome.trip else { throw ExitCodes.invalidTrip }
        return (trip, outcome.diagnostics.warnings)
    }

    /// What reading a trip file gave: the file could not be read, or the reader's and the
    /// validator's findings (a file over the size limit is an invalid trip, as JSON says).
    enum Reading {
        case unreadable(Diagnostic)
        case read(TripValidator.Outcome)
    }

    /// Reads and validates the trip at `path`, printing nothing.
    static func read(_ path: String, format inputFormat: TripFormat?, limits: ReadLimits) -> Reading {
        let declared = inputFormat ?? TripFormat(fileName: path)
        do throws(Files.Failure) {
            if declared == .gpx {
                // GPX streams: a track of millions of points never sits in memory whole.
                return .read(TripLoader.loadGPX(try Files.open(path), name: path, limits: limits))
            } else if let bytes = try Files.read(path, limit: limits.maxJSONBytes) {
                let format = declared ?? TripFormat(sniffing: Array(bytes.prefix(64)))
                return .read(TripLoader.load(bytes, format: format, limits: limits))
            } else {
                let tooLarge = ReadLimits.tooLarge("a trip read whole (JSON)", limit: limits.maxJSONBytes)
                return .read(TripValidator.Outcome(trip: nil, diagnostics: [tooLarge]))
            }
        } catch {
            return .unreadable(Diagnostic(.readFailed, "cannot read the trip: \(error.reason)"))
        }
    }
}

extension TripFormat: ExpressibleByArgument {}
