import DetourCore

/// Reads a trip from GPX 1.1 or 1.0 in the detour-report mapping (see ``GPXMapping``).
///
/// Streaming: the reader pulls one node at a time and skips routes and tracks without looking
/// inside, so memory stays flat whatever the file's size. Safe: see ``XMLStream``.
public enum TripGPXReader {
    /// How many bytes are looked at before parsing, to settle the encoding.
    static let prefixLength = 4096

    /// Reads a trip from `source`; `name` is used in libxml2's own messages only.
    public static func read(_ source: some ByteSource, name: String = "trip.gpx", limits: ReadLimits = .standard) -> ReadResult {
        var source = source
        var prefix = [UInt8](repeating: 0, count: prefixLength)
        var filled = 0
        do {
            while filled < prefixLength {
                let count = try prefix.withUnsafeMutableBytes { buffer in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                if count == 0 { break }
                filled += count
            }
        } catch {
            return .failed(.error(nil, "cannot read the trip: \(error)"))
        }
        prefix.removeLast(prefixLength - filled)
        if prefix.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return .failed(.error(nil, "the file is empty: a GPX trip needs a <gpx> element with waypoints"))
        }
        if let problem = XMLEncoding.problem(prefix) {
            return .failed(.error(nil, problem))
        }
        guard let stream = XMLStream(source: source, prefix: prefix, name: name, maxBytes: limits.maxGPXBytes) else {
            return .failed(.error(nil, "cannot start the XML reader"))
        }
        var builder = GPXTripBuilder(stream: stream, limits: limits)
        return builder.run()
    }
}

/// What was found in one `<wpt>`.
private struct Waypoint {
    var index: Int
    var line: Int
    var latitude: String?
    var longitude: String?
    var name: String?
    var stay: Stay?
    var tasks: [TaskElement] = []
    var detours: [(key: String, line: Int, order: Int)] = []
    /// `wpt 2 "Ride Tram 28"`: how messages name this waypoint; set when the waypoint ends.
    var label = ""

    mutating func settleLabel() {
        label = name.map { "wpt \(index) \(Quoting.quoted(TextRules.foldedForLabel($0)))" } ?? "wpt \(index)"
    }

    /// The location of one of this waypoint's fields, such as `: dr:task duration`.
    func at(_ field: String, line: Int? = nil) -> SourceLocation {
        SourceLocation(parent: label, field: field, line: line ?? self.line)
    }
}

/// One `<dr:stay>` element's attributes.
private struct Stay {
    var line: Int
    var id: String?
    var arrival: String?
    var departure: String?
}

/// One `<dr:task>` element.
private struct TaskElement {
    var line: Int
    var order: Int
    var name: String?
    var destination: String?
    var detour: String?
    var side: String?
    var id: String?
    var travel: String?
    var duration: String?
    var cost: String?
    var currency: String?
    var pros: [(text: String, line: Int)] = []
    var cons: [(text: String, line: Int)] = []

    init(line: Int, order: Int, stream: XMLStream) {
        self.line = line
        self.order = order
        name = stream.attribute("name")
        destination = stream.attribute("destination")
        detour = stream.attribute("detour")
        side = stream.attribute("side")
        id = stream.attribute("id")
        travel = stream.attribute("travel")
        duration = stream.attribute("duration")
        cost = stream.attribute("cost")
        currency = stream.attribute("currency")
    }
}

/// A stay, ready to become a destination once every waypoint is read.
private struct StayEntry {
    var id: String
    var label: String
    var idLocation: SourceLocation
    var draft: DestinationDraft
    var detours: [(key: String, order: Int, location: SourceLocation)]
}

/// A checked task, waiting for its stay and detour to be settled.
private struct TaskEntry {
    var destination: String
    var id: String?
    var name: String?
    var detour: String
    var order: Int
    var side: Int?
    var checked: TaskSide
    var destinationLocation: SourceLocation
    var detourLocation: SourceLocation
}

/// A route or track that is a task's path, read point by point.
private struct PathCollector {
    var label: String
    var line: Int
    var destination: String?
    var task: String?
    var points: [Coordinate] = []
    var count = 0
    var failed = false
}

