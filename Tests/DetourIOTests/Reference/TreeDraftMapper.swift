@testable import DetourCore
@testable import DetourIO

// Reference model for `JSONPullTests`. It is written for clarity, not speed: the shipped reader
// maps the JSON as it reads it, without a tree, and must give the same draft and diagnostics.

extension TreeDraftMapper {
    /// What reading `text` (valid UTF-8 without a BOM) the tree way gives: the syntax error, or
    /// the draft and the shape diagnostics.
    static func read(_ text: [UInt8], maximumDepth: Int) -> (draft: TripDraft?, diagnostics: [Diagnostic]) {
        var root: JSONNode
        do {
            root = try JSONParser.parse(text, maximumDepth: maximumDepth)
        } catch {
            let (line, column) = LineTable(text).position(of: error.offset)
            return (nil, [Diagnostic(error.code, at: SourcePosition(line: line, column: column), error.message)])
        }
        var mapper = TreeDraftMapper()
        let draft = mapper.trip(consuming: &root)
        return (draft, mapper.diagnostics)
    }
}

/// One JSON object's members, looked up by key.
///
/// Trip objects have a handful of keys, so a linear scan beats hashing every key into a
/// dictionary, which matters when a trip has a hundred thousand tasks. Keys are compared by code
/// points, as RFC 8259 says, never by Unicode equivalence.
struct Members {
    let node: JSONNode
    let members: [JSONMember]

    subscript(key: String) -> JSONNode? {
        for member in members where JSONKey.equal(member.key, key) { return member.value }
        return nil
    }
}

/// The tree walk trip JSON was first read with, kept as the model `TripJSONReader` must match:
/// parse the whole document into a tree, then map the tree into a draft, one field at a time.
///
/// It checks shapes only (objects, lists, strings, numbers, known keys); what values mean, and
/// every limit on a trip's content, is ``TripValidator``'s. Positions record byte offsets only;
/// ``TripLoader`` turns the few that end up in a diagnostic into lines and columns.
struct TreeDraftMapper {
    var diagnostics: [Diagnostic] = []

    func position(_ node: JSONNode) -> SourcePosition {
        SourcePosition(offset: node.offset)
    }

    mutating func wrongType(_ path: String, _ node: JSONNode, _ expected: String) {
        diagnostics.append(
            Diagnostic(.wrongType, path: path, at: position(node), "must be \(expected), not \(node.kindName)"))
    }

    /// The members of an object node, warning about keys outside `known`.
    mutating func members(_ node: JSONNode, path: String, known: [String], what: String) -> Members? {
        guard case .object(let members) = node.value else {
            diagnostics.append(
                Diagnostic(
                    .wrongType, path: path, at: position(node), "\(what) must be an object, not \(node.kindName)"))
            return nil
        }
        for member in members where !known.contains(where: { JSONKey.equal($0, member.key) }) {
            diagnostics.append(
                Diagnostic(
                    .unknownKey, path: TripPath.member(path, member.key), at: SourcePosition(offset: member.keyOffset),
                    JSONValueHints.unknownKey(member.key, known: known)))
        }
        return Members(node: node, members: members)
    }

    /// A string field; `optional` fields treat null as absent.
    mutating func string(_ object: Members, _ key: String, in path: String, optional: Bool = false) -> Field<String> {
        guard let node = object[key] else { return .missing(position(object.node)) }
        switch node.value {
        case .string(let text):
            return .present(text, position(node))
        case .null where optional:
            return .missing(position(node))
        default:
            wrongType(TripPath.member(path, key), node, "a string")
            return .invalid
        }
    }

    /// A number field, kept as its exact text; a number written as a string says how to write it.
    mutating func number(_ object: Members, _ key: String, in path: String, noun: String = "the number") -> Field<
        String
    > {
        guard let node = object[key] else { return .missing(position(object.node)) }
        if case .string(let text) = node.value {
            diagnostics.append(
                Diagnostic(
                    .wrongType, path: TripPath.member(path, key), at: position(node),
                    JSONValueHints.numberAsString(text, noun: noun)))
            return .invalid
        }
        guard case .number(let text) = node.value else {
            wrongType(TripPath.member(path, key), node, "a number")
            return .invalid
        }
        return .present(text, position(node))
    }

    /// An array field's elements; null and absence are an empty list when `optional`.
    mutating func array(_ object: Members, _ key: String, in path: String, optional: Bool) -> [JSONNode] {
        guard let node = object[key] else { return [] }
        switch node.value {
        case .array(let elements): return elements
        case .null where optional: return []
        default:
            wrongType(TripPath.member(path, key), node, "a list")
            return []
        }
    }

