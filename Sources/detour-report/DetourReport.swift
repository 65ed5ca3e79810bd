import ArgumentParser
import DetourCommandLine
import DetourIO
import DetourRender
import Foundation

/// `detour-report`: plans a trip and writes its itinerary.
@main
struct DetourReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detour-report",
        abstract: "Turn a trip file into a printable itinerary that compares each detour's two sides.",
        discussion: """
            Reads a trip (JSON or GPX) and writes an HTML, Markdown or JSON report, a calendar \
            (iCalendar) or a map (GeoJSON) of its plan, or the trip as GPX, to standard output or \
            to a file. Problems in the trip are reported on standard error, all at once, as \
            FILE:LINE:COLUMN: error: PATH: MESSAGE.

            Exit codes: 0 done (warnings allowed), 64 bad usage, 65 invalid trip, 66 input missing \
            or unreadable, 73 output file cannot be written, 74 write failed (disk full), 78 \
            unusable --templates, 130 and 143 interrupted (SIGINT, SIGTERM; no temporary file is \
            left).
            """,
        version: "\(ProgramVersion.nameAndNumber) (libxml2 \(LibXML2.dottedVersion))",
        subcommands: [Render.self, Validate.self, Index.self, Serve.self],
        defaultSubcommand: Render.self
    )

    /// Runs the command as ArgumentParser does, except that with `--diagnostics json` a usage
    /// error (an unknown option, a bad value, a missing argument) is one JSON object with the
    /// code `usage`, like every other problem, instead of ArgumentParser's text.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // A command that has printed its problem ends with an `ExitCode` and nothing to add.
            if !(error is ExitCode), exitCode(for: error) == ExitCodes.usage,
                DiagnosticPrinter.Format.requested(in: arguments) == .json
            {
                // ArgumentParser lists a bad value's choices on lines of their own: one line here.
                let message = message(for: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                DiagnosticPrinter(file: "detour-report", format: .json).report(.usage, message.joined(separator: " "))
                Foundation.exit(ExitCodes.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}