/// What the parser is inside of.
private enum Frame {
    case gpx
    case metadata
    case metadataExtensions
    case route(isTrack: Bool)
    case routeExtensions
    case trackSegment
    case author
    case waypoint
    case waypointExtensions
    case task
    case capture(Capture)
}

/// Text the parser is collecting, and where it goes.
private enum Capture {
    case title
    case travelerText
    case waypointName
    case pro
    case con
}

/// The streaming state machine: XML nodes in, a ``TripDraft`` out.
private struct GPXTripBuilder {
    let stream: XMLStream
    var diagnostics: [Diagnostic] = []
    var stack: [Frame] = []
    var text = ""
    var textLine = 0
    var rootNamespace: StaticString = ""
    var rootIsNamespaced = false
    var title: (text: String, line: Int)?
    var traveler: (text: String, line: Int)?
    var current: Waypoint?
    // Each waypoint becomes its pieces as soon as it ends, and its tasks are checked there and
    // then: nothing of a finished waypoint but its checked result is kept.
    var stays: [StayEntry] = []
    var tasks: [TaskEntry] = []
    var ignoredWaypoints: [Diagnostic] = []
    var tripTravel: (text: String, line: Int)?
    var routeCount = 0
    var pendingPath: PathCollector?
    var paths: [PathCollector] = []
    var currentTask: TaskElement?
    var waypointCount = 0
    var order = 0
    var stopped = false

    let limits: ReadLimits

    init(stream: XMLStream, limits: ReadLimits) {
        self.stream = stream
        self.limits = limits
    }

    mutating func fail(_ message: String, line: Int?) {
        diagnostics.append(.error(line.map { SourceLocation(path: "", line: $0) }, message))
        stopped = true
    }

    mutating func run() -> ReadResult {
        var status = stream.read()
        while status == 1, !stopped {
            var skip = false
            switch stream.nodeType {
            case .documentType:
                // No line: libxml2 has read the whole internal subset by now, so its line is past it.
                fail(
                    "a DOCTYPE is not allowed in a GPX trip (it could load files or expand entities); remove the <!DOCTYPE …> line",
                    line: nil)
            case .element:
                let empty = stream.isEmptyElement
                if let frame = enter() {
                    if empty { leave(frame) } else { stack.append(frame) }
                } else {
                    skip = !empty
                }
            case .endElement:
                if let frame = stack.popLast() { leave(frame) }
            case .text, .cdata, .significantWhitespace, .whitespace:
                if case .capture = stack.last {
                    text += stream.value
                    if text.utf8.count > limits.maxTextBytes {
                        fail("a text is longer than \(limits.maxTextBytes) bytes, the limit for any text in a trip", line: textLine)
                    }
                }
            case nil:
                break
            }
            guard !stopped else { break }
            status = skip ? stream.next() : stream.read()
        }
        if stopped { return ReadResult(draft: nil, diagnostics: diagnostics) }
        if status < 0 {
            if stream.exceededLimit {
                return .failed(.error(nil, ReadLimits.tooLarge("GPX", limit: limits.maxGPXBytes)))
            }
            if let failure = stream.sourceFailure {
                return .failed(.error(nil, "cannot read the trip: \(failure)"))
            }
            let problem = stream.problems.first
            let location = problem.map { SourceLocation(path: "", line: $0.line, column: $0.column > 0 ? $0.column : nil) }
            return .failed(.error(location, xmlMessage(problem?.message ?? "the XML is not well-formed")))
        }
        return finish()
    }

    func xmlMessage(_ message: String) -> String {
        if message.contains("Excessive depth") || message.contains("depth") && message.contains("HUGE") {
            return "XML: the elements are nested too deeply (more than 256 levels)"
        }
        if message.contains("Detected an entity reference loop") {
            return "XML: entities refer to each other in a loop"
        }
        return "XML: \(Quoting.printable(message))"
    }