    /// The trip in `root`, which is left empty: each destination's part of the tree is freed as
    /// soon as it is mapped, so the tree and the draft are never both held whole (for a large
    /// trip each is several times the size of the file).
    mutating func trip(consuming root: inout JSONNode) -> TripDraft? {
        let known = [
            "$schema", "title", "traveler", "travel", "currency", "rates", "budget", "day_hours", "destinations",
        ]
        guard var draft = tripFields(root, known: known) else { return nil }
        var destinations = draft.destinationNodes
        draft.destinationNodes = []
        root = JSONNode(value: .null, offset: root.offset)
        var mapped: [DestinationDraft] = []
        mapped.reserveCapacity(destinations.count)
        for index in destinations.indices {
            let node = destinations[index]
            destinations[index] = JSONNode(value: .null, offset: node.offset)
            if let destination = destination(node, path: "destinations[\(index)]") { mapped.append(destination) }
        }
        // Absent, the list is missing (the validator says so); of the wrong type, it is invalid.
        switch draft.list {
        case nil: draft.trip.destinations = .missing(position(root))
        case .some(let list) where list.isArray: draft.trip.destinations = .present(mapped, list.position)
        case .some: draft.trip.destinations = .invalid
        }
        draft.trip.travel = string(draft.object, "travel", in: "", optional: true)
        draft.trip.currency = string(draft.object, "currency", in: "", optional: true)
        draft.trip.budget = money(draft.object, "budget", in: "", optional: true)
        draft.trip.dayHours = optionalNumber(draft.object, "day_hours", in: "")
        if let node = draft.object["rates"] {
            draft.trip.ratesPosition = position(node)
            draft.trip.rates = rates(node)
        }
        return draft.trip
    }

    /// What `trip(consuming:)` reads before the destinations: the root's members without the
    /// destinations (so the list's only reference is the one handed back), in the order their
    /// problems are reported.
    private mutating func tripFields(_ root: JSONNode, known: [String]) -> (
        trip: TripDraft, object: Members, destinationNodes: [JSONNode], list: (isArray: Bool, position: SourcePosition)?
    )? {
        guard let object = members(root, path: "", known: known, what: "a trip") else { return nil }
        let destinations = array(object, "destinations", in: "", optional: false)
        let list = object["destinations"].map { node -> (isArray: Bool, position: SourcePosition) in
            if case .array = node.value { return (true, position(node)) }
            return (false, position(node))
        }
        let trip = TripDraft(
            position: position(root),
            title: string(object, "title", in: ""),
            traveler: string(object, "traveler", in: "", optional: true),
            destinations: .missing(position(root)),
            travel: .missing(position(root)))
        let rest = object.members.filter { !JSONKey.equal($0.key, "destinations") }
        return (trip, Members(node: JSONNode(value: .null, offset: root.offset), members: rest), destinations, list)
    }

    /// `"rates": {"SEK": 0.0871, …}`: each key a currency, each value a number.
    mutating func rates(_ node: JSONNode) -> [RateDraft] {
        if case .null = node.value { return [] }
        guard case .object(let members) = node.value else {
            wrongType("rates", node, "an object of rates")
            return []
        }
        return members.map { member in
            let currency = Field<String>.present(member.key, SourcePosition(offset: member.keyOffset))
            guard case .number(let text) = member.value.value else {
                wrongType(TripPath.member("rates", member.key), member.value, "a number")
                return RateDraft(currency: currency, value: .invalid)
            }
            return RateDraft(currency: currency, value: .present(text, position(member.value)))
        }
    }

    /// A number field that may be absent or null.
    mutating func optionalNumber(_ object: Members, _ key: String, in path: String) -> Field<String> {
        if let node = object[key], case .null = node.value { return .missing(position(node)) }
        return number(object, key, in: path)
    }

    mutating func destination(_ node: JSONNode, path: String) -> DestinationDraft? {
        let known = ["name", "location", "arrival", "departure", "detours", "budget", "day_hours"]
        guard let object = members(node, path: path, known: known, what: "a destination") else { return nil }
        let detours = array(object, "detours", in: path, optional: true)
        var draft = DestinationDraft(
            position: position(node),
            name: string(object, "name", in: path),
            coordinate: coordinate(object, in: path, optional: false),
            arrival: string(object, "arrival", in: path),
            departure: string(object, "departure", in: path),
            detours: detours.enumerated().compactMap { index, detourNode in
                detour(detourNode, path: "\(path).detours[\(index)]")
            })
        draft.budget = money(object, "budget", in: path, optional: true)
        draft.dayHours = optionalNumber(object, "day_hours", in: path)
        return draft
    }

