import DetourCore
import DetourRender

/// How diagnostics are written out, for people and for programs: the command line, the index
/// of a batch run and the server all write them this way.
///
/// Text is one line each, as compilers write them:
/// `trip.json:3:14: error: destinations[0].name: the name must not be blank [blank-text]`.
/// JSON is one object with the same content, `null` where something is unknown:
/// `{"severity","code","path","file","line","column","message"}`.
public enum DiagnosticText {
    /// How messages name an input: `-` is standard input.
    public static func displayName(_ file: String) -> String {
        file == "-" ? "<stdin>" : file
    }

    /// The diagnostic as one line, control characters made visible.
    ///
    /// - Parameters:
    ///   - diagnostic: what to write.
    ///   - file: the input's name as the user gave it (`-` is written `<stdin>`).
    /// - Returns: the line, without a line break.
    public static func line(_ diagnostic: Diagnostic, file: String) -> String {
        Quoting.printable(displayName(file)) + ":" + lineWithoutFile(diagnostic)
    }

    /// The diagnostic as a line without the file's name in front, as the index shows a trip's
    /// first error beside the file: `3:14: error: …` (` error: …` without a place).
    public static func lineWithoutFile(_ diagnostic: Diagnostic) -> String {
        var text = ""
        if let line = diagnostic.position?.line {
            text += "\(line)"
            if let column = diagnostic.position?.column { text += ":\(column)" }
            text += ":"
        }
        text += " \(diagnostic.severity.rawValue): "
        if let path = diagnostic.path, !path.isEmpty { text += "\(path): " }
        text += "\(diagnostic.fullMessage) [\(diagnostic.code.rawValue)]"
        return Quoting.printable(text)
    }

    /// The diagnostic as one JSON object.
    public static func json(_ diagnostic: Diagnostic, file: String) -> JSONOutput {
        let position = diagnostic.position
        return .object([
            ("severity", .string(diagnostic.severity.rawValue)),
            ("code", .string(diagnostic.code.rawValue)),
            ("path", .string(diagnostic.path.flatMap { $0.isEmpty ? nil : Quoting.printable($0) })),
            ("file", .string(displayName(file))),
            ("line", .int(position?.line)),
            ("column", .int(position?.column)),
            ("message", .string(Quoting.printable(diagnostic.fullMessage))),
        ])
    }
}