    /// The frame for the element the stream is on, or `nil` to skip its subtree.
    mutating func enter() -> Frame? {
        guard let parent = stack.last else { return enterRoot() }
        // Names are compared in libxml2's own buffers: no String is made for an element we skip.
        let isGPX = rootIsNamespaced ? stream.namespaceIs(rootNamespace) : stream.namespaceIs("")
        switch parent {
        case .gpx:
            guard isGPX else { return nil }
            if stream.localNameIs("wpt") {
                waypointCount += 1
                if waypointCount > limits.maxDestinations + limits.maxTasks {
                    fail("the file has more than \(limits.maxDestinations + limits.maxTasks) waypoints, the limit", line: stream.line)
                    return nil
                }
                current = Waypoint(
                    index: waypointCount, line: stream.line, latitude: stream.attribute("lat"),
                    longitude: stream.attribute("lon"))
                return .waypoint
            }
            if stream.localNameIs("metadata") { return .metadata }
            if stream.localNameIs("name") { return startCapture(.title) }
            if stream.localNameIs("email") { return startCapture(.travelerText) }
            if stream.localNameIs("rte") || stream.localNameIs("trk") {
                routeCount += 1
                return .route(isTrack: stream.localNameIs("trk"))
            }
            return nil  // the rest is read past, unopened
        case .metadata:
            guard isGPX else { return nil }
            if stream.localNameIs("name") { return startCapture(.title) }
            if stream.localNameIs("author") { return .author }
            if stream.localNameIs("extensions") { return .metadataExtensions }
            return nil
        case .metadataExtensions:
            if stream.namespaceIs(GPXMapping.namespace), stream.localNameIs("trip"), let travel = stream.attribute("travel") {
                tripTravel = (travel, stream.line)
            }
            return nil
        case .route(let isTrack):
            guard isGPX else { return nil }
            if stream.localNameIs("extensions") { return .routeExtensions }
            // A route or track that is no task's path is read past without looking at its points.
            guard pendingPath != nil else { return nil }
            if isTrack, stream.localNameIs("trkseg") { return .trackSegment }
            if !isTrack, stream.localNameIs("rtept") { addPoint() }
            return nil
        case .routeExtensions:
            if stream.namespaceIs(GPXMapping.namespace), stream.localNameIs("path") {
                pendingPath = PathCollector(
                    label: "route \(routeCount)", line: stream.line,
                    destination: stream.attribute("destination"), task: stream.attribute("task"))
            }
            return nil
        case .trackSegment:
            if isGPXPoint() { addPoint() }
            return nil
        case .author:
            if isGPX, stream.localNameIs("email") {
                if let id = stream.attribute("id"), let domain = stream.attribute("domain") {
                    traveler = ("\(id)@\(domain)", stream.line)
                }
            }
            return nil
        case .waypoint:
            guard isGPX else { return nil }
            if stream.localNameIs("name") { return startCapture(.waypointName) }
            if stream.localNameIs("extensions") { return .waypointExtensions }
            return nil
        case .waypointExtensions:
            guard stream.namespaceIs(GPXMapping.namespace) else { return nil }
            if stream.localNameIs("task") {
                order += 1
                currentTask = TaskElement(line: stream.line, order: order, stream: stream)
                return .task
            }
            if stream.localNameIs("stay") {
                current?.stay = Stay(
                    line: stream.line, id: stream.attribute("id"), arrival: stream.attribute("arrival"),
                    departure: stream.attribute("departure"))
                return nil
            }
            if stream.localNameIs("detour") {
                order += 1
                if let key = stream.attribute("id") { current?.detours.append((key, stream.line, order)) }
                return nil
            }
            diagnostics.append(
                .warning(
                    SourceLocation(path: "wpt \(waypointCount)", line: stream.line),
                    "unknown element dr:\(Quoting.printable(stream.localName)), ignored"))
            return nil
        case .task:
            guard stream.namespaceIs(GPXMapping.namespace) else { return nil }
            if stream.localNameIs("pro") { return startCapture(.pro) }
            if stream.localNameIs("con") { return startCapture(.con) }
            return nil
        case .capture:
            return nil
        }
    }

    /// The root element: `<gpx>` in GPX 1.1's or 1.0's namespace, or in none.
    mutating func enterRoot() -> Frame? {
        let name = stream.localName
        if name == "gpx" {
            if stream.namespaceIs(GPXMapping.gpx11) {
                (rootNamespace, rootIsNamespaced) = (GPXMapping.gpx11, true)
                return .gpx
            }
            if stream.namespaceIs(GPXMapping.gpx10) {
                (rootNamespace, rootIsNamespaced) = (GPXMapping.gpx10, true)
                return .gpx
            }
            if stream.namespaceIs("") { return .gpx }
        }
        fail("this is not a GPX file: its root element is <\(Quoting.printable(name))>, not <gpx>", line: stream.line)
        return nil
    }