    mutating func coordinate(_ object: Members, in path: String, optional: Bool) -> Field<CoordinateDraft> {
        guard let node = object["location"] else { return .missing(position(object.node)) }
        if optional, case .null = node.value { return .missing(position(node)) }
        guard let point = point(node, path: "\(path).location") else { return .invalid }
        return .present(point, position(node))
    }

    /// `{"lat": …, "lon": …}`.
    mutating func point(_ node: JSONNode, path: String) -> CoordinateDraft? {
        guard let members = members(node, path: path, known: ["lat", "lon"], what: "a location") else {
            return nil
        }
        return CoordinateDraft(latitude: number(members, "lat", in: path), longitude: number(members, "lon", in: path))
    }

    mutating func detour(_ node: JSONNode, path: String) -> DetourDraft? {
        guard let object = members(node, path: path, known: ["tasks"], what: "a detour") else { return nil }
        let tasks = array(object, "tasks", in: path, optional: true)
        return DetourDraft(
            position: position(node),
            tasks: tasks.enumerated().compactMap { index, taskNode in
                task(taskNode, path: "\(path).tasks[\(index)]")
            })
    }

    mutating func task(_ node: JSONNode, path: String) -> TaskDraft? {
        let known = ["name", "duration", "cost", "location", "pros", "cons", "travel", "path"]
        guard let object = members(node, path: path, known: known, what: "a task") else { return nil }
        return TaskDraft(
            position: position(node),
            name: string(object, "name", in: path),
            duration: duration(object, in: path),
            cost: money(object, "cost", in: path, optional: false),
            coordinate: coordinate(object, in: path, optional: true),
            pros: reasons(object, "pros", in: path),
            cons: reasons(object, "cons", in: path),
            travel: string(object, "travel", in: path, optional: true),
            path: routePath(object, in: path))
    }

    /// `"path": [{"lat": …, "lon": …}, …]`: the way from the destination to the task.
    mutating func routePath(_ object: Members, in path: String) -> Field<PathDraft> {
        guard let node = object["path"] else { return .missing(position(object.node)) }
        if case .null = node.value { return .missing(position(node)) }
        let listPath = "\(path).path"
        guard case .array(let elements) = node.value else {
            wrongType(listPath, node, "a list of points")
            return .invalid
        }
        var points: [CoordinateDraft] = []
        points.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let point = point(element, path: "\(listPath)[\(index)]") else { return .invalid }
            points.append(point)
        }
        return .present(PathDraft(points: points), position(node))
    }

    /// A task's duration: a string; a bare number says the minutes it probably means.
    mutating func duration(_ object: Members, in path: String) -> Field<String> {
        if let node = object["duration"], case .number(let text) = node.value {
            diagnostics.append(
                Diagnostic(
                    .wrongType, path: TripPath.member(path, "duration"), at: position(node),
                    JSONValueHints.durationAsNumber(text)))
            return .invalid
        }
        return string(object, "duration", in: path)
    }

    /// `{"amount": …, "currency": …}`: a task's cost or a budget (`key`).
    mutating func money(_ object: Members, _ key: String, in path: String, optional: Bool) -> Field<MoneyDraft> {
        guard let node = object[key] else { return .missing(position(object.node)) }
        if optional, case .null = node.value { return .missing(position(node)) }
        let costPath = TripPath.member(path, key)
        if case .number(let text) = node.value {
            diagnostics.append(
                Diagnostic(.wrongType, path: costPath, at: position(node), JSONValueHints.bareMoney(key, number: text)))
            return .invalid
        }
        if case .string(let text) = node.value {
            diagnostics.append(
                Diagnostic(
                    .wrongType, path: costPath, at: position(node), JSONValueHints.moneyAsString(key, text: text)))
            return .invalid
        }
        guard let members = members(node, path: costPath, known: ["amount", "currency"], what: "a \(key)") else {
            return .invalid
        }
        let draft = MoneyDraft(
            amount: number(members, "amount", in: costPath, noun: "the amount"),
            currency: string(members, "currency", in: costPath))
        return .present(draft, position(node))
    }

    mutating func reasons(_ object: Members, _ key: String, in path: String) -> [Field<String>] {
        let elements = array(object, key, in: path, optional: true)
        guard !elements.isEmpty else { return [] }
        let listPath = TripPath.member(path, key)
        return elements.enumerated().map { index, node in
            guard case .string(let text) = node.value else {
                wrongType("\(listPath)[\(index)]", node, "a string")
                return .invalid
            }
            return .present(text, position(node))
        }
    }
}
