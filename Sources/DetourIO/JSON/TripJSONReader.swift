import DetourCore

/// Reads trip JSON (version 1) into a ``TripDraft``, reporting every shape problem it finds.
///
/// This reader knows the JSON format only: keys, types, nesting, paths. What the values mean
/// (dates, durations, ranges) is checked by ``TripValidator``, the same for every format.
/// The format is documented in `docs/trip.schema.json`.
public enum TripJSONReader {
    /// Reads `bytes` as trip JSON.
    public static func read(_ bytes: [UInt8]) -> ReadResult {
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
            root = try JSONParser.parse(text)
        } catch {
            let (line, column) = lines.position(of: error.offset)
            return .failed(.error(SourceLocation(path: "", line: line, column: column), error.message))
        }
        var mapper = DraftMapper(lines: lines)
        let draft = mapper.trip(root)
        return ReadResult(draft: draft, diagnostics: mapper.diagnostics)
    }
}

/// Walks the JSON tree and builds the draft, one field at a time.
private struct DraftMapper {
    let lines: LineTable
    var diagnostics: [Diagnostic] = []

    init(lines: LineTable) { self.lines = lines }

    func location(_ path: String, _ node: JSONNode) -> SourceLocation {
        let (line, column) = lines.position(of: node.offset)
        return SourceLocation(path: path, line: line, column: column)
    }

    mutating func error(_ location: SourceLocation, _ message: String) {
        diagnostics.append(.error(location, message))
    }

    /// The members of an object node, warning about keys outside `known`.
    mutating func members(
        _ node: JSONNode, path: String, known: Set<String>, what: String
    ) -> [String: JSONNode]? {
        guard case .object(let members) = node.value else {
            error(location(path, node), "\(what) must be an object, not \(node.kindName)")
            return nil
        }
        var byKey: [String: JSONNode] = [:]
        for member in members {
            if known.contains(member.key) {
                byKey[member.key] = member.value
            } else {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                let (line, column) = lines.position(of: member.keyOffset)
                diagnostics.append(
                    .warning(
                        SourceLocation(path: memberPath, line: line, column: column),
                        "unknown key \(Quoting.quoted(member.key)), ignored"))
            }
        }
        return byKey
    }

