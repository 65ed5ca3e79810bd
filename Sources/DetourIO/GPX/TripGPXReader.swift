import DetourCore

/// Reads a trip from GPX 1.1 or 1.0 in the detour-report mapping (see ``GPXMapping``).
///
/// Like the JSON reader, it maps the document's *shape* into a ``TripDraft``: values as written,
/// each with its line and the element that holds it. It judges nothing about the values; every
/// rule and limit on a trip is ``TripValidator``'s, the same as for JSON. What stays here is what
/// only XML and the mapping can get wrong: well-formedness, encoding, DOCTYPE, namespaces, which
/// element stands where, and unknown `dr:` elements and attributes; how stays, detours, tasks
/// and paths name each other is ``GPXReferences``'.
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
        switch open(source, name: name, limits: limits) {
        case .failure(let diagnostic): return .failed(diagnostic)
        case .success(let stream):
            var reading = GPXReading(stream: stream, limits: limits)
            return reading.run()
        }
    }

    /// The XML stream of the GPX in `source`, its encoding settled from the first bytes, or why
    /// there is none (compressed, an encoding libxml2 would misread, unreadable).
    static func open(_ source: some ByteSource, name: String, limits: ReadLimits) -> Result<XMLStream, Diagnostic> {
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
            return .failure(Diagnostic(.readFailed, "cannot read the trip: \(error)"))
        }
        prefix.removeLast(prefixLength - filled)
        if let problem = FileChecks.problem(startingWith: prefix, format: .gpx) { return .failure(problem) }
        guard let stream = XMLStream(source: source, prefix: prefix, name: name, limits: limits) else {
            return .failure(Diagnostic(.readFailed, "cannot start the XML reader"))
        }
        return .success(stream)
    }
}

struct GPXReading {
    typealias G = GPXMapping.GPX
    typealias E = GPXMapping.Element
    typealias A = GPXMapping.Attribute

    /// What the reader is inside of.
    enum Frame {
        case gpx, metadata, metadataExtensions, trip, author, stay, waypoint, waypointExtensions, task, trackSegment
        case route(isTrack: Bool)
        case routeExtensions(isTrack: Bool)
        /// Text to collect, for the element named, into the list at `into`.
        case text(element: String, into: WritableKeyPath<GPXReading, [Field<String>]>)
    }

    /// A mapping element's attributes as written (those it has, in no namespace), and its line.
    struct Element {
        var line: Int
        /// Its place among the mapping's elements, in document order: detours are in the order
        /// their keys first appear.
        var order: Int
        /// Name and value pairs: an element has a handful, so a list is searched faster than a
        /// dictionary is built.
        var values: [(name: String, value: String)] = []
        var pros: [Field<String>] = []
        var cons: [Field<String>] = []

        subscript(_ name: A) -> String? { values.first { $0.name == name.rawValue }?.value }
    }

    /// What was found in one `<wpt>`, until it ends and its label is known.
    struct Waypoint {
        var index: Int
        var line: Int
        var latitude: String?
        var longitude: String?
        var stay: Element?
        var stayBudget: Element?
        var tasks: [Element] = []
        /// The detours its stay declares ahead: each one's key, place among the elements and line.
        var detours: [(key: String, order: Int, line: Int)] = []
    }

    let stream: XMLStream
    let limits: ReadLimits
    var diagnostics: [Diagnostic] = []
    var stack: [Frame] = []
    var text = ""
    var textLine = 0
    var rootNamespace: StaticString = ""
    var rootLine = 1
    var titles: [Field<String>] = []
    var travelers: [Field<String>] = []
    /// The names in `<author>`, which go with the address as `NAME <ADDRESS>`.
    var authorNames: [Field<String>] = []
    var names: [Field<String>] = []
    var pros: [Field<String>] = []
    var cons: [Field<String>] = []
    var trip: Element?
    var tripBudget: Element?
    var rates: [Element] = []
    var waypoint: Waypoint?
    var task: Element?
    var path: GPXReferences.Path?
    var references = GPXReferences()
    var plainWaypoints = 0
    var firstPlainWaypointLine = 0
    var counts = (waypoints: 0, routes: 0, tracks: 0, points: 0, elements: 0)
    var stopped = false
    /// The current waypoint's label, once made: its pros, cons and fields all share it.
    var cachedLabel: String?

