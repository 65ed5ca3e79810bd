import DetourCore

/// Reads trip JSON (version 1) into a ``TripDraft``, reporting every shape problem it finds.
///
/// This reader knows the JSON format only: keys, types, nesting, paths. What the values mean
/// (dates, durations, ranges) is checked by ``TripValidator``, the same for every format.
/// The format is documented in `docs/trip.schema.json`.
public enum TripJSONReader {
    /// Reads `bytes` as trip JSON.
    public static func read(_ bytes: [UInt8], limits: ReadLimits = .standard) -> ReadResult {
        read(bytes, limits: limits, validating: nil).read
    }

    /// Reads `bytes` as trip JSON, handing each destination to the validator as soon as it is
    /// read: what ``read(_:limits:)`` and then ``TripValidator/validate(_:limits:)`` give,
    /// without ever holding the whole draft, which is several times the size of the file.
    ///
    /// The result's draft has its destinations' place but not their drafts; the outcome, `nil`
    /// when there is no draft, is the validator's.
    static func readValidating(_ bytes: [UInt8], limits: ReadLimits) -> (
        read: ReadResult, outcome: TripValidator.Outcome?
    ) {
        read(bytes, limits: limits, validating: TripValidator.Destinations(limits: limits.trip))
    }

    /// Reads `bytes`; with `validating`, each destination goes there instead of into the draft.
    private static func read(
        _ bytes: [UInt8], limits: ReadLimits, validating: TripValidator.Destinations?
    ) -> (read: ReadResult, outcome: TripValidator.Outcome?) {
        if bytes.count > limits.maxJSONBytes { return (.failed(FileChecks.tooLarge(.json, limits: limits)), nil) }
        if let problem = FileChecks.problem(startingWith: bytes, format: .json) { return (.failed(problem), nil) }
        let start = TextEncoding.bomLength(bytes)
        let text = start == 0 ? bytes : Array(bytes[start...])
        let lines = LineTable(text)
        if let offset = TextEncoding.firstInvalidUTF8(text) {
            let (line, column) = lines.position(of: offset)
            return (
                .failed(FileChecks.invalidUTF8(offset: offset + start, at: SourcePosition(line: line, column: column))),
                nil
            )
        }
        var reader = DraftReader(validating: validating)
        let draft: TripDraft?
        do {
            draft = try JSONParser.read(text, maximumDepth: limits.maxDepth) { cursor throws(JSONParser.SyntaxError) in
                try reader.trip(&cursor)
            }
        } catch {
            let (line, column) = lines.position(of: error.offset)
            return (.failed(Diagnostic(error.code, at: SourcePosition(line: line, column: column), error.message)), nil)
        }
        let outcome = draft.flatMap { draft in reader.validating.map { $0.outcome(draft) } }
        return (ReadResult(draft: draft, diagnostics: reader.diagnostics, lines: lines), outcome)
    }
}

/// Maps trip JSON into a draft as it reads it, one value at a time.
///
/// It checks shapes only (objects, lists, strings, numbers, known keys); what values mean, and
/// every limit on a trip's content, is ``TripValidator``'s. Members may come in any order; a
/// field the file leaves out is `missing` at its object's position. Positions record byte offsets
/// only; ``TripLoader`` turns the few that end up in a diagnostic into lines and columns, and a
/// field's path is spelled out only for a diagnostic.
///
/// No tree of the trip is built: one was several times the size of the file, and building and
/// freeing it took more time than reading the JSON itself.
private struct DraftReader {
    typealias SyntaxError = JSONParser.SyntaxError

    var diagnostics: [Diagnostic] = []
    /// Where each destination goes when the trip is validated as it is read; `nil` keeps them
    /// in the draft.
    var validating: TripValidator.Destinations?

    init(validating: TripValidator.Destinations?) {
        self.validating = validating
    }

    enum TripKey: String, CaseIterable {
        case schema = "$schema"
        case title, traveler, travel, currency, rates, budget
        case dayHours = "day_hours"
        case destinations
    }
    enum DestinationKey: String, CaseIterable {
        case name, location, arrival, departure, detours, budget
        case dayHours = "day_hours"
    }
    enum DetourKey: String, CaseIterable { case tasks }
    enum TaskKey: String, CaseIterable { case name, duration, cost, location, pros, cons, travel, path }
    enum PointKey: String, CaseIterable { case lat, lon }
    enum MoneyKey: String, CaseIterable { case amount, currency }