    func childPath(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// A string field; `optional` fields treat null as absent.
    mutating func string(
        _ object: [String: JSONNode], _ key: String, in path: String, parent: JSONNode, optional: Bool = false
    ) -> Field<String> {
        let fieldPath = childPath(path, key)
        guard let node = object[key] else { return .missing(location(fieldPath, parent)) }
        switch node.value {
        case .string(let text):
            return .present(text, location(fieldPath, node))
        case .null where optional:
            return .missing(location(fieldPath, node))
        default:
            error(location(fieldPath, node), "must be a string, not \(node.kindName)")
            return .invalid
        }
    }

    /// A number field, kept as its exact text.
    mutating func number(_ object: [String: JSONNode], _ key: String, in path: String, parent: JSONNode) -> Field<String> {
        let fieldPath = childPath(path, key)
        guard let node = object[key] else { return .missing(location(fieldPath, parent)) }
        guard case .number(let text) = node.value else {
            error(location(fieldPath, node), "must be a number, not \(node.kindName)")
            return .invalid
        }
        return .present(text, location(fieldPath, node))
    }

    /// An array field's elements; null and absence are an empty list when `optional`.
    mutating func array(
        _ object: [String: JSONNode], _ key: String, in path: String, parent: JSONNode, optional: Bool
    ) -> [JSONNode]? {
        let fieldPath = childPath(path, key)
        guard let node = object[key] else {
            if !optional { error(location(fieldPath, parent), "is required (a list)") }
            return optional ? [] : nil
        }
        switch node.value {
        case .array(let elements): return elements
        case .null where optional: return []
        default:
            error(location(fieldPath, node), "must be a list, not \(node.kindName)")
            return nil
        }
    }

    mutating func trip(_ root: JSONNode) -> TripDraft? {
        let known: Set = ["$schema", "title", "traveler", "destinations"]
        guard let object = members(root, path: "", known: known, what: "a trip") else { return nil }
        let title = string(object, "title", in: "", parent: root)
        let traveler = string(object, "traveler", in: "", parent: root, optional: true)
        let destinations = array(object, "destinations", in: "", parent: root, optional: false) ?? []
        return TripDraft(
            location: location("", root), title: title, traveler: traveler,
            destinations: destinations.enumerated().compactMap { index, node in
                destination(node, path: "destinations[\(index)]")
            })
    }

    mutating func destination(_ node: JSONNode, path: String) -> DestinationDraft? {
        let known: Set = ["name", "location", "arrival", "departure", "detours"]
        guard let object = members(node, path: path, known: known, what: "a destination") else { return nil }
        let detours = array(object, "detours", in: path, parent: node, optional: true) ?? []
        return DestinationDraft(
            location: location(path, node),
            name: string(object, "name", in: path, parent: node),
            coordinate: coordinate(object, in: path, parent: node, optional: false),
            arrival: string(object, "arrival", in: path, parent: node),
            departure: string(object, "departure", in: path, parent: node),
            detours: detours.enumerated().compactMap { index, detourNode in
                detour(detourNode, path: "\(path).detours[\(index)]")
            })
    }

    mutating func coordinate(
        _ object: [String: JSONNode], in path: String, parent: JSONNode, optional: Bool
    ) -> Field<CoordinateDraft> {
        let fieldPath = childPath(path, "location")
        guard let node = object["location"] else { return .missing(location(fieldPath, parent)) }
        if optional, case .null = node.value { return .missing(location(fieldPath, node)) }
        guard let members = members(node, path: fieldPath, known: ["lat", "lon"], what: "a location") else {
            return .invalid
        }
        let draft = CoordinateDraft(
            latitude: number(members, "lat", in: fieldPath, parent: node),
            longitude: number(members, "lon", in: fieldPath, parent: node))
        return .present(draft, location(fieldPath, node))
    }

    mutating func detour(_ node: JSONNode, path: String) -> DetourDraft? {
        guard let object = members(node, path: path, known: ["tasks"], what: "a detour") else { return nil }
        let tasks = array(object, "tasks", in: path, parent: node, optional: true) ?? []
        return DetourDraft(
            location: location(path, node),
            tasks: tasks.enumerated().compactMap { index, taskNode in
                task(taskNode, path: "\(path).tasks[\(index)]")
            })
    }

    mutating func task(_ node: JSONNode, path: String) -> TaskDraft? {
        let known: Set = ["name", "duration", "cost", "location", "pros", "cons"]
        guard let object = members(node, path: path, known: known, what: "a task") else { return nil }
        return TaskDraft(
            location: location(path, node),
            name: string(object, "name", in: path, parent: node),
            duration: string(object, "duration", in: path, parent: node),
            cost: cost(object, in: path, parent: node),
            coordinate: coordinate(object, in: path, parent: node, optional: true),
            pros: reasons(object, "pros", in: path, parent: node),
            cons: reasons(object, "cons", in: path, parent: node))
    }

    mutating func cost(_ object: [String: JSONNode], in path: String, parent: JSONNode) -> Field<MoneyDraft> {
        let fieldPath = childPath(path, "cost")
        guard let node = object["cost"] else { return .missing(location(fieldPath, parent)) }
        guard let members = members(node, path: fieldPath, known: ["amount", "currency"], what: "a cost") else {
            return .invalid
        }
        let draft = MoneyDraft(
            amount: number(members, "amount", in: fieldPath, parent: node),
            currency: string(members, "currency", in: fieldPath, parent: node))
        return .present(draft, location(fieldPath, node))
    }

    mutating func reasons(
        _ object: [String: JSONNode], _ key: String, in path: String, parent: JSONNode
    ) -> [Field<String>] {
        let elements = array(object, key, in: path, parent: parent, optional: true) ?? []
        return elements.enumerated().map { index, node in
            let elementPath = "\(childPath(path, key))[\(index)]"
            guard case .string(let text) = node.value else {
                error(location(elementPath, node), "must be a string, not \(node.kindName)")
                return .invalid
            }
            return .present(text, location(elementPath, node))
        }
    }
}
