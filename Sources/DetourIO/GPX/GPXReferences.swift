import DetourCore

/// How a GPX trip's pieces name each other, resolved: a task names its stay by the stay's `id`
/// and its detour by a key; a stay may declare its detours' keys ahead; a route or track names
/// the task it is the path of, by the task's `id` or its name.
///
/// The reader hands over each stay and task as it finishes its waypoint, and each path as it
/// finishes its route or track; ``resolve(into:)`` then puts the trip together. Identifiers are
/// tokens (XML Schema's `xsd:token`): white space around them is not part of them.
///
/// A task whose stay is already known goes straight into its detour, so a trip's tasks are held
/// once, not listed and then copied into their detours (which held a large trip twice); only a
/// task that comes before its stay in the file waits for the end.
struct GPXReferences {
    /// A detour of a stay, as its tasks arrive.
    struct Detour {
        var key: String
        /// Its first appearance in the document: the `dr:detour` that declares it, or its first task.
        var order: Int
        var position: SourcePosition
        var declared: Bool
        var tasks: [TaskDraft] = []
        /// For a path that names a task: each task's `id` and its name folded as labels fold it.
        var names: [(id: String?, name: String?)] = []
        /// The sides tasks name, by their place in ``tasks``; most detours have none.
        var sides: [(slot: Int, side: Field<String>)] = []
    }

    struct Stay {
        var id: String
        var label: String
        var draft: DestinationDraft
        var detours: [Detour]
    }

    /// A task that names its stay before the stay's waypoint comes.
    struct Waiting {
        var destination: String
        var detour: String
        var id: String?
        var name: String?
        var order: Int
        var draft: TaskDraft
        var side: Field<String>
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
    /// Each stay's place in ``stays``, by id; a second stay with an id is reported and left out.
    var index: [String: Int] = [:]
    var waiting: [Waiting] = []
    var paths: [Path] = []
    /// The tasks whose stay does not exist, kept for their values to be checked.
    var unplaced: [TaskDraft] = []
    /// Whether the document named any stay or task, kept or not.
    private var namedAny = false

    /// Whether the document names no stay, task or path: nothing of a trip's shape.
    var isEmpty: Bool { !namedAny && paths.isEmpty }

    mutating func addStay(
        id: String, label: String, at position: SourcePosition, _ draft: DestinationDraft,
        declaring detours: [(String, Int, SourcePosition)], into diagnostics: inout [Diagnostic]
    ) {
        namedAny = true
        let id = TokenText.trimmed(id)
        if let previous = index[id] {
            diagnostics.append(
                Diagnostic(
                    .gpxDuplicateStayID, at: position,
                    "stay id \(Quoting.quoted(id)) is already used by \(stays[previous].label)"))
            return
        }
        var declared: [Detour] = []
        for (key, order, position) in detours {
            let key = TokenText.trimmed(key)
            guard !declared.contains(where: { $0.key == key }) else { continue }
            declared.append(Detour(key: key, order: order, position: position, declared: true))
        }
        index[id] = stays.count
        stays.append(Stay(id: id, label: label, draft: draft, detours: declared))
    }

    /// The task of the `dr:task` `element`, when its attributes tie it to a stay and a detour.
    mutating func addTask(
        _ element: GPXReading.Element, name: String?, at position: SourcePosition, _ draft: TaskDraft,
        side: Field<String>, into diagnostics: inout [Diagnostic]
    ) {
        namedAny = true
        func value(_ name: GPXMapping.Attribute) -> String? { element[name].map(TokenText.trimmed) }
        guard let destination = value(.destination), let detour = value(.detour) else {
            let missing =
                value(.destination) == nil
                ? "a destination attribute naming the id of a dr:stay"
                : "a detour attribute: tasks with the same detour key are its two sides"
            diagnostics.append(Diagnostic(.gpxMissingAttribute, at: position, "dr:task needs \(missing)"))
            return
        }
        let task = Waiting(
            destination: destination, detour: detour, id: value(.id), name: name.map(TextRules.foldedForLabel),
            order: element.order, draft: draft, side: side)
        guard let stay = index[destination] else {
            waiting.append(task)
            return
        }
        Self.append(task, to: &stays[stay])
    }

