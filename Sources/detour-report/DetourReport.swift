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
        subcommands: [Render.self, Validate.self, Index.self, Serve.self, User.self, Init.self, Import.self],
        defaultSubcommand: Render.self
    )

    /// The names of the subcommands, which a mistyped first argument is compared with.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// Runs the command as ArgumentParser does, except that with `--diagnostics json` a usage
    /// error (an unknown option, a bad value, a missing argument) is one JSON object with the
    /// code `usage`, like every other problem, instead of ArgumentParser's text.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let shell = CompletionScripts.requested(in: arguments) {
            print(CompletionScripts.script(for: shell))
            return
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let mistake as UsageMistake {
            // A mistake found when the command ran reads as ArgumentParser's own, with the usage
            // of the command it was found in.
            if DiagnosticPrinter.Format.requested(in: arguments) == .json {
                DiagnosticPrinter(file: "detour-report", format: .json).report(.usage, mistake.message)
            } else {
                let name = mistake.command.map { " \($0.configuration.commandName ?? "")" } ?? ""
                let usage = usageString(for: mistake.command ?? DetourReport.self)
                StandardStreams.writeError(
                    "Error: \(mistake.message)\nUsage: \(usage)\n  See 'detour-report\(name) --help' for more information.\n"
                )
            }
            Foundation.exit(ExitCodes.usage.rawValue)
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

/// A mistake on the command line found when a command runs rather than while ArgumentParser
/// parses (see `Render.checkUsage`): exit 64 with the usage of `command`, or of detour-report
/// itself when `nil`.
struct UsageMistake: Error {
    var message: String
    var command: (any ParsableCommand.Type)?
}
