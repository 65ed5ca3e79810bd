import DetourCore

/// How a GPX trip's pieces name each other, resolved: a task names its stay by the stay's `id`
/// and its detour by a key; a stay may declare its detours' keys ahead; a route or track names
/// the task it is the path of, by the task's `id` or its name.
///
/// The reader hands over each stay and task as it finishes its waypoint, and each path as it
/// finishes its route or track; ``resolve(into:)`` then puts the trip together. Identifiers are
/// tokens (XML Schema's `xsd:token`): white space around them is not part of them.
struct GPXReferences {
    struct Stay {
        var id: String
        var label: String
        var position: SourcePosition
        var draft: DestinationDraft
        /// Its `dr:detour` keys, each with its place in the document's order.
        var declared: [(key: String, order: Int, position: SourcePosition)]
    }

    struct Task {
        var destination: String
        var detour: String
        var id: String?
        /// Its name folded as labels fold it, for a path that names it.
        var name: String?
        var order: Int
        var position: SourcePosition
        var draft: TaskDraft
    }

    /// A route or track that is a task's path, read point by point.
    struct Path {
        var label: String
        var line: Int
        var destination: String?
        var task: String?
        var points: [CoordinateDraft] = []
        var count = 0
    }

    var stays: [Stay] = []
    var tasks: [Task] = []
    var paths: [Path] = []

    /// Whether the document names no stay, task or path: nothing of a trip's shape.
    var isEmpty: Bool { stays.isEmpty && tasks.isEmpty && paths.isEmpty }

    mutating func addStay(
        id: String, label: String, at position: SourcePosition, _ draft: DestinationDraft,
        declaring detours: [(String, Int, SourcePosition)]
    ) {
        let declared = detours.map { (TokenText.trimmed($0.0), $0.1, $0.2) }
        stays.append(
            Stay(id: TokenText.trimmed(id), label: label, position: position, draft: draft, declared: declared))
    }

    /// The task of the `dr:task` `element`, when its attributes tie it to a stay and a detour.
    mutating func addTask(
        _ element: GPXReading.Element, name: String?, at position: SourcePosition, _ draft: TaskDraft,
        into diagnostics: inout [Diagnostic]
    ) {
        func value(_ name: GPXMapping.Attribute) -> String? { element[name].map(TokenText.trimmed) }
        guard let destination = value(.destination), let detour = value(.detour) else {
            let missing =
                value(.destination) == nil
                ? "a destination attribute naming the id of a dr:stay"
                : "a detour attribute: tasks with the same detour key are its two sides"
            diagnostics.append(Diagnostic(.gpxMissingAttribute, at: position, "dr:task needs \(missing)"))
            return
        }
        tasks.append(
            Task(
                destination: destination, detour: detour, id: value(.id), name: name.map(TextRules.foldedForLabel),
                order: element.order, position: position, draft: draft))
    }

    /// The destinations, each with its detours and their tasks in file order (the validator
    /// places them by side), every path given to its task; what names nothing is reported.
    mutating func resolve(into diagnostics: inout [Diagnostic]) -> [DestinationDraft] {
        var index: [String: Int] = [:]
        var kept: [Stay] = []
        for stay in stays {
            guard let previous = index[stay.id] else {
                index[stay.id] = kept.count
                kept.append(stay)
                continue
            }
            diagnostics.append(
                Diagnostic(
                    .gpxDuplicateStayID, at: stay.position,
                    "stay id \(Quoting.quoted(stay.id)) is already used by \(kept[previous].label)"))
        }
        attachPaths(stays: index, into: &diagnostics)
        var keys = kept.map(\.declared)
        var sides: [[String: [TaskDraft]]] = Array(repeating: [:], count: kept.count)
        for task in tasks {
            guard let stay = index[task.destination] else {
                diagnostics.append(Self.unknownStay(task.destination, at: task.position))
                continue
            }
            if !keys[stay].contains(where: { $0.key == task.detour }) {
                keys[stay].append((task.detour, task.order, task.position))
            }
            sides[stay][task.detour, default: []].append(task.draft)
        }
        return kept.indices.map { stay in
            var draft = kept[stay].draft
            draft.detours = keys[stay].sorted { $0.order < $1.order }.map { key in
                DetourDraft(position: key.position, tasks: sides[stay][key.key] ?? [])
            }
            return draft
        }
    }

    static func unknownStay(_ id: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(.gpxUnknownStay, at: position, "destination \(Quoting.quoted(id)) is not the id of any dr:stay")
    }

    /// Gives each path to the task it names (by `id`, else by name) within its stay.
    private mutating func attachPaths(stays: [String: Int], into diagnostics: inout [Diagnostic]) {
        for path in paths {
            let here = SourcePosition(line: path.line, element: path.label)
            guard let destination = path.destination.map(TokenText.trimmed), let name = path.task.map(TokenText.trimmed)
            else {
                diagnostics.append(
                    Diagnostic(
                        .gpxMissingAttribute, at: here,
                        "dr:path needs destination and task attributes naming a stay and one of its tasks"))
                continue
            }
            guard stays[destination] != nil else {
                diagnostics.append(Self.unknownStay(destination, at: here))
                continue
            }
            var matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].id == name }
            if matches.isEmpty {
                matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].name == name }
            }
            let task = Quoting.quoted(name)
            guard let match = matches.first, matches.count == 1 else {
                diagnostics.append(
                    matches.isEmpty
                        ? Diagnostic(
                            .gpxUnknownPathTask, at: here,
                            "task \(task) is not a task of \(Quoting.quoted(destination))")
                        : Diagnostic(
                            .gpxAmbiguousPathTask, at: here,
                            "task \(task) names \(matches.count) tasks; give the dr:task an id attribute"))
                continue
            }
            if case .present = tasks[match].draft.path {
                diagnostics.append(
                    Diagnostic(.gpxTwoPaths, at: here, "task \(task) has a path already; a task has one path"))
                continue
            }
            tasks[match].draft.path = .present(PathDraft(points: path.points, count: path.count), here)
        }
        paths = []
    }
}
