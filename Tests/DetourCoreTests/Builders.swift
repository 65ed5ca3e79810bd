import DetourCore
import Foundation

/// Small builders for valid model values, so each test states only what it is about.
enum Build {
    static func day(_ text: String) -> CalendarDay {
        guard let day = CalendarDay(iso: text) else { fatalError("bad test day \(text)") }
        return day
    }

    static func point(_ lat: Double, _ lon: Double) -> Coordinate {
        guard let point = Coordinate(latitude: lat, longitude: lon) else { fatalError("bad test point") }
        return point
    }

    static func money(_ amount: String, _ currency: String = "EUR") -> Money {
        guard let code = CurrencyCode(currency), let parsed = try? Money.parseAmount(amount) else {
            fatalError("bad test money")
        }
        return Money(amount: parsed.amount, currency: code, scale: parsed.scale)
    }

    static func task(
        _ name: String, minutes: Int = 60, cost: Money = money("0"), at location: Coordinate? = nil,
        path: [Coordinate]? = nil
    ) -> DetourTask {
        guard let duration = TaskDuration(minutes: minutes) else { fatalError("bad test duration") }
        return DetourTask(
            name: name, duration: duration, cost: cost, location: location, pros: [], cons: [],
            path: path.map { RoutePath(points: $0) })
    }

    static func stay(_ name: String, _ arrival: String, _ departure: String, detours: [Detour] = []) -> Destination {
        Destination(
            name: name, location: point(0, 0), arrival: day(arrival), departure: day(departure), detours: detours)
    }
}

/// Drafts as a reader would make them, with JSON-style paths.
enum Draft {
    static func at(_ path: String) -> SourceLocation { SourceLocation(path: path) }

    static func text(_ value: String, _ path: String) -> Field<String> { .present(value, at(path)) }

    static func coordinate(_ lat: String, _ lon: String, _ path: String) -> Field<CoordinateDraft> {
        .present(
            CoordinateDraft(latitude: text(lat, "\(path).lat"), longitude: text(lon, "\(path).lon")), at(path))
    }

    static func task(
        _ path: String, name: String = "Walk", duration: String = "1h", amount: String = "0",
        currency: String = "EUR", location: Field<CoordinateDraft>? = nil,
        pros: [String] = [], cons: [String] = []
    ) -> TaskDraft {
        TaskDraft(
            location: at(path),
            name: text(name, "\(path).name"),
            duration: text(duration, "\(path).duration"),
            cost: .present(
                MoneyDraft(amount: text(amount, "\(path).cost.amount"), currency: text(currency, "\(path).cost.currency")),
                at("\(path).cost")),
            coordinate: location ?? coordinate("1", "1", "\(path).location"),
            pros: pros.enumerated().map { text($1, "\(path).pros[\($0)]") },
            cons: cons.enumerated().map { text($1, "\(path).cons[\($0)]") })
    }

    static func destination(
        _ index: Int, name: String = "Lisbon", arrival: String = "2026-12-01",
        departure: String = "2026-12-05", lat: String = "38.7", lon: String = "-9.1", tasks: [[TaskDraft]] = []
    ) -> DestinationDraft {
        let path = "destinations[\(index)]"
        return DestinationDraft(
            location: at(path),
            name: text(name, "\(path).name"),
            coordinate: coordinate(lat, lon, "\(path).location"),
            arrival: text(arrival, "\(path).arrival"),
            departure: text(departure, "\(path).departure"),
            detours: tasks.enumerated().map { DetourDraft(location: at("\(path).detours[\($0)]"), tasks: $1) })
    }

    static func trip(title: String = "Trip", traveler: String? = nil, _ destinations: [DestinationDraft]) -> TripDraft {
        TripDraft(
            location: at(""), title: text(title, "title"),
            traveler: traveler.map { text($0, "traveler") } ?? .missing(at("traveler")),
            destinations: destinations)
    }
}
