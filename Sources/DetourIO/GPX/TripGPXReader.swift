import DetourCore

/// Reads a trip from GPX 1.1 or 1.0 in the detour-report mapping (see ``GPXMapping``).
///
/// Like the JSON reader, it maps the document's *shape* into a ``TripDraft``: values as written,
/// each with its line and the element that holds it. It judges nothing about the values; every
/// rule and limit on a trip is ``TripValidator``'s, the same as for JSON. What stays here is what
/// only XML and the mapping can get wrong: well-formedness, encoding, DOCTYPE, namespaces,
/// nesting, attribute counts, which element stands where, unknown `dr:` elements and attributes,
/// and how tasks, stays and paths refer to each other.
///
/// Streaming: the reader pulls one node at a time and skips routes and tracks that are no task's
/// path without looking inside, so memory stays flat whatever the file's size. Safe: see
/// ``XMLStream``.
public enum TripGPXReader {
    /// How many bytes are looked at before parsing, to settle the encoding.
    static let prefixLength = 4096

    /// Reads a trip from `source`; `name` is used in libxml2's own messages only.
    public static func read(_ source: some ByteSource, name: String = "trip.gpx", limits: ReadLimits = .standard)
        -> ReadResult
    {
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
            return .failed(Diagnostic(.readFailed, "cannot read the trip: \(error)"))
        }
        prefix.removeLast(prefixLength - filled)
        if prefix.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return .failed(Diagnostic(.emptyFile, "the file is empty: a GPX trip needs a <gpx> element with waypoints"))
        }
        if let problem = TextEncoding.compressionProblem(prefix) {
            return .failed(Diagnostic(.compressedFile, problem))
        }
        if let problem = XMLEncoding.problem(prefix) {
            return .failed(Diagnostic(.unsupportedEncoding, problem))
        }
        guard
            let stream = XMLStream(
                source: source, prefix: prefix, name: name, maxBytes: limits.maxGPXBytes,
                maxAttributes: limits.maxAttributes)
        else {
            return .failed(Diagnostic(.readFailed, "cannot start the XML reader"))
        }
        var builder = GPXTripBuilder(stream: stream, limits: limits)
        return builder.run()
    }
}

/// The streaming state machine: XML nodes in, a ``TripDraft`` out.
struct GPXTripBuilder {
    typealias G = GPXMapping.GPX
    typealias E = GPXMapping.Element
    typealias A = GPXMapping.Attribute

    let stream: XMLStream
    let limits: ReadLimits
    var diagnostics: [Diagnostic] = []
    var stack: [Frame] = []
    var text = ""
    var textLine = 0
    var rootNamespace: StaticString = ""
    var rootIsNamespaced = false
    var rootLine = 1
    var title: Written?
    var traveler: Written?
    var tripTravel: Written?
    var tripCurrency: Written?
    var tripDayHours: Written?
    var tripBudget: BudgetElement?
    var tripLine = 1
    var rates: [(currency: String?, value: String?, line: Int)] = []
    /// Whether the metadata has a `dr:trip`: then the file is a trip even with no stay.
    var isTrip = false
    var current: Waypoint?
    var currentTask: TaskElement?
    // Each waypoint becomes its pieces as soon as it ends: nothing else of it is kept.
    var stays: [StayEntry] = []
    var tasks: [TaskEntry] = []
    var plainWaypoints = 0
    var firstPlainWaypointLine = 0
    var routeCount = 0
    var trackCount = 0
    var pendingPath: PathCollector?
    var paths: [PathCollector] = []
    var keptPoints = 0
    var waypointCount = 0
    var order = 0
    var stopped = false

    init(stream: XMLStream, limits: ReadLimits) {
        self.stream = stream
        self.limits = limits
    }

    mutating func fail(_ code: DiagnosticCode, _ message: String, line: Int?) {
        diagnostics.append(Diagnostic(code, at: line.map { SourcePosition(line: $0) }, message))
        stopped = true
    }

    /// Reports a problem inside the current waypoint (named once it ends), or at the top level.
    mutating func report(_ code: DiagnosticCode, _ message: String, line: Int) {
        let diagnostic = Diagnostic(code, at: SourcePosition(line: line), message)
        if current != nil {
            current?.pending.append(diagnostic)
        } else {
            diagnostics.append(diagnostic)
        }
    }

