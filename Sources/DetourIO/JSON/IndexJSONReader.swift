import DetourCore

/// A batch run's `index.json`, or one shard's `index.K-of-N.json`, as written: the shape only.
///
/// What the values may be (a known status, days, counts, a report's file) is checked by the one
/// that builds the index from it; this is what the file holds, read as strictly as a trip.
public struct IndexDocument: Sendable, Equatable {
    /// One report of a trip: its format's name and its file.
    public struct Report: Sendable, Equatable {
        public var format: String
        public var file: String
    }

    /// One trip of the run, as written.
    public struct Trip: Sendable, Equatable {
        public var source: String
        public var name: String
        public var status: String
        public var title: String?
        public var firstDay: String?
        public var lastDay: String?
        public var stays: Int?
        public var warnings: Int
        public var firstError: String?
        public var reports: [Report]
    }

    /// The format tag, such as `detour-report-index/1`.
    public var format: String
    public var trips: [Trip]
}

/// Reads index files with the JSON reader trips are read with: strict RFC 8259, no duplicate key,
/// no trailing comma, nesting bounded, UTF-8 only; and every key known, every value of its kind.
///
/// An index is written by detour-report, and a file that is not exactly what it writes is not
/// one: any difference is an error naming the line and column, never a guess.
public enum IndexJSONReader {
    /// Why a file is not an index, and where (`line` and `column` when one place is to blame).
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var line: Int?
        public var column: Int?

