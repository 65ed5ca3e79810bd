import CLibXML2
import DetourCore

/// Writes a trip as GPX 1.1 in the detour-report mapping, with libxml2's writer.
///
/// Destinations become waypoints with `dr:stay`, located tasks become waypoints with `dr:task`,
/// tasks without a location are `dr:task` elements (named with `name=`) inside their stay's
/// waypoint, and every detour is declared on its stay with `dr:detour`, so reading the file back
/// gives the same trip, drafts included. When a detour mixes located and unlocated tasks, its
/// tasks carry `side="1"`/`side="2"`, since document order alone would put the unlocated first.
public enum TripGPXWriter {
    /// Why the writer failed (libxml2 ran out of memory, in practice).
    public struct WriteError: Error, Sendable {
        /// What failed.
        public var message: String
    }

    /// The trip as a GPX document.
    public static func write(_ trip: Trip) throws(WriteError) -> String {
        guard let buffer = xmlBufferCreate() else { throw WriteError(message: "cannot allocate a buffer") }
        defer { xmlBufferFree(buffer) }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            throw WriteError(message: "cannot start the XML writer")
        }
        var output = Output(writer: writer)
        output.document(trip)
        xmlFreeTextWriter(writer)  // flushes into the buffer
        guard output.ok, let content = xmlBufferContent(buffer) else {
            throw WriteError(message: "the XML writer failed")
        }
        let text = String(cString: content)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Stay ids: the destination's name made into a token, unique within the trip.
    static func stayIDs(_ destinations: [Destination]) -> [String] {
        var used: Set<String> = []
        return destinations.map { destination in
            var base = ""
            for scalar in destination.name.lowercased().unicodeScalars {
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    base.unicodeScalars.append(scalar)
                } else if !base.isEmpty, base.last != "-" {
                    base += "-"
                }
            }
            while base.hasSuffix("-") { base.removeLast() }
            if base.isEmpty { base = "stay" }
            var id = base
            var counter = 2
            while used.contains(id) {
                id = "\(base)-\(counter)"
                counter += 1
            }
            used.insert(id)
            return id
        }
    }
}

/// Calls into xmlTextWriter, remembering whether any call failed.
private struct Output {
    let writer: xmlTextWriterPtr
    var ok = true

    init(writer: xmlTextWriterPtr) {
        self.writer = writer
    }

    mutating func check(_ result: Int32) {
        if result < 0 { ok = false }
    }

    // Names come from ``GPXMapping``, the same constants the reader matches.
    typealias G = GPXMapping.GPX
    typealias E = GPXMapping.Element
    typealias A = GPXMapping.Attribute

    mutating func start(_ name: G) { check(xmlTextWriterStartElement(writer, name.rawValue)) }

    mutating func startTrip(_ name: E) {
        check(xmlTextWriterStartElementNS(writer, GPXMapping.prefix, name.rawValue, nil))
    }

    mutating func end() { check(xmlTextWriterEndElement(writer)) }

    mutating func attribute(_ name: some RawRepresentable<String>, _ value: String) {
        check(xmlTextWriterWriteAttribute(writer, name.rawValue, value))
    }

    mutating func element(_ name: G, text: String) {
        check(xmlTextWriterWriteElement(writer, name.rawValue, text))
    }

    mutating func tripElement(_ name: E, text: String) {
        check(xmlTextWriterWriteElementNS(writer, GPXMapping.prefix, name.rawValue, nil, text))
    }