    mutating func run() -> ReadResult {
        var status = stream.read()
        while status == 1, !stopped {
            var skip = false
            switch stream.nodeType {
            case .documentType:
                // No line: libxml2 has read the whole internal subset by now, so its line is past it.
                fail(
                    .xmlDoctype,
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
                // A text past the limit is kept just past it: the validator reports it by its field.
                if case .capture = stack.last, text.utf8.count <= limits.trip.maxTextBytes {
                    text += stream.value
                }
            case nil:
                break
            }
            guard !stopped else { break }
            status = skip ? stream.next() : stream.read()
        }
        if stopped { return ReadResult(draft: nil, diagnostics: diagnostics) }
        if status < 0 { return .failed(readFailure()) }
        return finish()
    }

    /// Why the stream stopped with an error: a limit, the source, or libxml2's first complaint.
    func readFailure() -> Diagnostic {
        if let line = stream.attributeOverflowLine {
            return Diagnostic(
                .xmlTooManyAttributes, at: SourcePosition(line: line),
                "an element has more than \(limits.maxAttributes) attributes; no GPX element needs that many")
        }
        if stream.exceededLimit {
            return ReadLimits.tooLarge("GPX", limit: limits.maxGPXBytes)
        }
        if let failure = stream.sourceFailure {
            return Diagnostic(.readFailed, "cannot read the trip: \(failure)")
        }
        let problem = stream.problems.first
        let position = problem.map { SourcePosition(line: $0.line, column: $0.column > 0 ? $0.column : nil) }
        let message = problem?.message ?? "the XML is not well-formed"
        if message.contains("Excessive depth") || message.contains("depth") && message.contains("HUGE") {
            return Diagnostic(
                .xmlTooDeep, at: position, "XML: the elements are nested too deeply (more than 256 levels)")
        }
        if message.hasPrefix("Input is not proper UTF-8") {
            return Diagnostic(
                .invalidUTF8, at: position,
                "the file is not valid UTF-8 where it says it is; save it as UTF-8, or declare its encoding")
        }
        if message.contains("Detected an entity reference loop") {
            return Diagnostic(.xmlSyntax, at: position, "XML: entities refer to each other in a loop")
        }
        return Diagnostic(.xmlSyntax, at: position, "XML: \(Quoting.printable(message))")
    }

    var inGPX: Bool { rootIsNamespaced ? stream.namespaceIs(rootNamespace) : stream.namespaceIs("") }
    var inMapping: Bool { stream.namespaceIs(GPXMapping.namespace) }

    /// The frame for the element the stream is on, or `nil` to skip its subtree.
    mutating func enter() -> Frame? {
        guard let parent = stack.last else { return enterRoot() }
        // Names are compared in libxml2's own buffers: no String is made for an element we skip.
        switch parent {
        case .gpx:
            guard inGPX else { return nil }
            if stream.localNameIs(G.waypoint) {
                waypointCount += 1
                current = Waypoint(
                    index: waypointCount, line: stream.line,
                    latitude: stream.tokenAttribute(GPXMapping.GPXAttribute.latitude),
                    longitude: stream.tokenAttribute(GPXMapping.GPXAttribute.longitude))
                return .waypoint
            }
            if stream.localNameIs(G.metadata) { return .metadata }
            // GPX 1.0 keeps the title and the author's email at the top level.
            if stream.localNameIs(G.name) { return startCapture(.title) }
            if stream.localNameIs(G.email) { return startCapture(.travelerText) }
            if stream.localNameIs(G.route) {
                routeCount += 1
                return .route(isTrack: false)
            }
            if stream.localNameIs(G.track) {
                trackCount += 1
                return .route(isTrack: true)
            }
            return nil  // the rest is read past, unopened
        case .metadata:
            guard inGPX else { return nil }
            if stream.localNameIs(G.name) { return startCapture(.title) }
            if stream.localNameIs(G.author) { return .author }
            if stream.localNameIs(G.extensions) { return .metadataExtensions }
            return nil
        case .metadataExtensions:
            guard inMapping else { return nil }
            if stream.localNameIs(E.trip) {
                isTrip = true
                checkAttributes(of: E.trip)
                let line = stream.line
                tripTravel = stream.tokenAttribute(A.travel).map { Written(text: $0, line: line) }
                tripCurrency = stream.tokenAttribute(A.currency).map { Written(text: $0, line: line) }
                tripDayHours = stream.tokenAttribute(A.dayHours).map { Written(text: $0, line: line) }
                tripLine = line
                return .trip
            }
            unknownElement(where: "metadata extensions")
            return nil
        case .trip:
            guard inMapping else { return nil }
            if stream.localNameIs(E.rate) {
                checkAttributes(of: E.rate)
                rates.append((stream.tokenAttribute(A.currency), stream.tokenAttribute(A.value), stream.line))
            } else if stream.localNameIs(E.budget) {
                checkAttributes(of: E.budget)
                if tripBudget != nil {
                    report(.gpxDuplicateElement, "dr:trip holds one dr:budget, and this is a second", line: stream.line)
                } else {
                    tripBudget = budgetElement()
                }
            } else {
                unknownElement(where: "dr:trip")
            }
            return nil
        case .stay:
            guard inMapping else { return nil }
            if stream.localNameIs(E.budget) {
                checkAttributes(of: E.budget)
                if current?.stay?.budget != nil {
                    report(.gpxDuplicateElement, "dr:stay holds one dr:budget, and this is a second", line: stream.line)
                } else {
                    let budget = budgetElement()
                    current?.stay?.budget = budget
                }
            } else {
                unknownElement(where: "dr:stay")
            }
            return nil
        case .route(let isTrack):
            guard inGPX else { return nil }
            if stream.localNameIs(G.extensions) { return .routeExtensions(isTrack: isTrack) }
            // A route or track that is no task's path is read past without looking at its points.
            guard pendingPath != nil else { return nil }
            if isTrack, stream.localNameIs(G.trackSegment) { return .trackSegment }
            if !isTrack, stream.localNameIs(G.routePoint) { addPoint() }
            return nil
        case .routeExtensions(let isTrack):
            guard inMapping else { return nil }
            if stream.localNameIs(E.path) {
                checkAttributes(of: E.path)
                let label = isTrack ? "trk \(trackCount)" : "rte \(routeCount)"
                if pendingPath != nil {
                    report(
                        .gpxTwoPaths, "\(label) has two dr:path elements; a route or track is the path of one task",
                        line: stream.line)
                } else {
                    pendingPath = PathCollector(
                        label: label, line: stream.line, destination: stream.tokenAttribute(A.destination),
                        task: stream.tokenAttribute(A.task))
                }
            } else {
                unknownElement(where: "route extensions")
            }
            return nil
        case .trackSegment:
            if inGPX, stream.localNameIs(G.trackPoint) { addPoint() }
            return nil
        case .author:
            if inGPX, stream.localNameIs(G.email) {
                let id = stream.attribute(GPXMapping.GPXAttribute.emailID)
                let domain = stream.attribute(GPXMapping.GPXAttribute.emailDomain)
                if id != nil || domain != nil {
                    traveler = Written(text: "\(id ?? "")@\(domain ?? "")", line: stream.line)
                }
            }
            return nil
        case .waypoint:
            guard inGPX else { return nil }
            if stream.localNameIs(G.name) { return startCapture(.waypointName) }
            if stream.localNameIs(G.extensions) { return .waypointExtensions }
            return nil
        case .waypointExtensions:
            guard inMapping else { return nil }
            if stream.localNameIs(E.task) {
                checkAttributes(of: E.task)
                order += 1
                currentTask = TaskElement(line: stream.line, order: order, stream: stream)
                return .task
            }
            if stream.localNameIs(E.stay) {
                checkAttributes(of: E.stay)
                if current?.stay != nil {
                    report(.gpxTwoStays, "a waypoint is one stay, but this one has a second dr:stay", line: stream.line)
                    return nil
                }
                current?.stay = Stay(
                    line: stream.line, id: stream.tokenAttribute(A.id), arrival: stream.tokenAttribute(A.arrival),
                    departure: stream.tokenAttribute(A.departure), dayHours: stream.tokenAttribute(A.dayHours))
                return .stay
            }
            if stream.localNameIs(E.detour) {
                checkAttributes(of: E.detour)
                order += 1
                if let key = stream.tokenAttribute(A.id) {
                    current?.detours.append((key, stream.line, order))
                } else {
                    report(
                        .gpxMissingAttribute, "dr:detour needs an id attribute: the detour key its tasks name",
                        line: stream.line)
                }
                return nil
            }
            unknownElement(where: "a waypoint's extensions")
            return nil
        case .task:
            guard inMapping else { return nil }
            if stream.localNameIs(E.pro) {
                checkAttributes(of: E.pro)
                return startCapture(.pro)
            }
            if stream.localNameIs(E.con) {
                checkAttributes(of: E.con)
                return startCapture(.con)
            }
            unknownElement(where: "dr:task")
            return nil
        case .capture(let capture):
            report(
                .gpxElementInText,
                "<\(Quoting.printable(stream.localName))> inside <\(capture.elementName)>: it takes text only, so its text would be lost",
                line: stream.line)
            return nil
        }
    }

    /// The `dr:budget` element the stream is on.
    func budgetElement() -> BudgetElement {
        BudgetElement(
            amount: stream.tokenAttribute(A.amount), currency: stream.tokenAttribute(A.currency), line: stream.line)
    }

    /// Warns about a `dr:` element the mapping does not have here.
    mutating func unknownElement(where place: String) {
        report(
            .unknownElement, "unknown element dr:\(Quoting.printable(stream.localName)) in \(place), ignored",
            line: stream.line)
    }

    /// Warns about each attribute the mapping element `name` does not have.
    mutating func checkAttributes(of name: StaticString) {
        let known = GPXMapping.knownAttributes[name.description] ?? []
        var unknown: [String] = []
        stream.forEachAttribute(in: GPXMapping.namespace) { attribute, namespaced in
            if namespaced || !known.contains(where: { $0.description == attribute }) {
                unknown.append((namespaced ? "dr:" : "") + attribute)
            }
        }
        for attribute in unknown {
            report(
                .unknownAttribute, "unknown attribute \(Quoting.quoted(attribute)) on dr:\(name), ignored",
                line: stream.line)
        }
    }

    /// The root element: `<gpx>` in GPX 1.1's or 1.0's namespace, or in none.
    mutating func enterRoot() -> Frame? {
        rootLine = stream.line
        let name = stream.localName
        if name == G.root.description {
            if stream.namespaceIs(GPXMapping.gpx11) {
                (rootNamespace, rootIsNamespaced) = (GPXMapping.gpx11, true)
                return .gpx
            }
            if stream.namespaceIs(GPXMapping.gpx10) {
                (rootNamespace, rootIsNamespaced) = (GPXMapping.gpx10, true)
                return .gpx
            }
            if stream.namespaceIs("") { return .gpx }
            fail(
                .notGPX,
                "this is not a GPX file: its root <gpx> is in the namespace \(Quoting.quoted(stream.namespaceURI)), "
                    + "not GPX 1.1's \(Quoting.quoted(GPXMapping.gpx11.description)) or 1.0's \(Quoting.quoted(GPXMapping.gpx10.description))",
                line: stream.line)
            return nil
        }
        fail(
            .notGPX, "this is not a GPX file: its root element is <\(Quoting.printable(name))>, not <gpx>",
            line: stream.line)
        return nil
    }

    /// Adds the current `rtept` or `trkpt` to the path being read, as written.
    mutating func addPoint() {
        guard pendingPath != nil else { return }
        pendingPath?.count += 1
        // Past the trip's limit only the count goes on: the validator refuses the trip by it.
        guard keptPoints <= limits.trip.maxPathPoints else { return }
        keptPoints += 1
        let line = stream.line
        let label = pendingPath?.label ?? ""
        let at = SourcePosition(line: line, element: label)
        func axis(_ name: StaticString) -> Field<String> {
            stream.tokenAttribute(name).map { .present($0, at) } ?? .missing(at)
        }
        // Appended in place: the collector is never copied, so a long path is read in linear time.
        pendingPath?.points.append(
            CoordinateDraft(
                latitude: axis(GPXMapping.GPXAttribute.latitude), longitude: axis(GPXMapping.GPXAttribute.longitude)))
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
            let written = Written(text: text, line: textLine)
            switch capture {
            case .title: title = written
            case .travelerText: traveler = written
            case .waypointName: current?.name = written
            case .pro: currentTask?.pros.append(written)
            case .con: currentTask?.cons.append(written)
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
        case .gpx, .metadata, .metadataExtensions, .trip, .stay, .author, .waypointExtensions, .routeExtensions,
            .trackSegment:
            break
        }
    }
}

// What the reader collects while it streams, before the trip is assembled.
extension GPXTripBuilder {
    /// A value as an attribute or element held it, with its line.
    struct Written {
        var text: String
        var line: Int
    }