    func isGPXPoint() -> Bool {
        (rootIsNamespaced ? stream.namespaceIs(rootNamespace) : stream.namespaceIs("")) && stream.localNameIs("trkpt")
    }

    /// Adds the current `rtept` or `trkpt` to the path being read, checking it like any location.
    mutating func addPoint() {
        guard var path = pendingPath, !path.failed else { return }
        path.count += 1
        if path.count > limits.maxPathPoints {
            diagnostics.append(
                .error(
                    SourceLocation(path: "\(path.label): dr:path", line: path.line),
                    "the path has more than \(limits.maxPathPoints) points, the limit"))
            path.failed = true
            pendingPath = path
            return
        }
        var values: [Double] = []
        let axes: [(name: StaticString, axis: Coordinate.Axis)] = [("lat", .latitude), ("lon", .longitude)]
        for (name, axis) in axes {
            let text = stream.attribute(name) ?? ""
            do {
                values.append(try Coordinate.parse(text, axis: axis))
            } catch {
                diagnostics.append(
                    .error(
                        SourceLocation(path: "\(path.label): point \(path.count) \(name.description)", line: stream.line),
                        Coordinate.message(for: error, text: text, axis: axis)))
                path.failed = true
                break
            }
        }
        if values.count == 2, let point = Coordinate(latitude: values[0], longitude: values[1]) {
            path.points.append(point)
        }
        pendingPath = path
    }

    mutating func startCapture(_ capture: Capture) -> Frame {
        text = ""
        textLine = stream.line
        return .capture(capture)
    }

    /// Called at an element's end (or at once for an empty element).
    mutating func leave(_ frame: Frame) {
        switch frame {
        case .capture(let capture):
            let line = textLine
            switch capture {
            case .title: title = (text, line)
            case .travelerText: traveler = (text, line)
            case .waypointName: current?.name = text
            case .pro: currentTask?.pros.append((text, line))
            case .con: currentTask?.cons.append((text, line))
            }
            text = ""
        case .task:
            if let task = currentTask { current?.tasks.append(task) }
            currentTask = nil
        case .waypoint:
            if var waypoint = current {
                waypoint.settleLabel()
                collect(waypoint)
            }
            current = nil
        case .route:
            if let path = pendingPath { paths.append(path) }
            pendingPath = nil
        case .gpx, .metadata, .metadataExtensions, .author, .waypointExtensions, .routeExtensions, .trackSegment:
            break
        }
    }

    // MARK: - From waypoints to a draft

    /// Turns a finished waypoint into a stay and checked tasks.
    mutating func collect(_ waypoint: Waypoint) {
        if let stay = waypoint.stay {
            let id = stay.id ?? waypoint.name.map { TextRules.foldedForLabel($0) } ?? ""
            stays.append(
                StayEntry(
                    id: id, label: waypoint.label, idLocation: waypoint.at(": dr:stay id", line: stay.line),
                    draft: destination(waypoint, stay: stay),
                    detours: waypoint.detours.map {
                        ($0.key, $0.order, waypoint.at(": dr:detour \(Quoting.quoted($0.key))", line: $0.line))
                    }))
        } else if waypoint.tasks.isEmpty {
            ignoredWaypoints.append(.warning(waypoint.at(""), "neither dr:stay nor dr:task, ignored"))
        }
        for element in waypoint.tasks {
            guard let destinationID = element.destination else {
                diagnostics.append(
                    .error(waypoint.at(": dr:task", line: element.line), "needs a destination attribute naming the id of a dr:stay"))
                continue
            }
            guard let key = element.detour else {
                diagnostics.append(
                    .error(
                        waypoint.at(": dr:task", line: element.line),
                        "needs a detour attribute: tasks with the same detour key are its two sides"))
                continue
            }
            // A task inside its stay's own waypoint has no location of its own.
            let checked = TripValidator.validate(task: task(element, in: waypoint, located: waypoint.stay == nil))
            diagnostics += checked.diagnostics
            tasks.append(
                TaskEntry(
                    destination: destinationID, id: element.id,
                    name: (waypoint.stay == nil ? waypoint.name : element.name).map { TextRules.foldedForLabel($0) },
                    detour: key, order: element.order, side: element.side.flatMap { Int($0) },
                    checked: .checked(checked.task),
                    destinationLocation: waypoint.at(": dr:task destination", line: element.line),
                    detourLocation: waypoint.at(": dr:task detour \(Quoting.quoted(key))", line: element.line)))
        }
    }

