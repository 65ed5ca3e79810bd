import DetourCore

/// What a reader found in a trip file: a draft to validate, and the problems met on the way.
public struct ReadResult: Sendable {
    /// The draft, unless the file could not be read as a trip at all.
    public var draft: TripDraft?
    /// Problems found while reading, in file order.
    public var diagnostics: [Diagnostic]
    /// Turns the byte offsets in locations into lines and columns, for the format's text.
    public var lines: LineTable?

    /// Creates a result.
    public init(draft: TripDraft?, diagnostics: [Diagnostic], lines: LineTable? = nil) {
        self.draft = draft
        self.diagnostics = diagnostics
        self.lines = lines
    }

    /// A file that could not be read as a trip.
    public static func failed(_ diagnostic: Diagnostic) -> ReadResult {
        ReadResult(draft: nil, diagnostics: [diagnostic])
    }
}
