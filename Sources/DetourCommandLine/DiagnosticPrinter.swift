import ArgumentParser
import DetourCore
import DetourJob
import DetourRender

/// Writes diagnostics to standard error: the one place detour-report reports a problem.
///
/// Text (the default) is one line each, as compilers write them; JSON is one object per line
/// (JSON Lines) with the same content, for editors and CI (see ``DiagnosticText``).
public struct DiagnosticPrinter: Sendable {
    /// How diagnostics are written.
    public enum Format: String, CaseIterable, Sendable, ExpressibleByArgument {
        case text
        case json

        /// The format `--diagnostics` asks for in `arguments`, read before ArgumentParser has
        /// (which may have failed): the last one given before `--`, or text.
        public static func requested(in arguments: [String]) -> Format {
            var format = Format.text
            var index = 0
            while index < arguments.count, arguments[index] != "--" {
                let argument = arguments[index]
                if argument == "--diagnostics", index + 1 < arguments.count {
                    format = Format(rawValue: arguments[index + 1]) ?? format
                    index += 1
                } else if argument.hasPrefix("--diagnostics=") {
                    format = Format(rawValue: String(argument.dropFirst("--diagnostics=".count))) ?? format
                }
                index += 1
            }
            return format
        }
    }

    /// The input's name as the user gave it.
    public var file: String
    /// Text or JSON Lines.
    public var format: Format = .text
    /// Whether text lists every warning (`--all-warnings`), past ``warningsPerCode`` of a code.
    public var allWarnings = false
    /// Whether the command has `--max-input-mib`, which a file too large is told of.
    public var hasInputLimitOption = true

    /// How many warnings of one code text lists before it says how many more there are.
    ///
    /// A large trip's tens of thousands of warnings of one kind would bury everything else on a
    /// terminal. JSON (for programs) and the reports keep every one.
    public static let warningsPerCode = 20

    public init(file: String, format: Format = .text, allWarnings: Bool = false) {
        self.file = file
        self.format = format
        self.allWarnings = allWarnings
    }

    /// Prints each diagnostic on its own line; `file` names the file they are about when it is
    /// not the trip (a template, the output).
    public func print(_ diagnostics: [Diagnostic], file: String? = nil) {
        guard !diagnostics.isEmpty else { return }
        StandardStreams.writeError(text(diagnostics, file: file))
    }

    /// The lines ``print(_:file:)`` would write, for a caller that writes them later (a batch run
    /// prints each trip's diagnostics in input order, whichever worker finished first).
    public func text(_ diagnostics: [Diagnostic], file: String? = nil) -> String {
        let name = file ?? self.file
        return text(diagnostics.map { ($0, name) })
    }

    /// The lines of `items`, each diagnostic with the file it is about, in order; in text, after
    /// ``warningsPerCode`` warnings of one code the rest of that code are counted, not listed,
    /// and one line at the end says how many there were.
    public func text(_ items: [(diagnostic: Diagnostic, file: String)]) -> String {
        let capped = format == .text && !allWarnings
        var counts: [DiagnosticCode: (count: Int, file: String)] = [:]
        var order: [DiagnosticCode] = []
        var out = ""
        for (diagnostic, file) in items {
            if capped, diagnostic.severity == .warning {
                let count = (counts[diagnostic.code]?.count ?? 0) + 1
                if count == 1 { order.append(diagnostic.code) }
                counts[diagnostic.code] = (count, file)
                if count > DiagnosticPrinter.warningsPerCode { continue }
            }
            out +=
                line(DiagnosticPrinter.withHint(diagnostic, file: file, inputLimit: hasInputLimitOption), file: file)
                + "\n"
        }
        for code in order {
            guard let (count, file) = counts[code], count > DiagnosticPrinter.warningsPerCode else { continue }
            let more = count - DiagnosticPrinter.warningsPerCode
            let message =
                "\(more) more \(code.rawValue) \(more == 1 ? "warning" : "warnings") not shown; --all-warnings shows every one"
            out += line(Diagnostic(code, message), file: file) + "\n"
        }
        return out
    }

    /// Prints one problem with no position in a file, such as an unreadable input or output.
    public func report(_ code: DiagnosticCode, _ message: String, file: String? = nil) {
        print([Diagnostic(code, message)], file: file)
    }

    private func line(_ diagnostic: Diagnostic, file: String) -> String {
        switch format {
        case .text: return DiagnosticText.line(diagnostic, file: file)
        case .json: return DiagnosticText.json(diagnostic, file: file).serializedLine()
        }
    }

    /// The diagnostic with what this command's options can do about it.
    public static func withHint(_ diagnostic: Diagnostic, file: String, inputLimit: Bool = true) -> Diagnostic {
        var hinted = diagnostic
        switch diagnostic.code {
        case .fileTooLarge where inputLimit:
            hinted.message += "; raise it with --max-input-mib N"
        case .gpxNoTrip:
            let command = "detour-report import \(file)"
            hinted.message += "; \(Quoting.quoted(command, limit: nil)) makes a draft trip of its places"
        default:
            break
        }
        return hinted
    }
}

/// `--diagnostics text|json`, declared once for every command that prints problems.
public struct DiagnosticsOption: ParsableArguments {
    @Option(
        name: .customLong("diagnostics"),
        help: ArgumentHelp(
            "How problems are written to standard error: text, or json (one JSON object per line).",
            valueName: "format"))
    public var format: DiagnosticPrinter.Format = .text

    public init() {}
}
