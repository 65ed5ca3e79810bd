import DetourCore
import DetourTestSupport
import Testing

@Suite struct SectionsTests {
    let today = Build.day("2026-11-22")

    @Test(arguments: [
        ("2026-11-23", "2026-11-25", SectionKind.future),  // starts tomorrow
        ("2026-11-22", "2026-11-25", .now),  // arrives today
        ("2026-11-20", "2026-11-22", .now),  // leaves today
        ("2026-11-20", "2026-11-25", .now),  // under way
        ("2026-11-18", "2026-11-21", .past),  // left yesterday
    ])
    func putsEachStayInItsSection(_ arrival: String, _ departure: String, _ kind: SectionKind) {
        #expect(Sections.kind(of: Build.stay("X", arrival, departure), today: today) == kind)
    }

    @Test func futureStartsSoonestFirstAndKeepsTiesInInputOrder() {
        let stays = [
            Build.stay("late", "2026-12-10", "2026-12-12"),
            Build.stay("tie-1", "2026-12-01", "2026-12-09"),
            Build.stay("soon", "2026-11-25", "2026-11-26"),
            Build.stay("tie-2", "2026-12-01", "2026-12-02"),
        ]
        let names = Sections.sorted(stays, in: .future) { $0 }.map(\.name)
        #expect(names == ["soon", "tie-1", "tie-2", "late"])
    }

    @Test func nowEndsSoonestFirstAndKeepsTiesInInputOrder() {
        let stays = [
            Build.stay("long", "2026-11-01", "2026-12-30"),
            Build.stay("tie-1", "2026-11-10", "2026-11-24"),
            Build.stay("today", "2026-11-20", "2026-11-22"),
            Build.stay("tie-2", "2026-11-21", "2026-11-24"),
        ]
        let names = Sections.sorted(stays, in: .now) { $0 }.map(\.name)
        #expect(names == ["today", "tie-1", "tie-2", "long"])
    }

    @Test func pastEndedMostRecentlyFirstAndKeepsTiesInInputOrder() {
        let stays = [
            Build.stay("oldest", "2026-01-01", "2026-01-05"),
            Build.stay("tie-1", "2026-10-01", "2026-11-01"),
            Build.stay("yesterday", "2026-11-18", "2026-11-21"),
            Build.stay("tie-2", "2026-10-20", "2026-11-01"),
        ]
        let names = Sections.sorted(stays, in: .past) { $0 }.map(\.name)
        #expect(names == ["yesterday", "tie-1", "tie-2", "oldest"])
    }

    @Test func planAlwaysHasFutureNowPastInThatOrderEvenWhenEmpty() {
        let trip = Trip(title: "T", traveler: nil, destinations: [Build.stay("A", "2027-01-01", "2027-01-02")])
        let plan = Planner.plan(trip, today: today)
        #expect(plan.sections.map(\.kind) == [.future, .now, .past])
        #expect(plan.sections.map(\.destinations.count) == [1, 0, 0])
    }

    @Test func everyDestinationLandsInExactlyOneSection() {
        // A property over many generated stays: the sections partition the trip.
        var generator = SplitMix(seed: 42)
        for _ in 0..<200 {
            let stays = (0..<Int(generator.next() % 12)).map { index -> Destination in
                let start = Int(generator.next() % 60) - 30
                let length = Int(generator.next() % 10) + 1
                let arrival = today.adding(days: start) ?? today
                let departure = arrival.adding(days: length) ?? arrival
                return Build.stay("s\(index)", arrival.description, departure.description)
            }
            let plan = Planner.plan(Trip(title: "T", traveler: nil, destinations: stays), today: today)
            let names = plan.sections.flatMap { $0.destinations.map(\.destination.name) }
            #expect(names.sorted() == stays.map(\.name).sorted())
        }
    }
}