        public init(message: String, line: Int? = nil, column: Int? = nil) {
            self.message = message
            self.line = line
            self.column = column
        }
    }

    /// Reads `bytes`, at most `limits.maxJSONBytes` long.
    public static func read(_ bytes: [UInt8], limits: ReadLimits = .standard) throws(Failure) -> IndexDocument {
        guard bytes.count <= limits.maxJSONBytes else {
            throw Failure(message: "it is larger than \(limits.maxJSONBytes) bytes, the limit for an index")
        }
        let lines = LineTable(bytes)
        if let offset = TextEncoding.firstInvalidUTF8(bytes) {
            throw failure("it is not valid UTF-8", at: offset, lines)
        }
        do throws(JSONParser.SyntaxError) {
            return try JSONParser.read(bytes, maximumDepth: limits.maxDepth) { cursor throws(JSONParser.SyntaxError) in
                try document(&cursor)
            }
        } catch {
            throw failure(error.message, at: error.offset, lines)
        }
    }

    private static func failure(_ message: String, at offset: Int, _ lines: LineTable) -> Failure {
        let (line, column) = lines.position(of: offset)
        return Failure(message: message, line: line, column: column)
    }

    private enum DocumentKey: String, CaseIterable { case format, summary, trips }
    private enum TripKey: String, CaseIterable {
        case source, name, status, title, stays, warnings, reports
        case firstDay = "first_day"
        case lastDay = "last_day"
        case firstError = "first_error"
    }
    private enum ReportKey: String, CaseIterable { case format, file }

    private static let documentKeys = KnownKeys(DocumentKey.self)
    private static let tripKeys = KnownKeys(TripKey.self)
    private static let reportKeys = KnownKeys(ReportKey.self)

    private static func document(_ cursor: inout JSONCursor) throws(JSONParser.SyntaxError) -> IndexDocument {
        let start = cursor.index
        var object = try beginObject(&cursor, depth: 0, what: "an index")
        var format: String?
        var trips: [IndexDocument.Trip]?
        while let key = try next(&cursor, &object, documentKeys) {
            switch key {
            case .format: format = try string(&cursor, "format")
            case .summary: _ = try string(&cursor, "summary")
            case .trips:
                var list = try beginArray(&cursor, depth: object.depth, what: "trips")
                var found: [IndexDocument.Trip] = []
                while try cursor.nextElement(&list) { found.append(try trip(&cursor, depth: list.depth)) }
                trips = found
            }
        }
        guard let format else { throw cursor.error("an index needs \"format\"", at: start) }
        guard let trips else { throw cursor.error("an index needs \"trips\"", at: start) }
        return IndexDocument(format: format, trips: trips)
    }

    private static func trip(_ cursor: inout JSONCursor, depth: Int) throws(JSONParser.SyntaxError)
        -> IndexDocument.Trip
    {
        let start = cursor.index
        var object = try beginObject(&cursor, depth: depth, what: "a trip")
        var (source, name, status, warnings): (String?, String?, String?, Int?) = (nil, nil, nil, nil)
        var reports: [IndexDocument.Report]?
        var trip = IndexDocument.Trip(source: "", name: "", status: "", warnings: 0, reports: [])
        while let key = try next(&cursor, &object, tripKeys) {
            switch key {
            case .source: source = try string(&cursor, "source")
            case .name: name = try string(&cursor, "name")
            case .status: status = try string(&cursor, "status")
            case .title: trip.title = try string(&cursor, "title", nullable: true)
            case .firstDay: trip.firstDay = try string(&cursor, "first_day", nullable: true)
            case .lastDay: trip.lastDay = try string(&cursor, "last_day", nullable: true)
            case .firstError: trip.firstError = try string(&cursor, "first_error", nullable: true)
            case .stays: trip.stays = try integer(&cursor, "stays", nullable: true)
            case .warnings: warnings = try integer(&cursor, "warnings")
            case .reports:
                var list = try beginArray(&cursor, depth: object.depth, what: "reports")
                var found: [IndexDocument.Report] = []
                while try cursor.nextElement(&list) { found.append(try report(&cursor, depth: list.depth)) }
                reports = found
            }
        }
        guard let source, let name, let status, let warnings, let reports else {
            let missing =
                [("source", source == nil), ("name", name == nil), ("status", status == nil)]
                + [("warnings", warnings == nil), ("reports", reports == nil)]
            let keys = missing.filter(\.1).map { "\"\($0.0)\"" }.joined(separator: ", ")
            throw cursor.error("a trip of the index needs \(keys)", at: start)
        }
        (trip.source, trip.name, trip.status, trip.warnings, trip.reports) = (source, name, status, warnings, reports)
        return trip
    }

    private static func report(_ cursor: inout JSONCursor, depth: Int) throws(JSONParser.SyntaxError)
        -> IndexDocument.Report
    {
        let start = cursor.index
        var object = try beginObject(&cursor, depth: depth, what: "a report")
        var (format, file): (String?, String?) = (nil, nil)
        while let key = try next(&cursor, &object, reportKeys) {
            switch key {
            case .format: format = try string(&cursor, "format")
            case .file: file = try string(&cursor, "file")
            }
        }
        guard let format, let file else { throw cursor.error("a report needs \"format\" and \"file\"", at: start) }
        return IndexDocument.Report(format: format, file: file)
    }

    // MARK: - Values of one kind

    private static func beginObject(_ cursor: inout JSONCursor, depth: Int, what: String)
        throws(JSONParser.SyntaxError) -> JSONObjectReading
    {
        guard cursor.peek == UInt8(ascii: "{") else {
            throw cursor.error("\(what) must be an object, not \(try kind(of: cursor))")
        }
        return try cursor.beginObject(depth: depth + 1)
    }

    private static func beginArray(_ cursor: inout JSONCursor, depth: Int, what: String)
        throws(JSONParser.SyntaxError) -> JSONArrayReading
    {
        guard cursor.peek == UInt8(ascii: "[") else {
            throw cursor.error("\"\(what)\" must be a list, not \(try kind(of: cursor))")
        }
        return try cursor.beginArray(depth: depth + 1)
    }

    /// The next member's key; a key detour-report does not write is an error.
    private static func next<Key>(
        _ cursor: inout JSONCursor, _ object: inout JSONObjectReading, _ known: KnownKeys<Key>
    ) throws(JSONParser.SyntaxError) -> Key? {
        guard let key = try cursor.nextMember(&object, known: known.names) else { return nil }
        guard let index = key.known else {
            throw cursor.error("unknown key \(Quoting.quoted(key.other)): an index holds no such key", at: key.offset)
        }
        return known.keys[index]
    }

    private static func string(_ cursor: inout JSONCursor, _ key: String, nullable: Bool = false)
        throws(JSONParser.SyntaxError) -> String?
    {
        if nullable, cursor.peek == UInt8(ascii: "n") {
            try cursor.literal("null")
            return nil
        }
        guard cursor.peek == UInt8(ascii: "\"") else {
            throw cursor.error("\"\(key)\" must be a string\(nullable ? " or null" : ""), not \(try kind(of: cursor))")
        }
        return try cursor.string()
    }

    private static func integer(_ cursor: inout JSONCursor, _ key: String, nullable: Bool = false)
        throws(JSONParser.SyntaxError) -> Int?
    {
        if nullable, cursor.peek == UInt8(ascii: "n") {
            try cursor.literal("null")
            return nil
        }
        let start = cursor.index
        let text = cursor.peek == UInt8(ascii: "-") || (0x30...0x39).contains(cursor.peek) ? try cursor.number() : ""
        guard let value = Int(text) else {
            throw cursor.error("\"\(key)\" must be a whole number\(nullable ? " or null" : "")", at: start)
        }
        return value
    }

    /// What kind of value is at the cursor, for a message: `a number`, `null`; a value that is
    /// not JSON at all is that syntax error.
    private static func kind(of cursor: JSONCursor) throws(JSONParser.SyntaxError) -> String {
        var copy = cursor
        return try copy.skipValue(depth: 0)
    }
}
