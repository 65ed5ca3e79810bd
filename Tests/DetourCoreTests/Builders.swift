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

/// Drafts as a reader would make them; positions are left unknown, since the validator names
/// every field by its place in the trip.
enum Draft {
    static let here = SourcePosition.unknown

    static func text(_ value: String) -> Field<String> { .present(value, here) }

    /// A path point's draft.
    static func point(_ lat: String, _ lon: String) -> CoordinateDraft {
        CoordinateDraft(latitude: text(lat), longitude: text(lon))
    }

    /// The ISO text of the day `count` days after `day`.
    static func day(after day: String, _ count: Int) -> String {
        guard let start = CalendarDay(iso: day), let end = start.adding(days: count) else { fatalError("bad test day") }
        return end.description
    }

    static func coordinate(_ lat: String, _ lon: String) -> Field<CoordinateDraft> {
        .present(CoordinateDraft(latitude: text(lat), longitude: text(lon)), here)
    }

    static func task(
        name: String = "Walk", duration: String = "1h", amount: String = "0",
        currency: String = "EUR", location: Field<CoordinateDraft>? = nil,
        pros: [String] = [], cons: [String] = []
    ) -> TaskDraft {
        TaskDraft(
            position: here,
            name: text(name),
            duration: text(duration),
            cost: .present(MoneyDraft(amount: text(amount), currency: text(currency)), here),
            // Near the default stay (Lisbon, 38.7, -9.1), as a real task is.
            coordinate: location ?? coordinate("38.71", "-9.13"),
            pros: pros.map(text),
            cons: cons.map(text))
    }

    static func destination(
        name: String = "Lisbon", arrival: String = "2026-12-01",
        departure: String = "2026-12-05", lat: String = "38.7", lon: String = "-9.1", tasks: [[TaskDraft]] = []
    ) -> DestinationDraft {
        DestinationDraft(
            position: here,
            name: text(name),
            coordinate: coordinate(lat, lon),
            arrival: text(arrival),
            departure: text(departure),
            detours: tasks.map { DetourDraft(position: here, tasks: $0) })
    }

    static func trip(title: String = "Trip", traveler: String? = nil, _ destinations: [DestinationDraft]) -> TripDraft {
        TripDraft(
            position: here, title: text(title),
            traveler: traveler.map { text($0) } ?? .missing(here),
            destinations: .present(destinations, here))
    }
}

extension TripDraft {
    /// The destinations a test trip lists, to change one in place.
    var stays: [DestinationDraft] {
        get { destinations.value ?? [] }
        set { destinations = .present(newValue, Draft.here) }
    }
}
