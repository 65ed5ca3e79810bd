/// Where in a trip file something is: a field path and, where the reader knows it, a line and column.
///
/// The path names the field the way the user wrote it (`destinations[0].departure` for JSON);
/// line and column are 1-based and count Unicode scalars, so they match what editors show.
public struct SourceLocation: Sendable, Hashable {
    /// The field, as a reader of the file would name it.
    public var path: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?

    /// Creates a location from a path and an optional position.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// The same position with another path, for a field found at (or missing from) this place.
    public func with(path: String) -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }
}

/// How serious a diagnostic is: errors stop a report, warnings travel with it.
public enum Severity: String, Sendable, Hashable {
    case error
    case warning
}

/// One problem found in a trip, with where it is.
///
/// Readers and the validator never stop at the first problem: they return every diagnostic they
/// find, and the caller decides what to do with them.
public struct Diagnostic: Sendable, Hashable, Error {
    /// Whether this stops the report.
    public var severity: Severity
    /// Where the problem is; `nil` for the file as a whole.
    public var location: SourceLocation?
    /// What is wrong, in one sentence without a trailing period.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: SourceLocation?, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// An error at a location.
    public static func error(_ location: SourceLocation?, _ message: String) -> Diagnostic {
        Diagnostic(.error, at: location, message)
    }

    /// A warning at a location.
    public static func warning(_ location: SourceLocation?, _ message: String) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    /// The diagnostic as one line: `trip.json:3:14: error: destinations[0].name: message`.
    ///
    /// - Parameter file: the name to show for the input (`-` is shown as `<stdin>`).
    public func formatted(file: String) -> String {
        var head = file == "-" ? "<stdin>" : file
        if let line = location?.line {
            head += ":\(line)"
            if let column = location?.column { head += ":\(column)" }
        }
        var text = "\(head): \(severity.rawValue): "
        if let path = location?.path, !path.isEmpty { text += "\(path): " }
        text += message
        return Quoting.printable(text)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The errors only.
    public var errors: [Diagnostic] { filter { $0.severity == .error } }

    /// The warnings only.
    public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}