    init(stream: XMLStream, limits: ReadLimits) {
        self.stream = stream
        self.limits = limits
    }

    mutating func run() -> ReadResult {
        var status = stream.read()
        while status == 1, !stopped {
            var skip = false
            switch stream.nodeType {
            case .documentType:
                // No line: libxml2 has read the whole internal subset by now, so its line is past it.
                return .failed(
                    Diagnostic(
                        .xmlDoctype,
                        "a DOCTYPE is not allowed in a GPX trip (it could load files or expand entities); remove the <!DOCTYPE …> line"
                    ))
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
                if case .text = stack.last, text.utf8.count <= limits.trip.maxTextBytes { text += stream.value }
            case nil:
                break
            }
            status = skip ? stream.next() : stream.read()
        }
        if stopped { return ReadResult(draft: nil, diagnostics: diagnostics) }
        return status < 0 ? .failed(readFailure()) : finish()
    }

    /// Why the stream stopped with an error.
    func readFailure() -> Diagnostic { stream.failure(limits) }

    var inGPX: Bool { stream.namespaceIs(rootNamespace) }
    var inMapping: Bool { stream.namespaceIs(GPXMapping.namespace) }

    /// The frame for the element the stream is on, or `nil` to read past its subtree.
    mutating func enter() -> Frame? {
        guard let parent = stack.last else { return enterRoot() }
        func `is`(_ name: some RawRepresentable<String>) -> Bool { stream.localNameIs(name) }
        switch parent {
        case .gpx:
            guard inGPX else { return nil }
            if `is`(G.wpt) {
                counts.waypoints += 1
                waypoint = Waypoint(
                    index: counts.waypoints, line: stream.line, latitude: stream.attribute(GPXMapping.GPXAttribute.lat),
                    longitude: stream.attribute(GPXMapping.GPXAttribute.lon))
                (names, cachedLabel) = ([], nil)
                return .waypoint
            }
            if `is`(G.metadata) { return .metadata }
            // GPX 1.0 keeps the title and the author's email at the top level.
            if `is`(G.name) { return capture("name", into: \.titles) }
            if `is`(G.email) { return capture("email", into: \.travelers) }
            guard `is`(G.rte) || `is`(G.trk) else { return nil }  // the rest is read past, unopened
            let isTrack = `is`(G.trk)
            if isTrack { counts.tracks += 1 } else { counts.routes += 1 }
            return .route(isTrack: isTrack)
        case .metadata:
            guard inGPX else { return nil }
            if `is`(G.name) { return capture("name", into: \.titles) }
            if `is`(G.author) { return .author }
            return `is`(G.extensions) ? .metadataExtensions : nil
        case .author:
            if inGPX, `is`(G.name) { return capture("name", into: \.authorNames) }
            let id = stream.attribute(GPXMapping.GPXAttribute.id)
            let domain = stream.attribute(GPXMapping.GPXAttribute.domain)
            if inGPX, `is`(G.email), id != nil || domain != nil {
                travelers.append(.present("\(id ?? "")@\(domain ?? "")", SourcePosition(line: stream.line)))
            }
            return nil
        case .metadataExtensions:
            guard inMapping else { return nil }
            guard `is`(E.trip) else { return unknown(in: "metadata extensions", allowed: [.trip]) }
            trip = element(.trip)
            return .trip
        case .trip:
            guard inMapping else { return nil }
            if `is`(E.rate) {
                rates.append(element(.rate))
            } else if `is`(E.budget) {
                tripBudget = budget(tripBudget, in: "dr:trip")
            } else {
                return unknown(in: "dr:trip", allowed: [.rate, .budget])
            }
            return nil
        case .waypoint:
            guard inGPX else { return nil }
            if `is`(G.name) { return capture("name", into: \.names) }
            return `is`(G.extensions) ? .waypointExtensions : nil
        case .waypointExtensions:
            guard inMapping else { return nil }
            if `is`(E.task) {
                (task, pros, cons) = (element(.task), [], [])
                return .task
            }
            if `is`(E.stay) {
                let stay = element(.stay)
                guard waypoint?.stay == nil else {
                    report(.gpxTwoStays, "a waypoint is one stay, but this one has a second dr:stay", line: stay.line)
                    return nil
                }
                waypoint?.stay = stay
                return .stay
            }
            guard `is`(E.detour) else {
                return unknown(in: "a waypoint's extensions", allowed: [.stay, .task, .detour])
            }
            let detour = element(.detour)
            guard let key = detour[.id] else {
                report(
                    .gpxMissingAttribute, "dr:detour needs an id attribute: the detour key its tasks name",
                    line: detour.line)
                return nil
            }
            waypoint?.detours.append((key, detour.order, detour.line))
            return nil
        case .stay:
            guard inMapping else { return nil }
            guard `is`(E.budget) else { return unknown(in: "dr:stay", allowed: [.budget]) }
            let budget = budget(waypoint?.stayBudget, in: "dr:stay")
            waypoint?.stayBudget = budget
            return nil
        case .task:
            guard inMapping else { return nil }
            guard `is`(E.pro) || `is`(E.con) else { return unknown(in: "dr:task", allowed: [.pro, .con]) }
            let isPro = `is`(E.pro)
            _ = element(isPro ? .pro : .con)
            return capture(isPro ? "dr:pro" : "dr:con", into: isPro ? \.pros : \.cons)
        case .route(let isTrack):
            guard inGPX else { return nil }
            if `is`(G.extensions) { return .routeExtensions(isTrack: isTrack) }
            // A route or track that is no task's path is read past without looking at its points.
            guard path != nil else { return nil }
            if isTrack, `is`(G.trkseg) { return .trackSegment }
            if !isTrack, `is`(G.rtept) { addPoint() }
            return nil
        case .routeExtensions(let isTrack):
            guard inMapping else { return nil }
            guard `is`(E.path) else { return unknown(in: "route extensions", allowed: [.path]) }
            let element = element(.path)
            let label = isTrack ? "trk \(counts.tracks)" : "rte \(counts.routes)"
            guard path == nil else {
                report(
                    .gpxTwoPaths, "\(label) has two dr:path elements; a route or track is the path of one task",
                    line: element.line)
                return nil
            }
            path = GPXReferences.Path(
                label: label, line: element.line, destination: element[.destination], task: element[.task])
            return nil
        case .trackSegment:
            if inGPX, `is`(G.trkpt) { addPoint() }
            return nil
        case .text(let element, _):
            report(
                .gpxElementInText,
                "<\(Quoting.printable(stream.localName))> inside <\(element)>: it takes text only, so its text would be lost",
                line: stream.line)
            return nil
        }
    }