    mutating func finish() -> ReadResult {
        guard !stays.isEmpty else {
            // One clear error, not a message for each of another app's waypoints.
            diagnostics = [
                .error(
                    nil,
                    "no waypoint is a detour-report stay: mark each destination's <wpt> with "
                        + "<extensions><dr:stay id=\"…\" arrival=\"YYYY-MM-DD\" departure=\"YYYY-MM-DD\"/></extensions> "
                        + "(xmlns:dr=\"\(GPXMapping.namespace.description)\"), and each task's with <dr:task>")
            ]
            return ReadResult(draft: nil, diagnostics: diagnostics)
        }
        diagnostics += ignoredWaypoints
        var stayIndex: [String: Int] = [:]
        var destinations: [DestinationDraft] = []
        var detourKeys: [[(key: String, order: Int, location: SourceLocation)]] = []
        var detourSides: [[String: [(order: Int, side: Int?, task: TaskSide)]]] = []
        for stay in stays {
            if let previous = stayIndex[stay.id] {
                diagnostics.append(
                    .error(stay.idLocation, "stay id \(Quoting.quoted(stay.id)) is already used by \(stays[previous].label)"))
                continue
            }
            stayIndex[stay.id] = destinations.count
            destinations.append(stay.draft)
            detourKeys.append(stay.detours)
            detourSides.append([:])
        }
        stays = []
        for entry in tasks where stayIndex[entry.destination] == nil {
            diagnostics.append(
                .error(entry.destinationLocation, "\(Quoting.quoted(entry.destination)) is not the id of any dr:stay"))
        }
        attachPaths(stayIndex: stayIndex, origins: destinations.map { $0.coordinate.value.flatMap(Coordinate.parseDraft) })
        for entry in tasks {
            guard let index = stayIndex[entry.destination] else {
                continue
            }
            if !detourKeys[index].contains(where: { $0.key == entry.detour }) {
                detourKeys[index].append((entry.detour, entry.order, entry.detourLocation))
            }
            detourSides[index][entry.detour, default: []].append((entry.order, entry.side, entry.checked))
        }
        tasks = []
        for index in destinations.indices {
            let keys = detourKeys[index].sorted { $0.order < $1.order }
            destinations[index].detours = keys.map { key in
                DetourDraft(location: key.location, sides: GPXTripBuilder.inSideOrder(detourSides[index][key.key] ?? []))
            }
        }
        let titleField: Field<String> =
            title.map { .present($0.text, SourceLocation(path: "metadata name", line: $0.line)) }
            ?? .missing(SourceLocation(path: "metadata name", line: 1))
        let travelerField: Field<String> =
            traveler.map { .present($0.text, SourceLocation(path: "metadata author email", line: $0.line)) }
            ?? .missing(SourceLocation(path: "metadata author email"))
        let travelField: Field<String> =
            tripTravel.map { .present($0.text, SourceLocation(path: "metadata dr:trip travel", line: $0.line)) }
            ?? .missing(SourceLocation(path: "metadata dr:trip travel"))
        let draft = TripDraft(
            location: SourceLocation(path: "gpx", line: 1), title: titleField, traveler: travelerField,
            destinations: destinations, travel: travelField)
        return ReadResult(draft: draft, diagnostics: diagnostics)
    }

