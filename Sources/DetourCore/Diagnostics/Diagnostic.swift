/// Where in a trip file something is: a field path and, where the reader knows it, a line and column.
///
/// The path names the field the way the user wrote it (`destinations[0].departure` for JSON);
/// line and column are 1-based and count Unicode scalars, so they match what editors show.
/// Readers may record only a byte offset and fill in line and column for the few locations that
/// end up in a diagnostic (see ``resolvingPosition(_:)``): most locations are never shown.
public struct SourceLocation: Sendable, Hashable {
    /// The enclosing object's path, such as `destinations[0]`.
    public var parent: String
    /// The field within it, such as `departure`; empty when the path is the parent itself.
    public var field: String
    // A trip has a location for every value it holds, so positions are kept small: 32 bits
    // each, -1 for "not known".
    private var storedOffset: Int32 = -1
    private var storedLine: Int32 = -1
    private var storedColumn: Int32 = -1

    /// The byte offset in the input, when known.
    public var offset: Int? {
        get { storedOffset < 0 ? nil : Int(storedOffset) }
        set { storedOffset = SourceLocation.pack(newValue) }
    }

    /// The 1-based line, when known.
    public var line: Int? {
        get { storedLine < 0 ? nil : Int(storedLine) }
        set { storedLine = SourceLocation.pack(newValue) }
    }

    /// The 1-based column, when known.
    public var column: Int? {
        get { storedColumn < 0 ? nil : Int(storedColumn) }
        set { storedColumn = SourceLocation.pack(newValue) }
    }

    private static func pack(_ value: Int?) -> Int32 {
        guard let value, value >= 0 else { return -1 }
        return Int32(clamping: value)
    }

    /// Creates a location from a full path and an optional position.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.parent = path
        self.field = ""
        self.line = line
        self.column = column
    }

    /// Creates the location of `field` within `parent`, found at a byte offset or on a line.
    ///
    /// Keeping the two parts apart lets every field of an object share its parent's string;
    /// the path is only put together when a message needs it.
    public init(parent: String, field: String, offset: Int? = nil, line: Int? = nil) {
        self.parent = parent
        self.field = field
        self.offset = offset
        self.line = line
    }

    /// The field, as a reader of the file would name it: `destinations[0].departure`.
    ///
    /// A field is joined to its parent with a `.`, unless it starts with `[` (an index) or `:`
    /// (GPX's `wpt 2 "Tram": dr:task duration`), which attach as they are.
    public var path: String {
        if field.isEmpty { return parent }
        if parent.isEmpty { return field }
        if field.hasPrefix("[") { return parent + field }
        if field.hasPrefix(":") { return parent + field }
        return parent + "." + field
    }

    /// This location with line and column filled in from its offset by `position`.
    public func resolvingPosition(_ position: (Int) -> (line: Int, column: Int)) -> SourceLocation {
        guard line == nil, let offset else { return self }
        var resolved = self
        (resolved.line, resolved.column) = position(offset)
        return resolved
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
