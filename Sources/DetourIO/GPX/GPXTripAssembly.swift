import DetourCore

// The second half of reading GPX: once every waypoint is read, the stays, tasks and paths it
// found are tied together (by stay id, detour key, side and task name) into a trip draft. The
// first half, which streams the document, is in TripGPXReader.swift.

extension GPXTripBuilder {

    /// Turns a finished waypoint into a stay and tasks.
    mutating func collect(_ waypoint: Waypoint) {
        for var diagnostic in waypoint.pending {
            diagnostic.position?.element = waypoint.label
            diagnostics.append(diagnostic)
        }
        if let stay = waypoint.stay {
            let id = stay.id ?? waypoint.name.map { TextRules.foldedForLabel($0.text) } ?? ""
            stays.append(
                StayEntry(
                    id: id, label: waypoint.label, position: waypoint.at(stay.line),
                    draft: destination(waypoint, stay: stay),
                    detours: waypoint.detours.map { ($0.key, $0.order, waypoint.at($0.line)) }))
        } else if waypoint.tasks.isEmpty {
            plainWaypoints += 1
            if plainWaypoints == 1 { firstPlainWaypointLine = waypoint.line }
        }
        for element in waypoint.tasks {
            let position = waypoint.at(element.line)
            guard let destinationID = element.destination else {
                diagnostics.append(
                    Diagnostic(
                        .gpxMissingAttribute, at: position,
                        "dr:task needs a destination attribute naming the id of a dr:stay"))
                continue
            }
            guard let key = element.detour else {
                diagnostics.append(
                    Diagnostic(
                        .gpxMissingAttribute, at: position,
                        "dr:task needs a detour attribute: tasks with the same detour key are its two sides"))
                continue
            }
            var side: Int?
            if let text = element.side {
                side = Int(text).flatMap { (1...Detour.sides).contains($0) ? $0 : nil }
                if side == nil {
                    diagnostics.append(
                        Diagnostic(
                            .gpxBadSide, at: position,
                            "side \(Quoting.quoted(text)) is not 1 (the left side) or 2 (the right)"))
                }
            }
            // A task inside its stay's own waypoint has no location of its own.
            let located = waypoint.stay == nil
            tasks.append(
                TaskEntry(
                    destination: destinationID, id: element.id,
                    name: (located ? waypoint.name?.text : element.name).map { TextRules.foldedForLabel($0) },
                    detour: key, order: element.order, side: side,
                    draft: task(element, in: waypoint, located: located), position: position))
        }
    }

    mutating func finish() -> ReadResult {
        guard !stays.isEmpty || isTrip else {
            // One clear error, not a message for each of another app's waypoints.
            diagnostics = [
                Diagnostic(
                    .gpxNoStays,
                    "no waypoint is a detour-report stay: mark each destination's <wpt> with "
                        + "<extensions><dr:stay id=\"…\" arrival=\"YYYY-MM-DD\" departure=\"YYYY-MM-DD\"/></extensions> "
                        + "(xmlns:dr=\"\(GPXMapping.namespace.description)\"), and each task's with <dr:task>")
            ]
            return ReadResult(draft: nil, diagnostics: diagnostics)
        }
        if plainWaypoints > 0 {
            let message =
                plainWaypoints == 1
                ? "1 waypoint has neither dr:stay nor dr:task and was read past; it is on line \(firstPlainWaypointLine)"
                : "\(Self.grouped(plainWaypoints)) waypoints have neither dr:stay nor dr:task and were read past; "
                    + "the first is on line \(firstPlainWaypointLine)"
            diagnostics.append(
                Diagnostic(.gpxPlainWaypoints, at: SourcePosition(line: firstPlainWaypointLine), message))
        }
        var stayIndex: [String: Int] = [:]
        var destinations: [DestinationDraft] = []
        var detourKeys: [[(key: String, order: Int, position: SourcePosition)]] = []
        for stay in stays {
            if let previous = stayIndex[stay.id] {
                diagnostics.append(
                    Diagnostic(
                        .gpxDuplicateStayID, at: stay.position,
                        "stay id \(Quoting.quoted(stay.id)) is already used by \(stays[previous].label)"))
                continue
            }
            stayIndex[stay.id] = destinations.count
            destinations.append(stay.draft)
            detourKeys.append(stay.detours)
        }
        stays = []
        attachPaths(stayIndex: stayIndex)
        var sides: [[String: [TaskEntry]]] = Array(repeating: [:], count: destinations.count)
        for entry in tasks {
            guard let index = stayIndex[entry.destination] else {
                diagnostics.append(
                    Diagnostic(
                        .gpxUnknownStay, at: entry.position,
                        "destination \(Quoting.quoted(entry.destination)) is not the id of any dr:stay"))
                continue
            }
            if !detourKeys[index].contains(where: { $0.key == entry.detour }) {
                detourKeys[index].append((entry.detour, entry.order, entry.position))
            }
            sides[index][entry.detour, default: []].append(entry)
        }
        tasks = []
        for index in destinations.indices {
            let keys = detourKeys[index].sorted { $0.order < $1.order }
            destinations[index].detours = keys.map { key in
                DetourDraft(position: key.position, tasks: inSideOrder(sides[index][key.key] ?? []))
            }
        }
        let top = SourcePosition(line: rootLine)
        func field(_ written: Written?) -> Field<String> {
            written.map { .present($0.text, SourcePosition(line: $0.line)) } ?? .missing(top)
        }
        var draft = TripDraft(
            position: top, title: field(title), traveler: field(traveler), destinations: destinations,
            travel: field(tripTravel))
        draft.currency = field(tripCurrency)
        draft.dayHours = field(tripDayHours)
        draft.budget = tripBudget.map { $0.draft(SourcePosition(line: $0.line, element: "dr:budget")) } ?? .missing(top)
        draft.rates = rates.map { rate in
            let at = SourcePosition(line: rate.line, element: "dr:rate")
            return RateDraft(
                currency: rate.currency.map { .present($0, at) } ?? .missing(at),
                value: rate.value.map { .present($0, at) } ?? .missing(at))
        }
        if !rates.isEmpty { draft.ratesPosition = SourcePosition(line: tripLine) }
        return ReadResult(draft: draft, diagnostics: diagnostics)
    }