    static let tripKeys = KnownKeys(TripKey.self)
    static let destinationKeys = KnownKeys(DestinationKey.self)
    static let detourKeys = KnownKeys(DetourKey.self)
    static let taskKeys = KnownKeys(TaskKey.self)
    static let pointKeys = KnownKeys(PointKey.self)
    static let moneyKeys = KnownKeys(MoneyKey.self)

    private static let null = UInt8(ascii: "n")

    func position(_ offset: Int) -> SourcePosition {
        SourcePosition(offset: offset)
    }

    mutating func wrongType(_ path: String, at offset: Int, _ kind: String, _ expected: String) {
        diagnostics.append(Diagnostic(.wrongType, path: path, at: position(offset), "must be \(expected), not \(kind)"))
    }

    /// Starts the object at the cursor, or reports that `what` must be an object and skips it.
    mutating func object(
        _ cursor: inout JSONCursor, depth: Int, what: String, path: () -> String
    ) throws(SyntaxError) -> JSONObjectReading? {
        guard cursor.peek == UInt8(ascii: "{") else {
            let start = cursor.index
            let kind = try cursor.skipValue(depth: depth)
            diagnostics.append(
                Diagnostic(.wrongType, path: path(), at: position(start), "\(what) must be an object, not \(kind)"))
            return nil
        }
        return try cursor.beginObject(depth: depth + 1)
    }

    /// The next known member of `object`, with the cursor on its value; keys outside `known` are
    /// reported (`unknown key`, ignored) and their values skipped.
    mutating func nextKnown<Key>(
        _ cursor: inout JSONCursor, _ object: inout JSONObjectReading, _ known: KnownKeys<Key>, path: () -> String
    ) throws(SyntaxError) -> Key? {
        while let key = try cursor.nextMember(&object, known: known.names) {
            if let index = key.known { return known.keys[index] }
            diagnostics.append(
                Diagnostic(
                    .unknownKey, path: TripPath.member(path(), key.other), at: position(key.offset),
                    JSONValueHints.unknownKey(key.other, known: known.keys.map(\.rawValue))))
            _ = try cursor.skipValue(depth: object.depth)
        }
        return nil
    }

    /// Starts the list at the cursor; `nil` (an empty list) for null when `optional`, or for
    /// another kind of value, which is reported.
    mutating func list(
        _ cursor: inout JSONCursor, depth: Int, optional: Bool, expected: String = "a list", path: () -> String
    ) throws(SyntaxError) -> JSONArrayReading? {
        switch cursor.peek {
        case UInt8(ascii: "["):
            return try cursor.beginArray(depth: depth + 1)
        case Self.null where optional:
            try cursor.literal("null")
            return nil
        default:
            let start = cursor.index
            wrongType(path(), at: start, try cursor.skipValue(depth: depth), expected)
            return nil
        }
    }

    /// A string; `optional` fields treat null as absent.
    mutating func string(_ cursor: inout JSONCursor, depth: Int, optional: Bool = false, path: () -> String)
        throws(SyntaxError) -> Field<String>
    {
        let start = cursor.index
        switch cursor.peek {
        case UInt8(ascii: "\""):
            return .present(try cursor.string(), position(start))
        case Self.null where optional:
            try cursor.literal("null")
            return .missing(position(start))
        default:
            wrongType(path(), at: start, try cursor.skipValue(depth: depth), "a string")
            return .invalid
        }
    }

    /// A number, kept as its exact text; `optional` fields treat null as absent.
    ///
    /// A number written as a string (`"12.50"`, `"12,50"`) is refused with the number to write,
    /// called `noun` (`the amount`).
    mutating func number(
        _ cursor: inout JSONCursor, depth: Int, optional: Bool = false, noun: String = "the number",
        path: () -> String
    ) throws(SyntaxError) -> Field<String> {
        let start = cursor.index
        switch cursor.peek {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .present(try cursor.number(), position(start))
        case Self.null where optional:
            try cursor.literal("null")
            return .missing(position(start))
        case UInt8(ascii: "\""):
            let message = JSONValueHints.numberAsString(try cursor.string(), noun: noun)
            diagnostics.append(Diagnostic(.wrongType, path: path(), at: position(start), message))
            return .invalid
        default:
            wrongType(path(), at: start, try cursor.skipValue(depth: depth), "a number")
            return .invalid
        }
    }

