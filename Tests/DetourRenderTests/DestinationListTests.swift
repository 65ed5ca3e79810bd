import DetourCore
import Testing

@testable import DetourRender

/// The app's destination list: every destination of every trip, in the original app's three
/// sections and their order, with the report's headings and dates.
@Suite struct DestinationListTests {
    static let today = CalendarDay(iso: "2027-05-10") ?? .unixEpoch

    /// A stay called `name` from `arrival` to `departure` (ISO days).
    static func stay(_ name: String, _ arrival: String, _ departure: String) throws -> Destination {
        Destination(
            name: name, location: try #require(Coordinate(latitude: 38.72, longitude: -9.14)),
            arrival: try #require(CalendarDay(iso: arrival)), departure: try #require(CalendarDay(iso: departure)),
            detours: [])
    }

    static func trip(_ title: String, _ stays: [Destination]) -> Trip {
        Trip(title: title, traveler: nil, destinations: stays)
    }

    /// Two trips of the person's and one shared with them, whose stays interleave in every
    /// section: each section holds stays of more than one trip, in the section's own order.
    static func trips() throws -> [ListedTrip] {
        [
            ListedTrip(
                trip: trip(
                    "Spring",
                    [
                        try stay("Porto", "2027-05-01", "2027-05-04"), try stay("Braga", "2027-05-09", "2027-05-12"),
                        try stay("Faro", "2027-06-01", "2027-06-03"),
                    ]),
                href: "/trips/spring"),
            ListedTrip(
                trip: trip(
                    "Summer",
                    [
                        try stay("Lyon", "2027-05-20", "2027-05-22"), try stay("Nice", "2027-05-08", "2027-05-10"),
                        try stay("Arles", "2027-04-01", "2027-04-05"),
                    ]),
                href: "/trips/summer"),
            ListedTrip(
                trip: trip(
                    "Alps",
                    [try stay("Bern", "2027-05-10", "2027-05-11"), try stay("Chur", "2027-05-06", "2027-05-07")]),
                href: "/shared/a1/trips/alps", sharedBy: "ana@example.org"),
        ]
    }

    static func names(_ model: DestinationListModel) -> [[String]] {
        model.sections.map { $0.rows.map(\.name) }
    }

    /// Coming up by the soonest start, under way by the soonest end, done by the latest end.
    @Test func theSectionsAndTheirOrderAcrossTrips() throws {
        let model = DestinationListModel(trips: try Self.trips(), unlisted: [], today: Self.today, addHref: "/new")
        #expect(model.sections.map(\.heading) == ["Coming up", "Under way", "Done"])
        #expect(model.sections.map(\.name) == ["future", "now", "past"])
        #expect(Self.names(model) == [["Lyon", "Faro"], ["Nice", "Bern", "Braga"], ["Chur", "Porto", "Arles"]])
    }

    /// The day boundaries are the report's: a stay arriving today, or leaving today, is under way.
    @Test(arguments: [
        ("2027-05-08", [["Braga"], [], []]), ("2027-05-09", [[], ["Braga"], []]),
        ("2027-05-12", [[], ["Braga"], []]), ("2027-05-13", [[], [], ["Braga"]]),
    ])
    func aStayArrivingOrLeavingTodayIsUnderWay(today: String, expected: [[String]]) throws {
        let trip = ListedTrip(
            trip: Self.trip("T", [try Self.stay("Braga", "2027-05-09", "2027-05-12")]), href: "/trips/t")
        let day = CalendarDay(iso: today) ?? .unixEpoch
        let model = DestinationListModel(trips: [trip], unlisted: [], today: day, addHref: "")
        #expect(Self.names(model) == expected)
    }

    /// Stays that tie keep the order of the trips given, then of each trip's file.
    @Test func tiesKeepTheTripsOrderThenTheFiles() throws {
        let same = [
            ListedTrip(
                trip: Self.trip(
                    "B",
                    [try Self.stay("B1", "2027-06-01", "2027-06-02"), try Self.stay("B2", "2027-06-01", "2027-06-03")]),
                href: "/trips/b"),
            ListedTrip(trip: Self.trip("A", [try Self.stay("A1", "2027-06-01", "2027-06-02")]), href: "/trips/a"),
        ]
        let model = DestinationListModel(trips: same, unlisted: [], today: Self.today, addHref: "")
        #expect(Self.names(model) == [["B1", "B2", "A1"], [], []])
    }

    /// Each row has its name, dates, trip, link, and who shared its trip when it is not the person's.
    @Test func aRowSaysItsDaysItsTripAndWhoSharedIt() throws {
        let model = DestinationListModel(trips: try Self.trips(), unlisted: [], today: Self.today, addHref: "/new")
        let rows = model.sections.flatMap(\.rows)
        let bern = rows.first { $0.name == "Bern" }
        #expect(bern?.dates == "Mon 10 May 2027 – Tue 11 May 2027")
        #expect(bern?.trip == "Alps")
        #expect(bern?.sharedBy == "ana@example.org")
        #expect(bern?.isShared == true)
        #expect(bern?.href == "/shared/a1/trips/alps/destinations/1")
        let nice = rows.first { $0.name == "Nice" }
        #expect(nice?.isShared == false)
        #expect(nice?.href == "/trips/summer/destinations/2")
        #expect(model.canAdd)
        #expect(!DestinationListModel(trips: [], unlisted: [], today: Self.today, addHref: "").canAdd)
    }

    /// No trips: three empty sections, each saying so as the report does.
    @Test func emptySectionsSaySo() {
        let model = DestinationListModel(trips: [], unlisted: [], today: Self.today, addHref: "")
        #expect(model.sections.allSatisfy { $0.isEmpty })
        #expect(
            model.sections.map(\.emptyText)
                == ["Nothing planned ahead.", "No stay is under way today.", "No stay has ended yet."])
    }

    /// A destination's page: its name, days, nights, detours by their titles, and the trip.
    @Test func aDestinationsPageListsItsDetoursByTitle() throws {
        let task = { (name: String) in
            DetourTask(
                name: name, duration: try #require(TaskDuration(minutes: 60)),
                cost: Money(amount: 0, currency: try #require(CurrencyCode("EUR"))), location: nil, pros: [], cons: [])
        }
        var lisbon = try Self.stay("Lisbon", "2027-05-01", "2027-05-04")
        lisbon.detours = [
            Detour(tasks: [try task("Honor the Past"), try task("Embrace the Future")]),
            Detour(tasks: [try task("Tram 28")]),
            Detour(tasks: []),
        ]
        let listed = ListedTrip(
            trip: Self.trip("Spring", [try Self.stay("Porto", "2027-04-28", "2027-05-01"), lisbon]),
            href: "/trips/spring")
        let page = DestinationPageModel(listed, index: 1, reports: [("Preview", "/trips/spring")])
        #expect(page.name == "Lisbon")
        #expect(page.dates == "Sat 1 May 2027 – Tue 4 May 2027")
        #expect(page.nights == "3 nights")
        #expect(page.trip.text == "Spring" && page.trip.href == "/trips/spring")
        #expect(
            page.detours.map(\.text) == [
                "Honor the Past or Embrace the Future", "Tram 28 or undecided", "Undecided detour",
            ])
        #expect(page.detours.map(\.href) == (1...3).map { "/trips/spring/destinations/2/detours/\($0)" })
        #expect(page.hasDetours)
    }
}