    /// Gives each `dr:path` route to the task it names (by `id`, else by name) within its stay.
    mutating func attachPaths(stayIndex: [String: Int], origins: [Coordinate?]) {
        for path in paths where !path.failed {
            let here = SourceLocation(path: "\(path.label): dr:path", line: path.line)
            guard let destination = path.destination, let taskName = path.task else {
                diagnostics.append(.error(here, "needs destination and task attributes naming a stay and one of its tasks"))
                continue
            }
            guard let stay = stayIndex[destination] else {
                diagnostics.append(.error(here, "destination \(Quoting.quoted(destination)) is not the id of any dr:stay"))
                continue
            }
            var matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].id == taskName }
            if matches.isEmpty {
                matches = tasks.indices.filter { tasks[$0].destination == destination && tasks[$0].name == taskName }
            }
            guard matches.count == 1, let match = matches.first else {
                diagnostics.append(
                    .error(
                        here,
                        matches.isEmpty
                            ? "task \(Quoting.quoted(taskName)) is not a task of \(Quoting.quoted(destination))"
                            : "task \(Quoting.quoted(taskName)) names \(matches.count) tasks; give the dr:task an id attribute"))
                continue
            }
            guard path.points.count >= 2 else {
                diagnostics.append(.error(here, "a path needs at least two points, this one has \(path.points.count)"))
                continue
            }
            guard case .checked(let checked) = tasks[match].checked, var task = checked else { continue }
            let route = RoutePath(points: path.points)
            task.path = route
            tasks[match].checked = .checked(task)
            if let origin = origins[stay] {
                for message in Travel.pathWarnings(route, from: origin, to: task.location) {
                    diagnostics.append(.warning(here, message))
                }
            }
        }
        paths = []
    }

    /// A detour's tasks in document order, or by their `side` attributes when every one has one.
    static func inSideOrder(_ tasks: [(order: Int, side: Int?, task: TaskSide)]) -> [TaskSide] {
        guard !tasks.isEmpty, tasks.allSatisfy({ $0.side != nil }) else { return tasks.map(\.task) }
        return tasks.sorted { ($0.side ?? 0, $0.order) < ($1.side ?? 0, $1.order) }.map(\.task)
    }

    func coordinate(_ waypoint: Waypoint) -> Field<CoordinateDraft> {
        func axis(_ field: String, _ value: String?) -> Field<String> {
            let location = waypoint.at(field)
            return value.map { .present($0, location) } ?? .missing(location)
        }
        return .present(
            CoordinateDraft(latitude: axis(": lat", waypoint.latitude), longitude: axis(": lon", waypoint.longitude)),
            waypoint.at(""))
    }

    func destination(_ waypoint: Waypoint, stay: Stay) -> DestinationDraft {
        func attribute(_ field: String, _ value: String?) -> Field<String> {
            let location = waypoint.at(field, line: stay.line)
            return value.map { .present($0, location) } ?? .missing(location)
        }
        let nameLocation = waypoint.at(": name")
        return DestinationDraft(
            location: waypoint.at(""),
            name: waypoint.name.map { .present($0, nameLocation) } ?? .missing(nameLocation),
            coordinate: coordinate(waypoint),
            arrival: attribute(": dr:stay arrival", stay.arrival),
            departure: attribute(": dr:stay departure", stay.departure),
            detours: [])
    }

    func task(_ element: TaskElement, in waypoint: Waypoint, located: Bool) -> TaskDraft {
        func attribute(_ field: String, _ value: String?) -> Field<String> {
            let location = waypoint.at(field, line: element.line)
            return value.map { .present($0, location) } ?? .missing(location)
        }
        // A located task is named by its waypoint; one inside its stay's waypoint by `name=`.
        let taskName = located ? waypoint.name : element.name
        let nameLocation = waypoint.at(located ? ": name" : ": dr:task name", line: element.line)
        let cost = MoneyDraft(
            amount: attribute(": dr:task cost", element.cost), currency: attribute(": dr:task currency", element.currency))
        return TaskDraft(
            location: waypoint.at(": dr:task", line: element.line),
            name: taskName.map { .present($0, nameLocation) } ?? .missing(nameLocation),
            duration: attribute(": dr:task duration", element.duration),
            cost: .present(cost, waypoint.at(": dr:task", line: element.line)),
            coordinate: located ? coordinate(waypoint) : .missing(waypoint.at(": dr:task location", line: element.line)),
            pros: element.pros.enumerated().map { .present($1.text, waypoint.at(": dr:pro \($0 + 1)", line: $1.line)) },
            cons: element.cons.enumerated().map { .present($1.text, waypoint.at(": dr:con \($0 + 1)", line: $1.line)) },
            travel: attribute(": dr:task travel", element.travel))
    }
}