    /// `1,204`: a count as the warning about plain waypoints shows it.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    /// A detour's tasks: those with a `side` at that side, the others filling the free places
    /// in document order.
    mutating func inSideOrder(_ entries: [TaskEntry]) -> [TaskDraft] {
        var placed: [TaskDraft?] = Array(repeating: nil, count: max(entries.count, Detour.sides))
        var unsided: [TaskEntry] = []
        for entry in entries {
            guard let side = entry.side else {
                unsided.append(entry)
                continue
            }
            if placed[side - 1] != nil {
                diagnostics.append(
                    Diagnostic(
                        .gpxDuplicateSide, at: entry.position,
                        "another task of detour \(Quoting.quoted(entry.detour)) is side \(side) already"))
                unsided.append(entry)
            } else {
                placed[side - 1] = entry.draft
            }
        }
        var rest = unsided.makeIterator()
        for index in placed.indices where placed[index] == nil {
            placed[index] = rest.next()?.draft
        }
        return placed.compactMap { $0 }
    }

    /// Gives each `dr:path` route to the task it names (by `id`, else by name) within its stay.
    mutating func attachPaths(stayIndex: [String: Int]) {
        for path in paths {
            let here = path.position
            guard let destination = path.destination, let taskName = path.task else {
                diagnostics.append(
                    Diagnostic(
                        .gpxMissingAttribute, at: here,
                        "dr:path needs destination and task attributes naming a stay and one of its tasks"))
                continue
            }
            guard stayIndex[destination] != nil else {
                diagnostics.append(
                    Diagnostic(
                        .gpxUnknownStay, at: here,
                        "destination \(Quoting.quoted(destination)) is not the id of any dr:stay"))
                continue
            }
            var matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].id == taskName }
            if matches.isEmpty {
                matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].name == taskName }
            }
            guard matches.count == 1, let match = matches.first else {
                diagnostics.append(
                    matches.isEmpty
                        ? Diagnostic(
                            .gpxUnknownPathTask, at: here,
                            "task \(Quoting.quoted(taskName)) is not a task of \(Quoting.quoted(destination))")
                        : Diagnostic(
                            .gpxAmbiguousPathTask, at: here,
                            "task \(Quoting.quoted(taskName)) names \(matches.count) tasks; give the dr:task an id attribute"
                        ))
                continue
            }
            if case .present = tasks[match].draft.path {
                diagnostics.append(
                    Diagnostic(
                        .gpxTwoPaths, at: here,
                        "task \(Quoting.quoted(taskName)) has a path already; a task has one path"))
                continue
            }
            tasks[match].draft.path = .present(PathDraft(points: path.points, count: path.count), here)
        }
        paths = []
    }

    func coordinate(_ waypoint: Waypoint) -> Field<CoordinateDraft> {
        .present(
            CoordinateDraft(
                latitude: waypoint.field(waypoint.latitude, line: waypoint.line),
                longitude: waypoint.field(waypoint.longitude, line: waypoint.line)),
            waypoint.at())
    }

    func destination(_ waypoint: Waypoint, stay: Stay) -> DestinationDraft {
        var draft = DestinationDraft(
            position: waypoint.at(),
            name: waypoint.name.map { .present($0.text, waypoint.at($0.line)) } ?? .missing(waypoint.at()),
            coordinate: coordinate(waypoint),
            arrival: waypoint.field(stay.arrival, line: stay.line),
            departure: waypoint.field(stay.departure, line: stay.line),
            detours: [])
        draft.dayHours = stay.dayHours.map { .present($0, waypoint.at(stay.line)) } ?? .missing(waypoint.at(stay.line))
        draft.budget = stay.budget.map { $0.draft(waypoint.at($0.line)) } ?? .missing(waypoint.at(stay.line))
        return draft
    }

    func task(_ element: TaskElement, in waypoint: Waypoint, located: Bool) -> TaskDraft {
        let line = element.line
        // A located task is named by its waypoint; one inside its stay's waypoint by `name=`.
        let name: Field<String>
        if located {
            name = waypoint.name.map { .present($0.text, waypoint.at($0.line)) } ?? .missing(waypoint.at())
        } else {
            name = waypoint.field(element.name, line: line)
        }
        let cost: Field<MoneyDraft> =
            element.cost == nil && element.currency == nil
            ? .missing(waypoint.at(line))
            : .present(
                MoneyDraft(
                    amount: waypoint.field(element.cost, line: line),
                    currency: waypoint.field(element.currency, line: line)),
                waypoint.at(line))
        return TaskDraft(
            position: waypoint.at(line),
            name: name,
            duration: waypoint.field(element.duration, line: line),
            cost: cost,
            coordinate: located ? coordinate(waypoint) : .missing(waypoint.at(line)),
            pros: element.pros.map { .present($0.text, waypoint.at($0.line)) },
            cons: element.cons.map { .present($0.text, waypoint.at($0.line)) },
            travel: element.travel.map { .present($0, waypoint.at(line)) } ?? .missing(waypoint.at(line)))
    }
}
