import DetourCore

/// Reads trip JSON (version 1) into a ``TripDraft``, reporting every shape problem it finds.
///
/// This reader knows the JSON format only: keys, types, nesting, paths. What the values mean
/// (dates, durations, ranges) is checked by ``TripValidator``, the same for every format.
/// The format is documented in `docs/trip.schema.json`.
public enum TripJSONReader {
    /// Reads `bytes` as trip JSON.
    public static func read(_ bytes: [UInt8], limits: ReadLimits = .standard) -> ReadResult {
        if bytes.count > limits.maxJSONBytes {
            return .failed(.error(nil, ReadLimits.tooLarge("trip JSON", limit: limits.maxJSONBytes)))
        }
        let start = TextEncoding.bomLength(bytes)
        if bytes[start...].allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return .failed(.error(nil, "the file is empty: a trip needs at least {\"title\": …, \"destinations\": […]}"))
        }
        if start == 0, let encoding = TextEncoding.otherEncoding(bytes) {
            return .failed(.error(nil, "the file is \(encoding); trip JSON must be UTF-8 (RFC 8259 §8.1)"))
        }
        let text = start == 0 ? bytes : Array(bytes[start...])
        let lines = LineTable(text)
        if let offset = TextEncoding.firstInvalidUTF8(text) {
            let (line, column) = lines.position(of: offset)
            return .failed(
                .error(
                    SourceLocation(path: "", line: line, column: column),
                    "the file is not valid UTF-8 (byte offset \(offset + start)); trip JSON must be UTF-8"))
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(text, maximumDepth: limits.maxDepth, maximumStringBytes: limits.maxTextBytes)
        } catch {
            let (line, column) = lines.position(of: error.offset)
            return .failed(.error(SourceLocation(path: "", line: line, column: column), error.message))
        }
        var mapper = DraftMapper(limits: limits)
        let draft = mapper.trip(root)
        return ReadResult(draft: draft, diagnostics: mapper.diagnostics, lines: lines)
    }
}

/// One JSON object's members, looked up by key.
///
/// Trip objects have a handful of keys, so a linear scan beats hashing every key into a
/// dictionary, which matters when a trip has a hundred thousand tasks.
private struct Members {
    let node: JSONNode
    let members: [JSONMember]

    subscript(key: String) -> JSONNode? {
        for member in members where member.key == key { return member.value }
        return nil
    }
}

/// Walks the JSON tree and builds the draft, one field at a time.
///
/// Locations record byte offsets only; ``TripLoader`` turns the few that end up in a diagnostic
/// into lines and columns.
private struct DraftMapper {
    let limits: ReadLimits
    var diagnostics: [Diagnostic] = []
    var taskCount = 0
    var pointCount = 0

    func location(_ parent: String, _ field: String, _ node: JSONNode) -> SourceLocation {
        SourceLocation(parent: parent, field: field, offset: node.offset)
    }

    mutating func error(_ location: SourceLocation, _ message: String) {
        diagnostics.append(.error(location, message))
    }

    /// The members of an object node, warning about keys outside `known`.
    mutating func members(_ node: JSONNode, at location: SourceLocation, known: [String], what: String) -> Members? {
        guard case .object(let members) = node.value else {
            error(location, "\(what) must be an object, not \(node.kindName)")
            return nil
        }
        for member in members where !known.contains(member.key) {
            diagnostics.append(
                .warning(
                    SourceLocation(parent: location.path, field: member.key, offset: member.keyOffset),
                    "unknown key \(Quoting.quoted(member.key)), ignored"))
        }
        return Members(node: node, members: members)
    }

    /// A string field; `optional` fields treat null as absent.
    mutating func string(_ object: Members, _ key: String, in path: String, optional: Bool = false) -> Field<String> {
        guard let node = object[key] else { return .missing(location(path, key, object.node)) }
        switch node.value {
        case .string(let text):
            return .present(text, location(path, key, node))
        case .null where optional:
            return .missing(location(path, key, node))
        default:
            error(location(path, key, node), "must be a string, not \(node.kindName)")
            return .invalid
        }
    }

    /// A number field, kept as its exact text.
    mutating func number(_ object: Members, _ key: String, in path: String) -> Field<String> {
        guard let node = object[key] else { return .missing(location(path, key, object.node)) }
        guard case .number(let text) = node.value else {
            error(location(path, key, node), "must be a number, not \(node.kindName)")
            return .invalid
        }
        return .present(text, location(path, key, node))
    }

    /// An array field's elements; null and absence are an empty list when `optional`.
    mutating func array(_ object: Members, _ key: String, in path: String, optional: Bool) -> [JSONNode] {
        guard let node = object[key] else {
            if !optional { error(location(path, key, object.node), "is required (a list)") }
            return []
        }
        switch node.value {
        case .array(let elements): return elements
        case .null where optional: return []
        default:
            error(location(path, key, node), "must be a list, not \(node.kindName)")
            return []
        }
    }