    /// The mapping element `name` the stream is on: its attributes, each unknown one warned about.
    mutating func element(_ name: E) -> Element {
        counts.elements += 1
        var element = Element(line: stream.line, order: counts.elements)
        let known = name.attributes
        var unknown: [String] = []
        stream.forEachAttribute(in: GPXMapping.namespace) { attribute, namespaced, value in
            if namespaced || !known.contains(where: { $0.rawValue == attribute }) {
                unknown.append((namespaced ? "dr:" : "") + attribute)
            } else {
                element.values.append((attribute, value))
            }
        }
        for attribute in unknown {
            report(
                .unknownAttribute,
                "unknown attribute \(Quoting.quoted(attribute)) on dr:\(name), ignored"
                    + Suggestions.hint(for: attribute, known: known.map(\.rawValue)),
                line: element.line)
        }
        return element
    }

    /// The `dr:budget` the stream is on, when `parent` has none yet (`kept`); a second is an error.
    mutating func budget(_ kept: Element?, in parent: String) -> Element {
        let budget = element(.budget)
        guard let kept else { return budget }
        report(.gpxDuplicateElement, "\(parent) holds one dr:budget, and this is a second", line: budget.line)
        return kept
    }

    /// Warns about a `dr:` element the mapping does not have here (it has `allowed`), with the
    /// one probably meant; its subtree is read past.
    mutating func unknown(in place: String, allowed: [E]) -> Frame? {
        let name = Quoting.printable(stream.localName)
        report(
            .unknownElement,
            "unknown element dr:\(name) in \(place), ignored"
                + Suggestions.hint(for: stream.localName, known: allowed.map(\.rawValue)),
            line: stream.line)
        return nil
    }