    /// The trip; `nil` when the document is not an object.
    mutating func trip(_ cursor: inout JSONCursor) throws(SyntaxError) -> TripDraft? {
        let here = position(cursor.index)
        guard var object = try object(&cursor, depth: 0, what: "a trip", path: { "" }) else { return nil }
        var draft = TripDraft(
            position: here, title: .missing(here), traveler: .missing(here), destinations: .missing(here),
            travel: .missing(here))
        draft.currency = .missing(here)
        draft.budget = .missing(here)
        draft.dayHours = .missing(here)
        let depth = object.depth
        while let key = try nextKnown(&cursor, &object, Self.tripKeys, path: { "" }) {
            switch key {
            case .schema: _ = try cursor.skipValue(depth: depth)  // any value
            case .title: draft.title = try string(&cursor, depth: depth, path: { "title" })
            case .traveler: draft.traveler = try string(&cursor, depth: depth, optional: true, path: { "traveler" })
            case .travel: draft.travel = try string(&cursor, depth: depth, optional: true, path: { "travel" })
            case .currency: draft.currency = try string(&cursor, depth: depth, optional: true, path: { "currency" })
            case .rates:
                draft.ratesPosition = position(cursor.index)
                draft.rates = try rates(&cursor, depth: depth)
            case .budget: draft.budget = try money(&cursor, depth: depth, key: "budget", optional: true, in: { "" })
            case .dayHours: draft.dayHours = try number(&cursor, depth: depth, optional: true, path: { "day_hours" })
            case .destinations:
                let start = position(cursor.index)
                // A list given again replaces the first, here as in a draft.
                validating?.restart()
                draft.destinations = try destinations(&cursor, depth: depth).map { .present($0, start) } ?? .invalid
            }
        }
        return draft
    }

    /// The list of destinations; `nil` when it is not a list (reported).
    mutating func destinations(_ cursor: inout JSONCursor, depth: Int) throws(SyntaxError) -> [DestinationDraft]? {
        guard var list = try list(&cursor, depth: depth, optional: false, path: { "destinations" }) else { return nil }
        var destinations: [DestinationDraft] = []
        var index = 0
        while try cursor.nextElement(&list) {
            if let destination = try destination(&cursor, depth: list.depth, index: index) {
                if validating == nil {
                    destinations.append(destination)
                } else {
                    validating?.check(destination)
                }
            }
            index += 1
        }
        return destinations
    }

    /// `"rates": {"SEK": 0.0871, …}`: each key a currency, each value a number.
    mutating func rates(_ cursor: inout JSONCursor, depth: Int) throws(SyntaxError) -> [RateDraft] {
        switch cursor.peek {
        case UInt8(ascii: "{"):
            break
        case Self.null:
            try cursor.literal("null")
            return []
        default:
            let start = cursor.index
            wrongType("rates", at: start, try cursor.skipValue(depth: depth), "an object of rates")
            return []
        }
        var object = try cursor.beginObject(depth: depth + 1)
        var rates: [RateDraft] = []
        while let key = try cursor.nextMember(&object, known: .none) {
            let currency = Field<String>.present(key.other, position(key.offset))
            let value = try number(&cursor, depth: object.depth, path: { TripPath.member("rates", key.other) })
            rates.append(RateDraft(currency: currency, value: value))
        }
        return rates
    }

