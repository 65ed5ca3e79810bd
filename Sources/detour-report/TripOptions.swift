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

    /// The trip's format when the option or the file name settles it.
    var declaredFormat: TripFormat? {
        inputFormat ?? TripFormat(fileName: input)
    }

    /// Reads and validates the trip, printing every diagnostic.
    ///
    /// Throws the exit code to end with when the trip cannot be read or is invalid.
    func loadTrip() throws(ExitCode) -> (trip: Trip, warnings: [Diagnostic]) {
        let printer = DiagnosticPrinter(file: input)
        let outcome: TripValidator.Outcome
        do throws(Files.Failure) {
            if declaredFormat == .gpx {
                // GPX streams: a track of millions of points never sits in memory whole.
                outcome = TripLoader.loadGPX(try Files.open(input), name: input)
            } else {
                let bytes = try Files.read(input)
                outcome = TripLoader.load(bytes, format: declaredFormat ?? TripFormat(sniffing: Array(bytes.prefix(64))))
            }
        } catch {
            printer.fail("cannot read the trip: \(error.reason)")
            throw ExitCodes.noInput
        }
        printer.print(outcome.diagnostics)
        guard let trip = outcome.trip else { throw ExitCodes.invalidTrip }
        return (trip, outcome.diagnostics.warnings)
    }
}

extension TripFormat: ExpressibleByArgument {}