    /// Reports a problem; one inside a waypoint names the waypoint, as far as it is known.
    mutating func report(_ code: DiagnosticCode, _ message: String, line: Int) {
        diagnostics.append(Diagnostic(code, at: SourcePosition(line: line, element: label()), message))
    }

    /// How messages name the current waypoint: `wpt 2 "Ride Tram 28"`; `nil` outside one.
    mutating func label() -> String? {
        guard let waypoint else { return nil }
        return label(of: waypoint)
    }

    /// How messages name `waypoint`, the current one.
    ///
    /// Made once a waypoint (and again when its name comes), not for each of its fields.
    mutating func label(of waypoint: Waypoint) -> String {
        if let cachedLabel { return cachedLabel }
        let made =
            names.first?.value.map { "wpt \(waypoint.index) \(Quoting.quoted(TextRules.foldedForLabel($0)))" }
            ?? "wpt \(waypoint.index)"
        cachedLabel = made
        return made
    }

    /// The root element: `<gpx>` in GPX 1.1's or 1.0's namespace, or in none.
    mutating func enterRoot() -> Frame? {
        rootLine = stream.line
        guard stream.localNameIs(G.gpx) else {
            stop("its root element is <\(Quoting.printable(stream.localName))>, not <gpx>")
            return nil
        }
        for namespace in [GPXMapping.gpx11, GPXMapping.gpx10, ""] where stream.namespaceIs(namespace) {
            rootNamespace = namespace
            return .gpx
        }
        stop(
            "its root <gpx> is in the namespace \(Quoting.quoted(stream.namespaceURI)), not GPX 1.1's "
                + "\(Quoting.quoted(GPXMapping.gpx11.description)) or 1.0's \(Quoting.quoted(GPXMapping.gpx10.description))"
        )
        return nil
    }

    mutating func stop(_ why: String) {
        diagnostics.append(Diagnostic(.notGPX, at: SourcePosition(line: stream.line), "this is not a GPX file: \(why)"))
        stopped = true
    }

    /// Adds the current `rtept` or `trkpt` to the path being read, as written.
    mutating func addPoint() {
        path?.count += 1
        // Past the trip's limit only the count goes on: the validator refuses the trip by it.
        guard counts.points <= limits.trip.maxPathPoints, let label = path?.label else { return }
        counts.points += 1
        let at = SourcePosition(line: stream.line, element: label)
        func axis(_ name: GPXMapping.GPXAttribute) -> Field<String> {
            stream.attribute(name).map { .present($0, at) } ?? .missing(at)
        }
        // Appended in place: the path is never copied, so a long one is read in linear time.
        path?.points.append(CoordinateDraft(latitude: axis(.lat), longitude: axis(.lon)))
    }

    mutating func capture(_ element: String, into list: WritableKeyPath<GPXReading, [Field<String>]>) -> Frame {
        (text, textLine) = ("", stream.line)
        return .text(element: element, into: list)
    }

