import DetourCore

/// Writes a trip in the trip JSON format (version 1), indented as a person writes one, keys in
/// the order the format documents them; what is absent or default is left out.
///
/// The GPX writer's twin, for what makes trips rather than reports (`detour-report import`).
/// Reading what it writes gives the same trip back.
public enum TripJSONWriter {
    /// `trip` as trip JSON, ending with a newline.
    public static func write(_ trip: Trip) -> String {
        var members: [(String, Value)] = [("title", .string(trip.title))]
        if let traveler = trip.traveler { members.append(("traveler", .string(traveler.text))) }
        if trip.travel != .walk { members.append(("travel", .string(trip.travel.rawValue))) }
        if let currency = trip.currency { members.append(("currency", .string(currency.code))) }
        if let rates = trip.rates, !rates.rates.isEmpty {
            let sorted = rates.rates.sorted { $0.key.code < $1.key.code }
            members.append(("rates", .inline(sorted.map { ($0.key.code, .number($0.value.description)) })))
        }
        if let budget = trip.budget { members.append(("budget", money(budget))) }
        if let dayHours = trip.dayHours { members.append(("day_hours", .number(dayHours.hoursText))) }
        members.append(("destinations", .list(trip.destinations.map(destination))))
        var out = ""
        Value.object(members).write(to: &out, indent: "")
        return out + "\n"
    }

    /// What is written: objects keep their key order; `inline` objects (of strings and numbers)
    /// stay on one line.
    indirect enum Value {
        case string(String)
        case number(String)
        case object([(String, Value)])
        case inline([(String, Value)])
        case list([Value])

        func write(to out: inout String, indent: String) {
            let inner = indent + "  "
            switch self {
            case .string(let text): out += quoted(text)
            case .number(let text): out += text
            case .inline(let members):
                var parts: [String] = []
                for (key, value) in members {
                    var text = quoted(key) + ": "
                    value.write(to: &text, indent: indent)
                    parts.append(text)
                }
                out += "{" + parts.joined(separator: ", ") + "}"
            case .object(let members):
                out += "{\n"
                for (index, (key, value)) in members.enumerated() {
                    out += inner + quoted(key) + ": "
                    value.write(to: &out, indent: inner)
                    out += index < members.count - 1 ? ",\n" : "\n"
                }
                out += indent + "}"
            case .list(let values):
                guard !values.isEmpty else {
                    out += "[]"
                    return
                }
                out += "[\n"
                for (index, value) in values.enumerated() {
                    out += inner
                    value.write(to: &out, indent: inner)
                    out += index < values.count - 1 ? ",\n" : "\n"
                }
                out += indent + "]"
            }
        }

        /// A JSON string: `"`, `\` and control characters escaped (RFC 8259 §7).
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }

    static func money(_ money: Money) -> Value {
        .inline([("amount", .number(money.amountText)), ("currency", .string(money.currency.code))])
    }

    static func point(_ point: Coordinate) -> Value {
        .inline([("lat", .number(number(point.latitude))), ("lon", .number(number(point.longitude)))])
    }

    /// A coordinate as the shortest text that reads back to the same `Double`.
    static func number(_ value: Double) -> String { "\(value)" }

    static func destination(_ stay: Destination) -> Value {
        var members: [(String, Value)] = [
            ("name", .string(stay.name)), ("location", point(stay.location)),
            ("arrival", .string(stay.arrival.description)), ("departure", .string(stay.departure.description)),
        ]
        if let budget = stay.budget { members.append(("budget", money(budget))) }
        if let dayHours = stay.dayHours { members.append(("day_hours", .number(dayHours.hoursText))) }
        members.append(("detours", .list(stay.detours.map { .object([("tasks", .list($0.tasks.map(task)))]) })))
        return .object(members)
    }

    static func task(_ task: DetourTask) -> Value {
        var members: [(String, Value)] = [
            ("name", .string(task.name)), ("duration", .string(task.duration.description.replacingSpaces)),
            ("cost", money(task.cost)),
        ]
        if let location = task.location { members.append(("location", point(location))) }
        if let travel = task.travel { members.append(("travel", .string(travel.rawValue))) }
        if !task.pros.isEmpty { members.append(("pros", .list(task.pros.map { .string($0) }))) }
        if !task.cons.isEmpty { members.append(("cons", .list(task.cons.map { .string($0) }))) }
        if let path = task.path { members.append(("path", .list(path.points.map(point)))) }
        return .object(members)
    }
}

extension String {
    /// `1h 30m` as `1h30m`: the short form as people type it.
    fileprivate var replacingSpaces: String { filter { $0 != " " } }
}