    mutating func destination(_ cursor: inout JSONCursor, depth: Int, index: Int) throws(SyntaxError)
        -> DestinationDraft?
    {
        let here = position(cursor.index)
        func path() -> String { "destinations[\(index)]" }
        guard var object = try object(&cursor, depth: depth, what: "a destination", path: path) else { return nil }
        var draft = DestinationDraft(
            position: here, name: .missing(here), coordinate: .missing(here), arrival: .missing(here),
            departure: .missing(here), detours: [])
        draft.budget = .missing(here)
        draft.dayHours = .missing(here)
        let depth = object.depth
        while let key = try nextKnown(&cursor, &object, Self.destinationKeys, path: path) {
            switch key {
            case .name: draft.name = try string(&cursor, depth: depth, path: { path() + ".name" })
            case .location: draft.coordinate = try coordinate(&cursor, depth: depth, optional: false, in: path)
            case .arrival: draft.arrival = try string(&cursor, depth: depth, path: { path() + ".arrival" })
            case .departure: draft.departure = try string(&cursor, depth: depth, path: { path() + ".departure" })
            case .detours:
                guard var list = try list(&cursor, depth: depth, optional: true, path: { path() + ".detours" }) else {
                    continue
                }
                var detourIndex = 0
                while try cursor.nextElement(&list) {
                    let index = detourIndex
                    if let detour = try detour(&cursor, depth: list.depth, path: { "\(path()).detours[\(index)]" }) {
                        draft.detours.append(detour)
                    }
                    detourIndex += 1
                }
            case .budget: draft.budget = try money(&cursor, depth: depth, key: "budget", optional: true, in: path)
            case .dayHours:
                draft.dayHours = try number(&cursor, depth: depth, optional: true, path: { path() + ".day_hours" })
            }
        }
        return draft
    }

    /// A `location` member: `{"lat": …, "lon": …}`; `optional` ones may be null.
    mutating func coordinate(
        _ cursor: inout JSONCursor, depth: Int, optional: Bool, in path: () -> String
    ) throws(SyntaxError) -> Field<CoordinateDraft> {
        let start = cursor.index
        if optional, cursor.peek == Self.null {
            try cursor.literal("null")
            return .missing(position(start))
        }
        guard let point = try point(&cursor, depth: depth, path: { path() + ".location" }) else { return .invalid }
        return .present(point, position(start))
    }

    /// `{"lat": …, "lon": …}`.
    mutating func point(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError)
        -> CoordinateDraft?
    {
        let here = position(cursor.index)
        guard var object = try object(&cursor, depth: depth, what: "a location", path: path) else { return nil }
        var point = CoordinateDraft(latitude: .missing(here), longitude: .missing(here))
        while let key = try nextKnown(&cursor, &object, Self.pointKeys, path: path) {
            switch key {
            case .lat: point.latitude = try number(&cursor, depth: object.depth, path: { path() + ".lat" })
            case .lon: point.longitude = try number(&cursor, depth: object.depth, path: { path() + ".lon" })
            }
        }
        return point
    }

    mutating func detour(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError) -> DetourDraft?
    {
        let here = position(cursor.index)
        guard var object = try object(&cursor, depth: depth, what: "a detour", path: path) else { return nil }
        var draft = DetourDraft(position: here, tasks: [])
        while let key = try nextKnown(&cursor, &object, Self.detourKeys, path: path) {
            assert(key == .tasks)
            guard var list = try list(&cursor, depth: object.depth, optional: true, path: { path() + ".tasks" }) else {
                continue
            }
            draft.tasks.reserveCapacity(2)
            var index = 0
            while try cursor.nextElement(&list) {
                if let task = try task(&cursor, depth: list.depth, path: { "\(path()).tasks[\(index)]" }) {
                    draft.tasks.append(task)
                }
                index += 1
            }
        }
        return draft
    }

    mutating func task(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError) -> TaskDraft? {
        let here = position(cursor.index)
        guard var object = try object(&cursor, depth: depth, what: "a task", path: path) else { return nil }
        var draft = TaskDraft(
            position: here, name: .missing(here), duration: .missing(here), cost: .missing(here),
            coordinate: .missing(here), pros: [], cons: [], travel: .missing(here), path: .missing(here))
        let depth = object.depth
        while let key = try nextKnown(&cursor, &object, Self.taskKeys, path: path) {
            switch key {
            case .name: draft.name = try string(&cursor, depth: depth, path: { path() + ".name" })
            case .duration: draft.duration = try duration(&cursor, depth: depth, path: { path() + ".duration" })
            case .cost: draft.cost = try money(&cursor, depth: depth, key: "cost", optional: false, in: path)
            case .location: draft.coordinate = try coordinate(&cursor, depth: depth, optional: true, in: path)
            case .pros: draft.pros = try reasons(&cursor, depth: depth, path: { path() + ".pros" })
            case .cons: draft.cons = try reasons(&cursor, depth: depth, path: { path() + ".cons" })
            case .travel: draft.travel = try string(&cursor, depth: depth, optional: true, path: { path() + ".travel" })
            case .path: draft.path = try routePath(&cursor, depth: depth, path: { path() + ".path" })
            }
        }
        return draft
    }

