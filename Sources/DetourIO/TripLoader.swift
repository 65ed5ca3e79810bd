import DetourCore

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
        case .json:
            if bytes.count <= limits.maxJSONBytes, TextEncoding.isBlank(bytes) { return empty(.json) }
            // Validated as it is read: the whole draft of a large trip would be several times its file.
            let (read, outcome) = TripJSONReader.readValidating(bytes, limits: limits)
            return merge(read, outcome)
        case .gpx:
            return loadGPX(BufferSource(bytes), name: "trip.gpx", limits: limits)
        }
    }

    /// Reads a GPX trip from a stream (memory stays flat) and validates it.
    public static func loadGPX(_ source: some ByteSource, name: String, limits: ReadLimits = .standard)
        -> TripValidator.Outcome
    {
        let watched = BlankWatch(source)
        let read = TripGPXReader.read(watched, name: name, limits: limits)
        if watched.sawOnlyBlanks { return empty(.gpx) }
        return validate(read, limits: limits.trip)
    }

    /// A file of nothing but white space (after a byte-order mark), in either format: the one
    /// place an empty file is told, whatever reads it.
    static func empty(_ format: TripFormat) -> TripValidator.Outcome {
        TripValidator.Outcome(trip: nil, diagnostics: [FileChecks.empty(format)])
    }

    /// Validates what a reader found, merging its diagnostics with the validator's in file order.
    static func validate(_ read: ReadResult, limits: TripLimits) -> TripValidator.Outcome {
        merge(read, read.draft.map { TripValidator.validate($0, limits: limits) })
    }

    /// Merges what a reader found with what validating its draft found (`nil`: no draft), in file
    /// order.
    static func merge(_ read: ReadResult, _ validated: TripValidator.Outcome?) -> TripValidator.Outcome {
        var outcome = validated ?? TripValidator.Outcome(trip: nil, diagnostics: [])
        var diagnostics = read.diagnostics + outcome.diagnostics
        if let lines = read.lines {
            // Each diagnostic that has an offset, and where that offset is: one pass for them all.
            let placed = diagnostics.indices.compactMap { index in
                diagnostics[index].position?.offset.map { (index: index, offset: $0) }
            }
            let positions = lines.positions(of: placed.map(\.offset))
            for (diagnostic, position) in zip(placed, positions) {
                let written = diagnostics[diagnostic.index].position
                diagnostics[diagnostic.index].position = written?.resolvingPosition { _ in position }
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