    mutating func document(_ trip: Trip) {
        check(xmlTextWriterSetIndent(writer, 1))
        check(xmlTextWriterSetIndentString(writer, "  "))
        check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil))
        start(G.gpx)
        attribute(GPXMapping.GPXAttribute.version, "1.1")
        attribute(GPXMapping.GPXAttribute.creator, "detour-report")
        check(xmlTextWriterWriteAttribute(writer, "xmlns", GPXMapping.gpx11.description))
        check(xmlTextWriterWriteAttribute(writer, "xmlns:\(GPXMapping.prefix)", GPXMapping.namespace.description))
        start(G.metadata)
        element(G.name, text: trip.title)
        if let traveler = trip.traveler, let at = traveler.address.firstIndex(of: "@") {
            start(G.author)
            // GPX's person: a name, then the address split at its "@".
            if let name = traveler.name { element(G.name, text: name) }
            start(G.email)
            attribute(GPXMapping.GPXAttribute.id, String(traveler.address[..<at]))
            attribute(GPXMapping.GPXAttribute.domain, String(traveler.address[traveler.address.index(after: at)...]))
            end()
            end()
        }
        // A trip with no stay is still a detour-report trip: dr:trip says so to the reader.
        if trip.travel != .walk || trip.destinations.isEmpty || trip.rates != nil || trip.budget != nil
            || trip.dayHours != nil
        {
            start(G.extensions)
            startTrip(E.trip)
            if trip.travel != .walk { attribute(A.travel, trip.travel.rawValue) }
            if let currency = trip.currency { attribute(A.currency, currency.code) }
            if let dayHours = trip.dayHours { attribute(A.dayHours, dayHours.hoursText) }
            for (code, rate) in (trip.rates?.rates ?? [:]).sorted(by: { $0.key.code < $1.key.code }) {
                startTrip(E.rate)
                attribute(A.currency, code.code)
                attribute(A.value, rate.description)
                end()
            }
            if let budget = trip.budget { self.budget(budget) }
            end()
            end()
        }
        end()
        let ids = TripGPXWriter.stayIDs(trip.destinations)
        for (destination, id) in zip(trip.destinations, ids) {
            stay(destination, id: id)
        }
        for (destination, id) in zip(trip.destinations, ids) {
            for (number, detour) in destination.detours.enumerated() {
                let sided = Output.needsSides(detour)
                for (side, task) in detour.tasks.enumerated() {
                    guard let location = task.location else { continue }
                    located(
                        task, at: location, destination: id, detour: "\(id)-\(number + 1)",
                        side: sided ? side + 1 : nil, id: task.path == nil ? nil : Output.taskID(id, number, side))
                }
            }
        }
        for (destination, id) in zip(trip.destinations, ids) {
            for (number, detour) in destination.detours.enumerated() {
                for (side, task) in detour.tasks.enumerated() {
                    guard let path = task.path else { continue }
                    route(path, name: task.name, destination: id, task: Output.taskID(id, number, side))
                }
            }
        }
        end()
        check(xmlTextWriterEndDocument(writer))
    }

    mutating func coordinates(_ point: Coordinate) {
        attribute(GPXMapping.GPXAttribute.lat, "\(point.latitude)")
        attribute(GPXMapping.GPXAttribute.lon, "\(point.longitude)")
    }

    mutating func stay(_ destination: Destination, id: String) {
        start(G.wpt)
        coordinates(destination.location)
        element(G.name, text: destination.name)
        element(G.type, text: "destination")
        start(G.extensions)
        startTrip(E.stay)
        attribute(A.id, id)
        attribute(A.arrival, destination.arrival.description)
        attribute(A.departure, destination.departure.description)
        if let dayHours = destination.dayHours { attribute(A.dayHours, dayHours.hoursText) }
        if let budget = destination.budget { self.budget(budget) }
        end()
        for (number, detour) in destination.detours.enumerated() {
            let key = "\(id)-\(number + 1)"
            startTrip(E.detour)
            attribute(A.id, key)
            end()
            let sided = Output.needsSides(detour)
            for (side, task) in detour.tasks.enumerated() where task.location == nil {
                taskElement(
                    task, destination: id, detour: key, named: true, side: sided ? side + 1 : nil,
                    id: task.path == nil ? nil : Output.taskID(id, number, side))
            }
        }
        end()
        end()
    }

    /// `<dr:budget amount= currency=/>`.
    mutating func budget(_ money: Money) {
        startTrip(E.budget)
        attribute(A.amount, money.amountText)
        attribute(A.currency, money.currency.code)
        end()
    }

    /// The id given to a task that has a path, so its route can name it even when names repeat.
    static func taskID(_ stay: String, _ detour: Int, _ side: Int) -> String {
        "\(stay)-\(detour + 1)-\(side == 0 ? "a" : "b")"
    }

    mutating func route(_ path: RoutePath, name: String, destination: String, task: String) {
        start(G.rte)
        element(G.name, text: name)
        start(G.extensions)
        startTrip(E.path)
        attribute(A.destination, destination)
        attribute(A.task, task)
        end()
        end()
        for point in path.points {
            start(G.rtept)
            coordinates(point)
            end()
        }
        end()
    }

    /// Whether document order would not give the sides back: some tasks located, some not.
    static func needsSides(_ detour: Detour) -> Bool {
        let located = detour.tasks.filter { $0.location != nil }.count
        return located > 0 && located < detour.tasks.count
    }

    /// A task with a location of its own: a waypoint of its own, at `location`.
    mutating func located(
        _ task: DetourTask, at location: Coordinate, destination: String, detour: String, side: Int?, id: String?
    ) {
        start(G.wpt)
        coordinates(location)
        element(G.name, text: task.name)
        element(G.type, text: "task")
        start(G.extensions)
        taskElement(task, destination: destination, detour: detour, named: false, side: side, id: id)
        end()
        end()
    }

    mutating func taskElement(
        _ task: DetourTask, destination: String, detour: String, named: Bool, side: Int?, id: String?
    ) {
        startTrip(E.task)
        if let id { attribute(A.id, id) }
        if named { attribute(A.name, task.name) }
        attribute(A.destination, destination)
        attribute(A.detour, detour)
        if let side { attribute(A.side, String(side)) }
        attribute(A.duration, task.duration.iso8601)
        attribute(A.cost, task.cost.amountText)
        attribute(A.currency, task.cost.currency.code)
        if let travel = task.travel { attribute(A.travel, travel.rawValue) }
        for pro in task.pros { tripElement(E.pro, text: pro) }
        for con in task.cons { tripElement(E.con, text: con) }
        end()
    }
}