    /// What was found in one `<wpt>`.
    struct Waypoint {
        var index: Int
        var line: Int
        var latitude: String?
        var longitude: String?
        var name: Written?
        var stay: Stay?
        var tasks: [TaskElement] = []
        var detours: [(key: String, line: Int, order: Int)] = []
        /// Problems found inside it, reported once its label is known.
        var pending: [Diagnostic] = []
        /// `wpt 2 "Ride Tram 28"`: how messages name this waypoint; set when the waypoint ends.
        var label = ""

        mutating func settleLabel() {
            label = name.map { "wpt \(index) \(Quoting.quoted(TextRules.foldedForLabel($0.text)))" } ?? "wpt \(index)"
        }

        /// The position of something on `line` of this waypoint (its start tag's by default).
        func at(_ line: Int? = nil) -> SourcePosition {
            SourcePosition(line: line ?? self.line, element: label)
        }

        /// A field from an optional value: present where it was written, else missing at `line`.
        func field(_ value: String?, line: Int) -> Field<String> {
            value.map { .present($0, at(line)) } ?? .missing(at(line))
        }
    }

    /// One `<dr:stay>` element's attributes and its budget.
    struct Stay {
        var line: Int
        var id: String?
        var arrival: String?
        var departure: String?
        var dayHours: String?
        var budget: BudgetElement?
    }

