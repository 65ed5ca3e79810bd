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
        Quoting.printable(location(diagnostic, file: file) + ": " + body(diagnostic))
    }

    /// The diagnostic as a line without the file's name in front, as the index shows a trip's
    /// first error beside the file: `3:14: error: …`, or `error: …` when it has no place.
    public static func lineWithoutFile(_ diagnostic: Diagnostic) -> String {
        let place = place(diagnostic)
        return Quoting.printable((place.isEmpty ? "" : place.dropFirst() + ": ") + body(diagnostic))
    }

    /// Where the diagnostic is: `trip.json:3:14`, `trip.gpx:5`, or the file's name alone.
    public static func location(_ diagnostic: Diagnostic, file: String) -> String {
        displayName(file) + place(diagnostic)
    }

    /// `:LINE:COLUMN`, `:LINE`, or nothing.
    private static func place(_ diagnostic: Diagnostic) -> String {
        guard let line = diagnostic.position?.line else { return "" }
        return ":\(line)" + (diagnostic.position?.column.map { ":\($0)" } ?? "")
    }

    /// `SEVERITY: PATH: MESSAGE [CODE]`, the path left out when there is none.
    private static func body(_ diagnostic: Diagnostic) -> String {
        var text = "\(diagnostic.severity.rawValue): "
        if let path = diagnostic.path, !path.isEmpty { text += "\(path): " }
        return text + "\(diagnostic.fullMessage) [\(diagnostic.code.rawValue)]"
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