    /// Adds `task` at the end of its detour in `stay`, opening the detour at the task if it is new.
    private static func append(_ task: Waiting, to stay: inout Stay) {
        let detour =
            stay.detours.firstIndex { $0.key == task.detour }
            ?? {
                stay.detours.append(
                    Detour(key: task.detour, order: task.order, position: task.draft.position, declared: false))
                return stay.detours.count - 1
            }()
        if case .present = task.side {
            stay.detours[detour].sides.append((stay.detours[detour].tasks.count, task.side))
        }
        stay.detours[detour].tasks.append(task.draft)
        stay.detours[detour].names.append((task.id, task.name))
    }

    /// The destinations, each with its detours and their tasks in file order (the validator
    /// places them by side), every path given to its task; what names nothing is reported.
    mutating func resolve(into diagnostics: inout [Diagnostic]) -> [DestinationDraft] {
        placeWaiting(into: &diagnostics)
        attachPaths(into: &diagnostics)
        let stays = self.stays
        self.stays = []
        return stays.map { stay in
            var draft = stay.draft
            draft.detours = stay.detours.sorted { $0.order < $1.order }.map { detour in
                var sides: [Field<String>] = []
                if !detour.sides.isEmpty {
                    sides = Array(repeating: .missing(.unknown), count: detour.tasks.count)
                    for (slot, side) in detour.sides { sides[slot] = side }
                }
                return DetourDraft(position: detour.position, tasks: detour.tasks, sides: sides)
            }
            return draft
        }
    }

    /// Puts each task that came before its stay in its detour: before the tasks that came after
    /// the stay, in file order, as it stands in the file.
    private mutating func placeWaiting(into diagnostics: inout [Diagnostic]) {
        var early: [Int: [Waiting]] = [:]
        for task in waiting {
            guard let stay = index[task.destination] else {
                diagnostics.append(unknownStay(task.destination, at: task.draft.position))
                unplaced.append(task.draft)
                continue
            }
            early[stay, default: []].append(task)
        }
        waiting = []
        for (stay, tasks) in early {
            var before = Stay(id: stays[stay].id, label: stays[stay].label, draft: stays[stay].draft, detours: [])
            for task in tasks { Self.append(task, to: &before) }
            for var detour in before.detours {
                guard let later = stays[stay].detours.firstIndex(where: { $0.key == detour.key }) else {
                    stays[stay].detours.append(detour)
                    continue
                }
                let after = stays[stay].detours[later]
                let shift = detour.tasks.count
                detour.tasks += after.tasks
                detour.names += after.names
                detour.sides += after.sides.map { ($0.slot + shift, $0.side) }
                // A declared detour keeps its declaration's place; another starts at its first task.
                if after.declared {
                    (detour.order, detour.position, detour.declared) = (after.order, after.position, true)
                }
                stays[stay].detours[later] = detour
            }
        }
    }

    /// A reference to a stay that does not exist; when it differs from a stay's id only in case
    /// or by one edit, the message names that id.
    func unknownStay(_ id: String, at position: SourcePosition) -> Diagnostic {
        let ids = stays.map(\.id)
        let meant =
            ids.first { $0.lowercased() == id.lowercased() }
            // One edit in a one-letter id is a whole other id.
            ?? (id.count > 1 ? Suggestions.nearest(to: id, among: ids, within: 1).first : nil)
        let hint = meant.map { "; did you mean \(Quoting.quoted($0))?" } ?? ""
        return Diagnostic(
            .gpxUnknownStay, at: position, "destination \(Quoting.quoted(id)) is not the id of any dr:stay\(hint)")
    }

    /// Gives each path to the task it names (by `id`, else by name) within its stay.
    private mutating func attachPaths(into diagnostics: inout [Diagnostic]) {
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
            guard let stay = index[destination] else {
                diagnostics.append(unknownStay(destination, at: here))
                continue
            }
            // The stay's tasks that `name` names: by `id` first, else by name.
            func matching(byID: Bool) -> [(detour: Int, slot: Int)] {
                var found: [(detour: Int, slot: Int)] = []
                for (detour, entry) in stays[stay].detours.enumerated() {
                    for (slot, names) in entry.names.enumerated() where (byID ? names.id : names.name) == name {
                        found.append((detour, slot))
                    }
                }
                return found
            }
            var matches = matching(byID: true)
            if matches.isEmpty { matches = matching(byID: false) }
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
            if case .present = stays[stay].detours[match.detour].tasks[match.slot].path {
                diagnostics.append(
                    Diagnostic(.gpxTwoPaths, at: here, "task \(task) has a path already; a task has one path"))
                continue
            }
            stays[stay].detours[match.detour].tasks[match.slot].path = .present(
                PathDraft(points: path.points, count: path.count), here)
        }
        paths = []
    }
}
