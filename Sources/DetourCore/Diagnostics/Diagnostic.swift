/// Where in a trip file a value was written: a byte offset or a line and column, and for GPX the
/// element that holds it.
///
/// Readers record positions for every value they find; most are never shown, so a reader may
/// record only a byte offset and let ``resolvingPosition(_:)`` fill in line and column for the
/// few that end up in a diagnostic. Lines and columns are 1-based and count Unicode scalars, so
/// they match what editors show.
public struct SourcePosition: Sendable, Hashable {
    // A trip has a position for every value it holds, so they are kept small: 32 bits each,
    // -1 for "not known".
    private var storedOffset: Int32 = -1
    private var storedLine: Int32 = -1
    private var storedColumn: Int32 = -1
    /// How a GPX file's reader names the element, such as `wpt 2 "Ride Tram 28"`; shared by every
    /// value of that element, so it costs one reference each.
    public var element: String?

    /// The byte offset in the input, when known.
    public var offset: Int? {
        get { storedOffset < 0 ? nil : Int(storedOffset) }
        set { storedOffset = SourcePosition.pack(newValue) }
    }

    /// The 1-based line, when known.
    public var line: Int? {
        get { storedLine < 0 ? nil : Int(storedLine) }
        set { storedLine = SourcePosition.pack(newValue) }
    }

    /// The 1-based column, when known.
    public var column: Int? {
        get { storedColumn < 0 ? nil : Int(storedColumn) }
        set { storedColumn = SourcePosition.pack(newValue) }
    }

    private static func pack(_ value: Int?) -> Int32 {
        guard let value, value >= 0 else { return -1 }
        return Int32(clamping: value)
    }

    /// A position nobody knows: the file as a whole.
    public static let unknown = SourcePosition()

    /// Creates a position from what the reader knows.
    public init(offset: Int? = nil, line: Int? = nil, column: Int? = nil, element: String? = nil) {
        self.offset = offset
        self.line = line
        self.column = column
        self.element = element
    }

    /// This position with line and column filled in from its offset by `position`.
    public func resolvingPosition(_ position: (Int) -> (line: Int, column: Int)) -> SourcePosition {
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

/// One problem found in a trip, or in running detour-report, with where it is.
///
/// Readers and the validator never stop at the first problem: they return every diagnostic they
/// find, and the caller decides what to do with them. Each carries a stable ``code`` that
/// `docs/diagnostics.md` explains; its severity follows from the code.
public struct Diagnostic: Sendable, Hashable, Error {
    /// What kind of problem this is; stable across versions, so scripts and people can search it.
    public var code: DiagnosticCode
    /// The field in the trip, spelled as in trip JSON whatever the file's format
    /// (`destinations[0].detours[1].tasks[0].duration`); `nil` for no single field.
    public var path: String?
    /// Where in the file; `nil` when the reader could not tell.
    public var position: SourcePosition?
    /// What is wrong, in one sentence without a trailing period.
    public var message: String

    /// Whether this stops the report.
    public var severity: Severity { code.severity }

    /// Creates a diagnostic.
    public init(_ code: DiagnosticCode, path: String? = nil, at position: SourcePosition? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.position = position
        self.message = message
    }

    /// The message with the GPX element it concerns in front, when the position names one:
    /// `wpt 2 "Ride Tram 28": duration "PT" is not a duration …`.
    public var fullMessage: String {
        guard let element = position?.element, !element.isEmpty else { return message }
        return "\(element): \(message)"
    }
}

extension Collection where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The errors only.
    public var errors: [Diagnostic] { filter { $0.severity == .error } }

    /// The warnings only.
    public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}