    /// Called at an element's end (or at once for an empty element).
    mutating func leave(_ frame: Frame) {
        switch frame {
        case .text(_, let list):
            self[keyPath: list].append(.present(text, SourcePosition(line: textLine, element: label())))
            if list == \GPXReading.names { cachedLabel = nil }
        case .task:
            if var task {
                (task.pros, task.cons) = (pros, cons)
                waypoint?.tasks.append(task)
            }
            task = nil
        case .waypoint:
            if let waypoint { finish(waypoint) }
            waypoint = nil
            cachedLabel = nil
        case .route:
            if let path { references.paths.append(path) }
            path = nil
        case .gpx, .metadata, .metadataExtensions, .trip, .stay, .author, .waypointExtensions, .routeExtensions,
            .trackSegment:
            break
        }
    }

    /// `element`'s attribute `name` as a field at `element`, and its money (`amount` with `currency`).
    static func field(_ element: Element?, _ name: A, at position: SourcePosition) -> Field<String> {
        element?[name].map { .present($0, position) } ?? .missing(position)
    }

    static func money(_ element: Element?, _ amount: A, at position: SourcePosition) -> Field<MoneyDraft> {
        guard let element else { return .missing(position) }
        return .present(
            MoneyDraft(amount: field(element, amount, at: position), currency: field(element, .currency, at: position)),
            position)
    }

    /// A finished waypoint: its stay and its tasks, handed to the references.
    mutating func finish(_ waypoint: Waypoint) {
        let label = label(of: waypoint)
        func at(_ line: Int) -> SourcePosition { SourcePosition(line: line, element: label) }
        let here = at(waypoint.line)
        let name = names.first ?? .missing(here)
        let coordinate = Field.present(
            CoordinateDraft(
                latitude: waypoint.latitude.map { .present($0, here) } ?? .missing(here),
                longitude: waypoint.longitude.map { .present($0, here) } ?? .missing(here)), here)
        if let stay = waypoint.stay {
            let there = at(stay.line)
            var draft = DestinationDraft(
                position: here, name: name, coordinate: coordinate, arrival: Self.field(stay, .arrival, at: there),
                departure: Self.field(stay, .departure, at: there), detours: [])
            draft.dayHours = Self.field(stay, .dayHours, at: there)
            draft.budget = Self.money(
                waypoint.stayBudget, .amount, at: waypoint.stayBudget.map { at($0.line) } ?? there)
            references.addStay(
                id: stay[.id] ?? name.value.map(TextRules.foldedForLabel) ?? "", label: label, at: there, draft,
                declaring: waypoint.detours.map { ($0.key, $0.order, at($0.line)) }, into: &diagnostics)
        } else if waypoint.tasks.isEmpty {
            plainWaypoints += 1
            if plainWaypoints == 1 { firstPlainWaypointLine = waypoint.line }
        }
        for element in waypoint.tasks {
            // A task inside its stay's own waypoint has no location of its own, and a name= of its own.
            let located = waypoint.stay == nil
            let there = at(element.line)
            let priced = element[.cost] != nil || element[.currency] != nil
            let draft = TaskDraft(
                position: there, name: located ? name : Self.field(element, .name, at: there),
                duration: Self.field(element, .duration, at: there),
                cost: Self.money(priced ? element : nil, .cost, at: there),
                coordinate: located ? coordinate : .missing(there), pros: element.pros, cons: element.cons,
                travel: Self.field(element, .travel, at: there))
            references.addTask(
                element, name: draft.name.value, at: there, draft, side: Self.field(element, .side, at: there),
                into: &diagnostics)
        }
    }

    /// The traveller: the author's email, with the author's name before it (`NAME <ADDRESS>`)
    /// when the file gives one.
    func traveler(_ top: SourcePosition) -> Field<String> {
        guard case .present(let address, let position)? = travelers.first else {
            return travelers.first ?? .missing(top)
        }
        guard case .present(let name, _)? = authorNames.first, !name.isEmpty else { return .present(address, position) }
        // A name the address rule cannot carry (an angle bracket) leaves the address alone.
        guard let named = EmailAddress(name: name, address: address) else { return .present(address, position) }
        return .present(named.text, position)
    }