    /// `"path": [{"lat": …, "lon": …}, …]`: the way from the destination to the task.
    ///
    /// A point that is not an object makes the whole path invalid; the points after it are not mapped.
    mutating func routePath(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError) -> Field<
        PathDraft
    > {
        let start = cursor.index
        if cursor.peek == Self.null {
            try cursor.literal("null")
            return .missing(position(start))
        }
        guard var list = try list(&cursor, depth: depth, optional: false, expected: "a list of points", path: path)
        else {
            return .invalid
        }
        var points: [CoordinateDraft] = []
        var invalid = false
        while try cursor.nextElement(&list) {
            if invalid {
                _ = try cursor.skipValue(depth: list.depth)
                continue
            }
            let index = points.count
            if let point = try point(&cursor, depth: list.depth, path: { "\(path())[\(index)]" }) {
                points.append(point)
            } else {
                invalid = true
            }
        }
        return invalid ? .invalid : .present(PathDraft(points: points), position(start))
    }

    /// A task's duration: a string; a bare number is refused with the minutes it probably means.
    mutating func duration(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError) -> Field<
        String
    > {
        guard cursor.peek == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(cursor.peek) else {
            return try string(&cursor, depth: depth, path: path)
        }
        let start = cursor.index
        let number = try cursor.number()
        diagnostics.append(
            Diagnostic(.wrongType, path: path(), at: position(start), JSONValueHints.durationAsNumber(number)))
        return .invalid
    }

    /// `{"amount": …, "currency": …}`: a task's cost or a budget (`key`).
    mutating func money(
        _ cursor: inout JSONCursor, depth: Int, key: String, optional: Bool, in path: () -> String
    ) throws(SyntaxError) -> Field<MoneyDraft> {
        let start = cursor.index
        if optional, cursor.peek == Self.null {
            try cursor.literal("null")
            return .missing(position(start))
        }
        func costPath() -> String { TripPath.member(path(), key) }
        // A bare price: the object it should be, with its number.
        if cursor.peek == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(cursor.peek) {
            let number = try cursor.number()
            diagnostics.append(
                Diagnostic(
                    .wrongType, path: costPath(), at: position(start), JSONValueHints.bareMoney(key, number: number)))
            return .invalid
        }
        // A price in words: the object it should be, read from them.
        if cursor.peek == UInt8(ascii: "\"") {
            let message = JSONValueHints.moneyAsString(key, text: try cursor.string())
            diagnostics.append(Diagnostic(.wrongType, path: costPath(), at: position(start), message))
            return .invalid
        }
        guard var object = try object(&cursor, depth: depth, what: "a \(key)", path: costPath) else { return .invalid }
        var draft = MoneyDraft(amount: .missing(position(start)), currency: .missing(position(start)))
        while let member = try nextKnown(&cursor, &object, Self.moneyKeys, path: costPath) {
            switch member {
            case .amount:
                draft.amount = try number(
                    &cursor, depth: object.depth, noun: "the amount", path: { costPath() + ".amount" })
            case .currency:
                draft.currency = try string(&cursor, depth: object.depth, path: { costPath() + ".currency" })
            }
        }
        return .present(draft, position(start))
    }

    /// `pros` or `cons`: a list of strings; absent or null is none.
    mutating func reasons(_ cursor: inout JSONCursor, depth: Int, path: () -> String) throws(SyntaxError) -> [Field<
        String
    >] {
        guard var list = try list(&cursor, depth: depth, optional: true, path: path) else { return [] }
        var reasons: [Field<String>] = []
        while try cursor.nextElement(&list) {
            let index = reasons.count
            reasons.append(try string(&cursor, depth: list.depth, path: { "\(path())[\(index)]" }))
        }
        return reasons
    }
}
