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

/// The trip file formats detour-report reads.
public enum TripFormat: String, Sendable, CaseIterable {
    /// Trip JSON, version 1.
    case json
    /// GPX 1.1 or 1.0 in the detour-report mapping.
    case gpx

    /// The format a file name implies, or `nil` when its extension is not one we read.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".json") {
            self = .json
        } else if lowered.hasSuffix(".gpx") || lowered.hasSuffix(".xml") {
            self = .gpx
        } else {
            return nil
        }
    }

    /// The format the first bytes of a file suggest: `<` means XML, anything else JSON.
    public init(sniffing prefix: [UInt8]) {
        let start = prefix.drop { [0xEF, 0xBB, 0xBF, 0xFE, 0xFF, 0x00, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
        self = start.first == UInt8(ascii: "<") ? .gpx : .json
    }
}

/// Reads and validates a trip in one call.
public enum TripLoader {
    /// Reads `bytes` in `format` and validates the result.
    ///
    /// The diagnostics hold everything the reader and the validator found; the trip is there
    /// only when none of them is an error.
    public static func load(_ bytes: [UInt8], format: TripFormat, limits: ReadLimits = .standard)
        -> TripValidator.Outcome
    {
        switch format {
        case .json: return validate(TripJSONReader.read(bytes, limits: limits), limits: limits.trip)
        case .gpx: return validate(TripGPXReader.read(BufferSource(bytes), limits: limits), limits: limits.trip)
        }
    }

    /// Reads a GPX trip from a stream (memory stays flat) and validates it.
    public static func loadGPX(_ source: some ByteSource, name: String, limits: ReadLimits = .standard)
        -> TripValidator.Outcome
    {
        validate(TripGPXReader.read(source, name: name, limits: limits), limits: limits.trip)
    }

    /// Validates what a reader found, merging its diagnostics with the validator's in file order.
    static func validate(_ read: ReadResult, limits: TripLimits) -> TripValidator.Outcome {
        var outcome =
            read.draft.map { TripValidator.validate($0, limits: limits) }
            ?? TripValidator.Outcome(trip: nil, diagnostics: [])
        var diagnostics = read.diagnostics + outcome.diagnostics
        if let lines = read.lines {
            let positions = lines.positions(of: diagnostics.compactMap { $0.position?.offset })
            diagnostics = diagnostics.map { diagnostic in
                var resolved = diagnostic
                resolved.position = diagnostic.position?.resolvingPosition { positions[$0] ?? (1, 1) }
                return resolved
            }
        }
        outcome.diagnostics = sortedByPosition(diagnostics)
        if read.diagnostics.containsErrors { outcome.trip = nil }
        return outcome
    }

    /// Diagnostics in file order (line, then column); those without a position keep their place
    /// at the front, and equal positions keep the order they were found in.
    static func sortedByPosition(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let left = (a.element.position?.line ?? 0, a.element.position?.column ?? 0, a.offset)
            let right = (b.element.position?.line ?? 0, b.element.position?.column ?? 0, b.offset)
            return left < right
        }.map(\.element)
    }
}
