import ArgumentParser
import DetourCore
import DetourIO
import Foundation

/// The options every command that reads a trip takes.
struct TripOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The trip file (JSON), or - for standard input.", valueName: "trip"))
    var input: String

    @Option(help: ArgumentHelp("The trip format when the file name does not tell it.", valueName: "format"))
    var inputFormat: TripFormat?

    /// The trip's format: the option, else the file extension, else JSON.
    var format: TripFormat {
        inputFormat ?? TripFormat(fileName: input) ?? .json
    }

    /// Reads and validates the trip, printing every diagnostic.
    ///
    /// Throws the exit code to end with when the trip cannot be read or is invalid.
    func loadTrip() throws(ExitCode) -> (trip: Trip, warnings: [Diagnostic]) {
        let printer = DiagnosticPrinter(file: input)
        let bytes: [UInt8]
        do {
            bytes = try Files.read(input)
        } catch {
            printer.fail("cannot read the trip: \(error.reason)")
            throw ExitCodes.noInput
        }
        let outcome = TripLoader.load(bytes, format: format)
        printer.print(outcome.diagnostics)
        guard let trip = outcome.trip else { throw ExitCodes.invalidTrip }
        return (trip, outcome.diagnostics.warnings)
    }
}

extension TripFormat: ExpressibleByArgument {}
