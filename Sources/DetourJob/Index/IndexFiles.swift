import DetourCore
import DetourIO
import DetourRender

/// Index files read back, for `detour-report index` and a batch run's ownership of its reports:
/// a batch run's `index.json`, or one shard's `index.K-of-N.json`, read straight into the
/// ``TripIndex/Entry`` the index pages are made from.
///
/// The file is read with the pull reader trips are read with (strict RFC 8259, no duplicate key,
/// no trailing comma, nesting bounded, UTF-8 only), every key must be one a batch run writes and
/// every value of its kind; then each trip's values are checked against what a batch run writes,
/// so an index file from elsewhere cannot put a link off the site, markup into a page or a
/// negative count into a table. A file that is not exactly what detour-report writes is not an
/// index: any difference is an error, never a guess.
public enum IndexFiles {
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

    /// The trips of the index file in `bytes`, at most `limits.maxJSONBytes` long.
    public static func read(_ bytes: [UInt8], limits: ReadLimits = .standard) throws(Failure) -> [TripIndex.Entry] {
        guard bytes.count <= limits.maxJSONBytes else {
            throw Failure(message: "it is larger than \(limits.maxJSONBytes) bytes, the limit for an index")
        }
        let lines = LineTable(bytes)
        if let offset = TextEncoding.firstInvalidUTF8(bytes) {
            throw failure("it is not valid UTF-8", at: offset, lines)
        }
        let read: Result<[TripIndex.Entry], Failure>
        do throws(JSONParser.SyntaxError) {
            read = try JSONParser.read(bytes, maximumDepth: limits.maxDepth) {
                cursor throws(JSONParser.SyntaxError) in
                try document(&cursor)
            }
        } catch {
            throw failure(error.message, at: error.offset, lines)
        }
        return try read.get()
    }

    private static func failure(_ message: String, at offset: Int, _ lines: LineTable) -> Failure {
        let (line, column) = lines.position(of: offset)
        return Failure(message: message, line: line, column: column)
    }

    // MARK: - The shape

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

    /// The whole file: a syntax error anywhere is thrown; a file of good syntax gives its trips,
    /// or, when it is not an index of this format or a trip's values are not a batch run's, why.
    private static func document(_ cursor: inout JSONCursor) throws(JSONParser.SyntaxError)
        -> Result<[TripIndex.Entry], Failure>
    {
        let start = cursor.index
        var object = try beginObject(&cursor, depth: 0, what: "an index")
        var format: String?
        var trips: [TripIndex.Entry]?
        var refusal: Failure?
        while let key = try next(&cursor, &object, documentKeys) {
            switch key {
            case .format: format = try string(&cursor, "format")
            case .summary: _ = try string(&cursor, "summary")
            case .trips:
                var list = try beginArray(&cursor, depth: object.depth, what: "trips")
                var found: [TripIndex.Entry] = []
                while try cursor.nextElement(&list) {
                    switch try trip(&cursor, depth: list.depth) {
                    case .success(let entry): found.append(entry)
                    case .failure(let failure): refusal = refusal ?? failure
                    }
                }
                trips = found
            }
        }
        guard let format else { throw cursor.error("an index needs \"format\"", at: start) }
        guard let trips else { throw cursor.error("an index needs \"trips\"", at: start) }
        guard format == TripIndex.format else {
            return .failure(Failure(message: "its format is \(Quoting.quoted(format)), not \(TripIndex.format)"))
        }
        if let refusal { return .failure(refusal) }
        return .success(trips)
    }

    /// One trip: the shape, then its values.
    private static func trip(_ cursor: inout JSONCursor, depth: Int) throws(JSONParser.SyntaxError)
        -> Result<TripIndex.Entry, Failure>
    {
        let start = cursor.index
        var object = try beginObject(&cursor, depth: depth, what: "a trip")
        var (source, name, status, warnings): (String?, String?, String?, Int?) = (nil, nil, nil, nil)
        var reports: [(format: String, file: String)]?
        var entry = TripIndex.Entry(source: "", name: "", status: .written)
        while let key = try next(&cursor, &object, tripKeys) {
            switch key {
            case .source: source = try string(&cursor, "source")
            case .name: name = try string(&cursor, "name")
            case .status: status = try string(&cursor, "status")
            case .title: entry.title = try string(&cursor, "title", nullable: true)
            case .firstDay: entry.firstDay = try string(&cursor, "first_day", nullable: true)
            case .lastDay: entry.lastDay = try string(&cursor, "last_day", nullable: true)
            case .firstError: entry.firstError = try string(&cursor, "first_error", nullable: true)
            case .stays: entry.stays = try integer(&cursor, "stays", nullable: true)
            case .warnings: warnings = try integer(&cursor, "warnings")
            case .reports:
                var list = try beginArray(&cursor, depth: object.depth, what: "reports")
                var found: [(format: String, file: String)] = []
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
        (entry.source, entry.name, entry.warnings) = (source, name, warnings)
        do throws(Failure) {
            try check(&entry, status: status, reports: reports)
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }

    private static func report(_ cursor: inout JSONCursor, depth: Int) throws(JSONParser.SyntaxError)
        -> (format: String, file: String)
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
        return (format, file)
    }

    // MARK: - The values

    /// Checks a trip's values against what a batch run writes, and sets its status and reports.
    private static func check(
        _ entry: inout TripIndex.Entry, status: String, reports: [(format: String, file: String)]
    ) throws(Failure) {
        let named = "trip \(Quoting.quoted(entry.name))"
        func refuse(_ what: String) -> Failure { Failure(message: "\(named): \(what)") }
        guard isReportName(entry.name) else {
            throw refuse("its name is not a relative path of plain names in the index's folder")
        }
        // A bare check's `valid` is no end of a run that writes reports.
        guard let known = TripStatus(rawValue: status), TripStatus.afterWriting.contains(known) else {
            throw refuse("unknown status \(Quoting.quoted(status))")
        }
        entry.status = known
        for (key, text) in [("source", entry.source), ("title", entry.title), ("first_error", entry.firstError)] {
            if let text, text.unicodeScalars.contains(where: Quoting.isUnprintable) {
                throw refuse("\(key) holds a control character, which detour-report never writes there")
            }
        }
        let days = [entry.firstDay, entry.lastDay].map { $0.map { CalendarDay(iso: $0) } }
        guard !days.contains(where: { $0 == .some(nil) }) else {
            throw refuse("first_day and last_day must be days, YYYY-MM-DD")
        }
        if case .some(.some(let first)) = days[0], case .some(.some(let last)) = days[1], last < first {
            throw refuse("its last day is before its first")
        }
        guard entry.warnings >= 0, (entry.stays ?? 0) >= 0 else { throw refuse("a count is negative") }
        for report in reports {
            guard let format = OutputFormat(rawValue: report.format) else {
                throw refuse("unknown report format \(Quoting.quoted(report.format))")
            }
            // A report is NAME.EXT beside the index: never a link elsewhere.
            guard report.file == entry.name + "." + format.fileExtension else {
                throw refuse(
                    "its \(format.rawValue) report is \(Quoting.quoted(report.file)), not NAME.\(format.fileExtension)")
            }
            entry.reports.append(TripIndex.Entry.Report(format: .output(format), file: report.file))
        }
    }

    /// `lisbon`, `europe/oslo`: plain names joined by `/`, none empty, `.` or `..`, none holding a
    /// backslash, a colon or a control character.
    static func isReportName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && !part.unicodeScalars.contains { $0 == "\\" || $0 == ":" || Quoting.isUnprintable($0) }
            }
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
