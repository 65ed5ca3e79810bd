import DetourCore
import Testing

/// The limit on any text holds for every field a trip has, not only the title: each field one
/// byte past it is refused with `text-too-long` at its own path, and nothing else is said of it;
/// at the limit, the field's own rule judges it.
@Suite struct TextLimitTests {
    typealias Edit = @Sendable (inout TripDraft, Field<String>) -> Void

    /// A trip with one of everything: a stay, a detour of two tasks with pros, cons, a travel
    /// mode and a path, a budget and day hours on both, a currency and a rate.
    static func full() -> TripDraft {
        var first = Draft.task(name: "Tram", pros: ["Fun"], cons: ["Slow"])
        first.travel = Draft.text("transit")
        first.path = .present(
            PathDraft(points: [Draft.point("1", "1"), Draft.point("1", "1.001")], count: 2), Draft.here)
        var stay = Draft.destination(tasks: [[first, Draft.task(name: "Walk")]])
        stay.budget = .present(MoneyDraft(amount: Draft.text("10"), currency: Draft.text("EUR")), Draft.here)
        stay.dayHours = Draft.text("8")
        var trip = Draft.trip(traveler: "ana@example.org", [stay])
        trip.travel = Draft.text("walk")
        trip.currency = Draft.text("EUR")
        trip.rates = [RateDraft(currency: Draft.text("SEK"), value: Draft.text("0.0871"))]
        trip.budget = .present(MoneyDraft(amount: Draft.text("100"), currency: Draft.text("EUR")), Draft.here)
        trip.dayHours = Draft.text("10")
        return trip
    }

    static let fields: [(String, Edit)] = [
        ("title", { $0.title = $1 }),
        ("traveler", { $0.traveler = $1 }),
        ("travel", { $0.travel = $1 }),
        ("currency", { $0.currency = $1 }),
        ("rates.SEK", { $0.rates[0].value = $1 }),
        ("budget.amount", { $0.budget = .present(MoneyDraft(amount: $1, currency: Draft.text("EUR")), Draft.here) }),
        ("budget.currency", { $0.budget = .present(MoneyDraft(amount: Draft.text("1"), currency: $1), Draft.here) }),
        ("day_hours", { $0.dayHours = $1 }),
        ("destinations[0].name", { $0.stays[0].name = $1 }),
        ("destinations[0].arrival", { $0.stays[0].arrival = $1 }),
        ("destinations[0].departure", { $0.stays[0].departure = $1 }),
        (
            "destinations[0].location.lat",
            { $0.stays[0].coordinate = .present(CoordinateDraft(latitude: $1, longitude: Draft.text("1")), Draft.here) }
        ),
        ("destinations[0].day_hours", { $0.stays[0].dayHours = $1 }),
        ("destinations[0].detours[0].tasks[0].name", { $0.stays[0].detours[0].tasks[0].name = $1 }),
        ("destinations[0].detours[0].tasks[0].duration", { $0.stays[0].detours[0].tasks[0].duration = $1 }),
        ("destinations[0].detours[0].tasks[0].travel", { $0.stays[0].detours[0].tasks[0].travel = $1 }),
        ("destinations[0].detours[0].tasks[0].pros[0]", { $0.stays[0].detours[0].tasks[0].pros[0] = $1 }),
        ("destinations[0].detours[0].tasks[0].cons[0]", { $0.stays[0].detours[0].tasks[0].cons[0] = $1 }),
        (
            "destinations[0].detours[0].tasks[0].cost.currency",
            {
                $0.stays[0].detours[0].tasks[0].cost = .present(
                    MoneyDraft(amount: Draft.text("1"), currency: $1), Draft.here)
            }
        ),
    ]

    @Test func theFullTripIsValid() {
        #expect(TripValidator.validate(Self.full()).diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test(arguments: fields.map(\.0))
    func everyTextFieldPastTheLimitIsRefusedAtItsPath(_ path: String) throws {
        let edit = try #require(Self.fields.first { $0.0 == path }?.1)
        let limits = TripLimits(maxTextBytes: 20)
        var past = Self.full()
        edit(&past, Draft.text(String(repeating: "a", count: 21)))
        let found = TripValidator.validate(past, limits: limits).diagnostics.filter { $0.path == path }
        #expect(found.map(\.code) == [.textTooLong], "\(found.map(\.message))")
        // At the limit the text passes the length check, and its own rule says what it is.
        var at = Self.full()
        edit(&at, Draft.text(String(repeating: "a", count: 20)))
        let judged = TripValidator.validate(at, limits: limits).diagnostics.filter { $0.path == path }
        #expect(!judged.map(\.code).contains(.textTooLong), "\(judged.map(\.message))")
    }
}