    /// The draft, once every element is read.
    mutating func finish() -> ReadResult {
        let top = SourcePosition(line: rootLine)
        // A document with no dr:trip and no stay, task or path holds no trip at all (the list of
        // destinations is missing), not an empty one; a task or path alone is a trip whose stay
        // is unknown.
        let hasTrip = trip != nil || !references.isEmpty
        // Another app's GPX: one line that says so, not a trip's missing fields.
        if !hasTrip {
            let noTrip = Diagnostic(
                .gpxNoTrip, at: SourcePosition(line: rootLine),
                "the file holds no detour-report trip (no dr:trip, dr:stay or dr:task)")
            return ReadResult(draft: nil, diagnostics: [noTrip])
        }
        let destinations = hasTrip ? references.resolve(into: &diagnostics) : []
        let unplaced = references.unplaced
        var draft = TripDraft(
            position: top, title: titles.first ?? .missing(top), traveler: traveler(top),
            destinations: hasTrip
                ? .present(destinations, top) : .missing(SourcePosition(line: rootLine, element: "gpx")))
        draft.unplacedTasks = unplaced
        if let trip {
            let at = SourcePosition(line: trip.line, element: "dr:trip")
            (draft.travel, draft.currency) = (Self.field(trip, .travel, at: at), Self.field(trip, .currency, at: at))
            draft.dayHours = Self.field(trip, .dayHours, at: at)
            if let budget = tripBudget {
                draft.budget = Self.money(budget, .amount, at: SourcePosition(line: budget.line, element: "dr:budget"))
            }
            draft.rates = rates.map { rate in
                let here = SourcePosition(line: rate.line, element: "dr:rate")
                return RateDraft(
                    currency: Self.field(rate, .currency, at: here), value: Self.field(rate, .value, at: here))
            }
            if !rates.isEmpty { draft.ratesPosition = SourcePosition(line: trip.line) }
        }
        if plainWaypoints > 0 {
            let counted =
                plainWaypoints == 1
                ? "1 waypoint has neither dr:stay nor dr:task and was read past; it is"
                : "\(NumberText.grouped(plainWaypoints)) waypoints have neither dr:stay nor dr:task and were read past; the first is"
            diagnostics.append(
                Diagnostic(
                    .gpxPlainWaypoints, at: SourcePosition(line: firstPlainWaypointLine),
                    "\(counted) on line \(firstPlainWaypointLine)"))
        }
        return ReadResult(draft: draft, diagnostics: diagnostics)
    }

}

extension XMLStream {
    /// Why the stream stopped with an error: a limit, the source, or libxml2's first complaint.
    func failure(_ limits: ReadLimits) -> Diagnostic {
        switch overflow {
        case (let line, .attributes)?:
            return Diagnostic(
                .xmlTooManyAttributes, at: SourcePosition(line: line),
                "an element has more than \(limits.maxAttributes) attributes; no GPX element needs that many")
        case (let line, .depth)?:
            return Diagnostic(
                .xmlTooDeep, at: SourcePosition(line: line),
                "XML: the elements are nested too deeply (more than \(limits.maxDepth) levels)")
        case nil:
            break
        }
        if exceededLimit { return FileChecks.tooLarge(.gpx, limits: limits) }
        if let failure = sourceFailure { return Diagnostic(.readFailed, "cannot read the trip: \(failure)") }
        let problem = problems.first
        let position = problem.map { SourcePosition(line: $0.line, column: $0.column > 0 ? $0.column : nil) }
        if problem?.isEncoding == true {
            return Diagnostic(
                .invalidUTF8, at: position,
                "the file is not valid UTF-8 where it says it is; save it as UTF-8, or declare its encoding")
        }
        let message = problem?.isEntityLoop == true ? "entities refer to each other in a loop" : problem?.message
        return Diagnostic(.xmlSyntax, at: position, "XML: \(Quoting.printable(message ?? "not well-formed"))")
    }
}