    /// One `<dr:budget amount= currency=/>`.
    struct BudgetElement {
        var amount: String?
        var currency: String?
        var line: Int

        /// The budget as a money draft, at `position` (which names the element holding it).
        func draft(_ position: SourcePosition) -> Field<MoneyDraft> {
            func field(_ value: String?) -> Field<String> { value.map { .present($0, position) } ?? .missing(position) }
            return .present(MoneyDraft(amount: field(amount), currency: field(currency)), position)
        }
    }

    /// One `<dr:task>` element.
    struct TaskElement {
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
        var pros: [Written] = []
        var cons: [Written] = []

        init(line: Int, order: Int, stream: XMLStream) {
            typealias A = GPXMapping.Attribute
            self.line = line
            self.order = order
            name = stream.attribute(A.name)
            destination = stream.tokenAttribute(A.destination)
            detour = stream.tokenAttribute(A.detour)
            side = stream.tokenAttribute(A.side)
            id = stream.tokenAttribute(A.id)
            travel = stream.tokenAttribute(A.travel)
            duration = stream.tokenAttribute(A.duration)
            cost = stream.tokenAttribute(A.cost)
            currency = stream.tokenAttribute(A.currency)
        }
    }

    /// A stay, ready to become a destination once every waypoint is read.
    struct StayEntry {
        var id: String
        var label: String
        var position: SourcePosition
        var draft: DestinationDraft
        var detours: [(key: String, order: Int, position: SourcePosition)]
    }

    /// A task, waiting for its stay and detour to be settled.
    struct TaskEntry {
        var destination: String
        var id: String?
        var name: String?
        var detour: String
        var order: Int
        var side: Int?
        var draft: TaskDraft
        var position: SourcePosition
    }

    /// A route or track that is a task's path, read point by point.
    struct PathCollector {
        var label: String
        var line: Int
        var destination: String?
        var task: String?
        var points: [CoordinateDraft] = []
        var count = 0

        var position: SourcePosition { SourcePosition(line: line, element: label) }
    }

    /// What the parser is inside of.
    enum Frame {
        case gpx
        case metadata
        case metadataExtensions
        case trip
        case stay
        case route(isTrack: Bool)
        case routeExtensions(isTrack: Bool)
        case trackSegment
        case author
        case waypoint
        case waypointExtensions
        case task
        case capture(Capture)
    }

    /// Text the parser is collecting, and where it goes.
    enum Capture {
        case title
        case travelerText
        case waypointName
        case pro
        case con

        /// How messages name the element.
        var elementName: String {
            switch self {
            case .title, .waypointName: return "name"
            case .travelerText: return "email"
            case .pro: return "dr:pro"
            case .con: return "dr:con"
            }
        }
    }
}
