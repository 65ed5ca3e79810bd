import ArgumentParser
import DetourCore
import DetourRender

/// Writes diagnostics to standard error: the one place detour-report reports a problem.
///
/// Text (the default) is one line each, as compilers write them:
/// `trip.json:3:14: error: destinations[0].name: the name must not be blank [blank-text]`.
/// JSON is one object per line (JSON Lines) with the same content, for editors and CI:
/// `{"severity","code","path","file","line","column","message"}`, `null` where unknown.
struct DiagnosticPrinter {
    /// How diagnostics are written.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text
        case json
    }

    /// The input's name as the user gave it.
    var file: String
    /// Text or JSON Lines.
    var format: Format = .text

    /// Prints each diagnostic on its own line; `file` names the file they are about when it is
    /// not the trip (a template, the output).
    func print(_ diagnostics: [Diagnostic], file: String? = nil) {
        guard !diagnostics.isEmpty else { return }
        StandardStreams.writeError(text(diagnostics, file: file))
    }

    /// The lines ``print(_:file:)`` would write, for a caller that writes them later (a batch run
    /// prints each trip's diagnostics in input order, whichever worker finished first).
    func text(_ diagnostics: [Diagnostic], file: String? = nil) -> String {
        let name = file ?? self.file
        return diagnostics.map { line($0, file: name) + "\n" }.joined()
    }

    /// Prints one problem with no position in a file, such as an unreadable input or output.
    func report(_ code: DiagnosticCode, _ message: String, file: String? = nil) {
        print([Diagnostic(code, message)], file: file)
    }

    private func line(_ diagnostic: Diagnostic, file: String) -> String {
        switch format {
        case .text:
            return diagnostic.formatted(file: file)
        case .json:
            let position = diagnostic.position
            return JSONOutput.object([
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("path", .string(diagnostic.path.flatMap { $0.isEmpty ? nil : Quoting.printable($0) })),
                ("file", .string(Diagnostic.displayName(file))),
                ("line", .int(position?.line)),
                ("column", .int(position?.column)),
                ("message", .string(Quoting.printable(diagnostic.fullMessage))),
            ]).serializedLine()
        }
    }
}
