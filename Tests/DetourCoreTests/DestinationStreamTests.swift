import DetourCore
import Testing

/// Checking a trip's destinations one at a time, as the JSON reader hands them over, gives what
/// checking the whole draft gives: the same diagnostics, in the same order, and the same trip.
@Suite struct DestinationStreamTests {
    /// `draft` checked destination by destination, then as a trip whose list stands for them.
    static func streamed(_ draft: TripDraft, limits: TripLimits = .standard) -> TripValidator.Outcome {
        var check = TripValidator.Destinations(limits: limits)
        var trip = draft
        if case .present(let list, let position) = draft.destinations {
            for destination in list { check.check(destination) }
            trip.destinations = .present([], position)
        }
        return check.outcome(trip)
    }

    static func expectSame(_ draft: TripDraft, limits: TripLimits = .standard, _ comment: Comment? = nil) {
        let whole = TripValidator.validate(draft, limits: limits)
        let streamed = streamed(draft, limits: limits)
        #expect(String(reflecting: streamed.diagnostics) == String(reflecting: whole.diagnostics), comment)
        #expect(streamed.trip == whole.trip, comment)
    }

    @Test(arguments: TripLimitTests.rows, [1, 2, 7])
    func everyLimitIsMetWhereTheWholeDraftMeetsIt(_ row: TripLimitTests.Row, _ limit: Int) {
        var limits = TripLimits.standard
        row.setting(&limits, limit)
        for count in [limit, limit + 1, limit + 3] {
            Self.expectSame(row.draft(count), limits: limits, "\(row.name) \(count) at \(limit)")
        }
    }

    @Test func problemsOfTheTripAndOfItsStaysKeepTheirOrder() {
        let stays = [
            Draft.destination(name: " ", arrival: "2026-13-01", tasks: [[Draft.task(duration: "soon")]]),
            Draft.destination(tasks: [[Draft.task(amount: "-1", currency: "XYZ"), Draft.task(), Draft.task()]]),
            Draft.destination(lat: "91", tasks: [[]]),
            Draft.destination(),
        ]
        var draft = Draft.trip(title: "", traveler: "not an address", stays)
        draft.currency = Draft.text("eur")
        draft.budget = .present(MoneyDraft(amount: Draft.text("x"), currency: .missing(Draft.here)), Draft.here)
        Self.expectSame(draft)
        draft.title = Draft.text("Trip")
        Self.expectSame(draft)
        Self.expectSame(Draft.trip([Draft.destination(), Draft.destination(arrival: "2026-12-01")]))
    }

    @Test func aTripWithoutAListOfDestinationsOrWithAnInvalidOne() {
        var draft = Draft.trip([])
        draft.destinations = .missing(Draft.here)
        Self.expectSame(draft)
        draft.destinations = .invalid
        Self.expectSame(draft)
    }

    @Test func aListGivenAgainReplacesTheFirst() {
        let first = Draft.destination(arrival: "bad")
        let second = Draft.destination(name: "Porto")
        var check = TripValidator.Destinations()
        check.check(first)
        check.restart()
        check.check(second)
        let outcome = check.outcome(Draft.trip([]))
        let whole = TripValidator.validate(Draft.trip([second]))
        #expect(String(reflecting: outcome.diagnostics) == String(reflecting: whole.diagnostics))
        #expect(outcome.trip == whole.trip)
        #expect(outcome.trip?.destinations.map(\.name) == ["Porto"])
    }
}

/// A plan's detour is titled as the trip's detour it plans.
@Suite struct PlannedDetourTitleTests {
    @Test(arguments: [0, 1, 2])
    func thePlansTitleIsTheDetours(_ sides: Int) throws {
        let tasks = Array([Build.task("Ride Tram 28"), Build.task("Walk the Alfama")].prefix(sides))
        let detour = Detour(tasks: tasks)
        let stay = Build.stay("Lisbon", "2026-12-01", "2026-12-05", detours: [detour])
        let planned = try #require(Planner.plan(stay).detours.first)
        #expect(planned.title == detour.title)
        #expect(
            planned.title
                == ["Undecided detour", "Ride Tram 28 or undecided", "Ride Tram 28 or Walk the Alfama"][sides])
    }
}