    mutating func trip(_ root: JSONNode) -> TripDraft? {
        let here = location("", "", root)
        let known = ["$schema", "title", "traveler", "travel", "destinations"]
        guard let object = members(root, at: here, known: known, what: "a trip") else { return nil }
        let title = string(object, "title", in: "")
        let traveler = string(object, "traveler", in: "", optional: true)
        let travel = string(object, "travel", in: "", optional: true)
        let destinations = array(object, "destinations", in: "", optional: false)
        if destinations.count > limits.maxDestinations {
            error(
                location("", "destinations", root),
                "has \(destinations.count) destinations, more than the limit of \(limits.maxDestinations)")
            return nil
        }
        return TripDraft(
            location: here, title: title, traveler: traveler,
            destinations: destinations.enumerated().compactMap { index, node in
                destination(node, path: "destinations[\(index)]")
            },
            travel: travel)
    }

    mutating func destination(_ node: JSONNode, path: String) -> DestinationDraft? {
        let here = location(path, "", node)
        let known = ["name", "location", "arrival", "departure", "detours"]
        guard let object = members(node, at: here, known: known, what: "a destination") else { return nil }
        let detours = array(object, "detours", in: path, optional: true)
        return DestinationDraft(
            location: here,
            name: string(object, "name", in: path),
            coordinate: coordinate(object, in: path, optional: false),
            arrival: string(object, "arrival", in: path),
            departure: string(object, "departure", in: path),
            detours: detours.enumerated().compactMap { index, detourNode in
                detour(detourNode, path: "\(path).detours[\(index)]")
            })
    }

    mutating func coordinate(_ object: Members, in path: String, optional: Bool) -> Field<CoordinateDraft> {
        guard let node = object["location"] else { return .missing(location(path, "location", object.node)) }
        let here = location(path, "location", node)
        if optional, case .null = node.value { return .missing(here) }
        guard let members = members(node, at: here, known: ["lat", "lon"], what: "a location") else {
            return .invalid
        }
        let fieldPath = here.path
        let draft = CoordinateDraft(
            latitude: number(members, "lat", in: fieldPath),
            longitude: number(members, "lon", in: fieldPath))
        return .present(draft, here)
    }

    mutating func detour(_ node: JSONNode, path: String) -> DetourDraft? {
        let here = location(path, "", node)
        guard let object = members(node, at: here, known: ["tasks"], what: "a detour") else { return nil }
        let tasks = array(object, "tasks", in: path, optional: true)
        return DetourDraft(
            location: here,
            tasks: tasks.enumerated().compactMap { index, taskNode in
                task(taskNode, path: "\(path).tasks[\(index)]")
            })
    }

    mutating func task(_ node: JSONNode, path: String) -> TaskDraft? {
        let here = location(path, "", node)
        let known = ["name", "duration", "cost", "location", "pros", "cons", "travel", "path"]
        guard let object = members(node, at: here, known: known, what: "a task") else { return nil }
        taskCount += 1
        if taskCount == limits.maxTasks + 1 {
            error(here, "the trip has more than \(limits.maxTasks) tasks, the limit")
        }
        return TaskDraft(
            location: here,
            name: string(object, "name", in: path),
            duration: string(object, "duration", in: path),
            cost: cost(object, in: path),
            coordinate: coordinate(object, in: path, optional: true),
            pros: reasons(object, "pros", in: path),
            cons: reasons(object, "cons", in: path),
            travel: string(object, "travel", in: path, optional: true),
            path: routePath(object, in: path))
    }

    /// `"path": [{"lat": …, "lon": …}, …]`: the way from the destination to the task.
    mutating func routePath(_ object: Members, in path: String) -> Field<PathDraft> {
        guard let node = object["path"] else { return .missing(location(path, "path", object.node)) }
        let here = location(path, "path", node)
        if case .null = node.value { return .missing(here) }
        guard case .array(let elements) = node.value else {
            error(here, "must be a list of points, not \(node.kindName)")
            return .invalid
        }
        var points: [CoordinateDraft] = []
        let listPath = here.path
        pointCount += elements.count
        if pointCount > limits.maxPathPoints {
            error(here, "paths hold more than \(limits.maxPathPoints) points in all, the limit")
            return .invalid
        }
        for (index, element) in elements.enumerated() {
            let pointLocation = location(listPath, "[\(index)]", element)
            guard let members = members(element, at: pointLocation, known: ["lat", "lon"], what: "a point") else {
                return .invalid
            }
            let pointPath = pointLocation.path
            points.append(
                CoordinateDraft(latitude: number(members, "lat", in: pointPath), longitude: number(members, "lon", in: pointPath)))
        }
        return .present(.points(points), here)
    }

    mutating func cost(_ object: Members, in path: String) -> Field<MoneyDraft> {
        guard let node = object["cost"] else { return .missing(location(path, "cost", object.node)) }
        let here = location(path, "cost", node)
        guard let members = members(node, at: here, known: ["amount", "currency"], what: "a cost") else {
            return .invalid
        }
        let fieldPath = here.path
        let draft = MoneyDraft(
            amount: number(members, "amount", in: fieldPath),
            currency: string(members, "currency", in: fieldPath))
        return .present(draft, here)
    }

    mutating func reasons(_ object: Members, _ key: String, in path: String) -> [Field<String>] {
        let elements = array(object, key, in: path, optional: true)
        guard !elements.isEmpty else { return [] }
        let listPath = path.isEmpty ? key : "\(path).\(key)"
        return elements.enumerated().map { index, node in
            let here = location(listPath, "[\(index)]", node)
            guard case .string(let text) = node.value else {
                error(here, "must be a string, not \(node.kindName)")
                return .invalid
            }
            return .present(text, here)
        }
    }
}
