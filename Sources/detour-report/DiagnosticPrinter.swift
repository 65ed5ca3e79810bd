import DetourCore

/// Writes diagnostics to standard error, one line each: `trip.json:3:14: error: path: message`.
struct DiagnosticPrinter {
    /// The input's name as the user gave it.
    var file: String

    /// Prints each diagnostic on its own line.
    func print(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        StandardStreams.writeError(diagnostics.map { $0.formatted(file: file) + "\n" }.joined())
    }

    /// Prints one error about the input as a whole.
    func fail(_ message: String) {
        StandardStreams.writeError(Diagnostic.error(nil, message).formatted(file: file) + "\n")
    }
}
