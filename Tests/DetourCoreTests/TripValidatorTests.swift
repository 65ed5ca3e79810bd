import DetourCore
import Testing

@Suite struct TripValidatorTests {
    func messages(_ draft: TripDraft, _ severity: Severity = .error) -> [String] {
        TripValidator.validate(draft).diagnostics.filter { $0.severity == severity }.map {
            "\($0.path ?? ""): \($0.message)"
        }
    }

    func codes(_ draft: TripDraft, limits: TripLimits = .standard) -> [String] {
        TripValidator.validate(draft, limits: limits).diagnostics.map { "\($0.path ?? ""): \($0.code.rawValue)" }
    }

    @Test func aValidDraftBecomesATrip() throws {
        let draft = Draft.trip(
            traveler: "ana@example.org",
            [Draft.destination(tasks: [[Draft.task(name: "Tram"), Draft.task(name: "Walk")]])])
        let outcome = TripValidator.validate(draft)
        #expect(outcome.diagnostics.isEmpty)
        let trip = try #require(outcome.trip)
        #expect(trip.traveler?.text == "ana@example.org")
        #expect(trip.destinations[0].detours[0].title == "Tram or Walk")
        #expect(trip.destinations[0].nights == 4)
    }

    @Test func reportsEveryProblemAtOnceWithItsPath() {
        let draft = Draft.trip(
            traveler: "a@bc",
            [
                Draft.destination(arrival: "2026-12-01", departure: "2026-11-28"),
                Draft.destination(name: "  ", lat: "91", tasks: [[Draft.task(duration: "PT")]]),
            ])
        let outcome = TripValidator.validate(draft)
        #expect(outcome.trip == nil)
        #expect(
            messages(draft) == [
                "traveler: \"a@bc\" is not an email address: it needs one character either side of an \"@\", and a \".\" between two characters after it",
                "destinations[0].departure: departure 2026-11-28 is not after arrival 2026-12-01",
                "destinations[1].name: the name must not be blank",
                "destinations[1].location.lat: latitude 91 is outside [-90, 90]",
                "destinations[1].detours[0].tasks[0].duration: duration \"PT\" is not a duration (write PT1H30M, 1h30m, 90m or 2h)",
            ])
    }

    @Test func departureMustBeStrictlyAfterArrival() {
        let sameDay = Draft.trip([Draft.destination(arrival: "2026-12-01", departure: "2026-12-01")])
        #expect(
            messages(sameDay) == ["destinations[0].departure: departure 2026-12-01 is not after arrival 2026-12-01"])
    }

    /// A calendar ends a stay's all-day event the day after its departure: 9999-12-30 is the
    /// last departure that has one; 9999-12-31 was accepted and exported as ending that day.
    @Test func aStayEndsByTheLastDayThatHasADayAfterIt() {
        let last = Draft.trip([Draft.destination(arrival: "9999-12-29", departure: "9999-12-30")])
        #expect(messages(last) == [])
        let past = Draft.trip([Draft.destination(arrival: "9999-12-29", departure: "9999-12-31")])
        #expect(
            messages(past) == [
                "destinations[0].departure: departure 9999-12-31 is the last day there is; a stay must end by 9999-12-30, as a calendar ends it the day after"
            ])
    }

    /// A mistyped year made a stay of 370,000 days, whose report took minutes and 17 MB.
    @Test func aStayOfMoreThan366NightsIsRefused() {
        let year = Draft.trip([Draft.destination(arrival: "2026-01-01", departure: "2027-01-02")])
        #expect(messages(year) == [])
        let longer = Draft.trip([Draft.destination(arrival: "2026-01-01", departure: "2027-01-03")])
        #expect(
            messages(longer) == [
                "destinations[0].departure: the stay lasts 367 nights, more than the limit of 366; is a year mistyped?"
            ])
        let typo = Draft.trip([Draft.destination(arrival: "1013-11-18", departure: "2026-11-20")])
        #expect(codes(typo) == ["destinations[0].departure: stay-too-long"])
    }

    @Test func theTripsNightsAreLimitedInAllOnceAtTheStayPastTheLimit() {
        let stays = (0..<4).map { _ in Draft.destination(arrival: "2026-12-01", departure: "2026-12-11") }
        let limits = TripLimits(maxStayNights: 366, maxNights: 25)
        #expect(codes(Draft.trip(stays), limits: limits) == ["destinations[2].departure: too-many-nights"])
        #expect(codes(Draft.trip(Array(stays.prefix(2))), limits: limits) == [])
    }

    @Test func anImpossibleDateIsNamedNotRolledOver() {
        let draft = Draft.trip([Draft.destination(arrival: "2026-02-30", departure: "2026-03-02")])
        #expect(
            messages(draft) == ["destinations[0].arrival: arrival \"2026-02-30\" is not a calendar day (YYYY-MM-DD)"])
    }

    @Test func draftsAreWarningsAndMoreThanTwoTasksIsAnError() {
        let drafts = Draft.trip([Draft.destination(tasks: [[], [Draft.task()]])])
        #expect(TripValidator.validate(drafts).trip != nil)
        #expect(
            messages(drafts, .warning) == [
                "destinations[0].detours[0]: draft detour: no tasks yet, both sides are undecided",
                "destinations[0].detours[1]: draft detour: one task, the other side is undecided",
            ])
        let three = Draft.trip([Draft.destination(tasks: [[Draft.task(), Draft.task(), Draft.task()]])])
        #expect(
            messages(three) == [
                "destinations[0].detours[0].tasks: a detour is a choice between two tasks, this one has 3"
            ])
    }

    @Test func aTaskWithoutLocationIsAWarning() {
        var task = Draft.task()
        task.coordinate = .missing(Draft.here)
        let outcome = TripValidator.validate(Draft.trip([Draft.destination(tasks: [[task, Draft.task()]])]))
        #expect(outcome.trip != nil)
        #expect(outcome.diagnostics.map(\.message) == ["no location, so its distance is unknown"])
        #expect(
            codes(Draft.trip([Draft.destination(tasks: [[task, Draft.task()]])])) == [
                "destinations[0].detours[0].tasks[0].location: task-without-location"
            ])
    }

    @Test func missingRequiredFieldsAreNamed() {
        let here = Draft.here
        let draft = TripDraft(
            position: here, title: .missing(here), traveler: .missing(here),
            destinations: .present(
                [
                    DestinationDraft(
                        position: here, name: .missing(here), coordinate: .missing(here),
                        arrival: .missing(here), departure: .invalid, detours: [])
                ], here))
        #expect(
            messages(draft) == [
                "title: a trip needs a title", "destinations[0].name: a destination needs a name",
                "destinations[0].location: a destination needs a location",
                "destinations[0].arrival: a destination needs an arrival day",
            ])
        #expect(Set(TripValidator.validate(draft).diagnostics.map(\.code)) == [.missingField])
    }

    @Test func taskRulesCoverCostDurationAndReasons() {
        let task = Draft.task(
            duration: "-PT2H", amount: "-25", currency: "eur", pros: ["fine", " \n "], cons: ["ok"])
        let draft = Draft.trip([Draft.destination(tasks: [[], [task]])])
        #expect(
            messages(draft) == [
                "destinations[0].detours[1].tasks[0].duration: duration \"-PT2H\" is not positive",
                "destinations[0].detours[1].tasks[0].cost.amount: amount -25 is negative; an amount is zero or more",
                "destinations[0].detours[1].tasks[0].cost.currency: currency \"eur\" is not an ISO 4217 code (three capital letters, like EUR); did you mean \"EUR\"?",
                "destinations[0].detours[1].tasks[0].pros[1]: a pro must not be blank",
            ])
        #expect(
            codes(draft) == [
                "destinations[0].detours[0]: draft-detour",
                "destinations[0].detours[1]: draft-detour",
                "destinations[0].detours[1].tasks[0].duration: bad-duration",
                "destinations[0].detours[1].tasks[0].cost.amount: bad-amount",
                "destinations[0].detours[1].tasks[0].cost.currency: bad-currency",
                "destinations[0].detours[1].tasks[0].pros[1]: blank-text",
            ])
    }

    @Test func controlCharactersAreRefusedAndWhiteSpaceIsFolded() throws {
        let bad = Draft.trip([Draft.destination(name: "Zu\u{0}rich")])
        #expect(
            messages(bad) == [
                "destinations[0].name: the name contains the control character U+0000, which is not allowed"
            ])
        let folded = Draft.trip(
            title: " Lisbon\tin\r\nDecember ",
            [Draft.destination(tasks: [[Draft.task(pros: ["line one\r\nline two"]), Draft.task()]])])
        let trip = try #require(TripValidator.validate(folded).trip)
        #expect(trip.title == "Lisbon in December")
        #expect(trip.destinations[0].detours[0].tasks[0].pros == ["line one\nline two"])
    }
}

@Suite struct TextRulesTests {
    @Test(arguments: [
        ("Zürich", "Zürich"), ("  a  b ", "a b"), ("a\tb", "a b"), ("a\u{2028}b", "a b"), ("Ā", "Ā"),
        ("a\u{2029}", "a"), ("e\u{301}", "e\u{301}"),
    ])
    func singleLineFoldsWhiteSpace(_ text: String, _ expected: String) throws {
        #expect(try TextRules.singleLine(text) == expected)
    }

    @Test(arguments: ["a\u{85}b", "a\u{9B}b", "a\u{7F}", "\u{1B}[31m", "a\u{0}"])
    func controlCharactersAreRefusedEvenInsideOtherwisePlainText(_ text: String) {
        #expect(throws: (any Error).self) { try TextRules.singleLine(text) }
        #expect(throws: (any Error).self) { try TextRules.multiLine(text) }
    }

    @Test(arguments: ["", " ", "\t\n", "\u{2028}"])
    func blankTextIsRefused(_ text: String) {
        #expect(throws: TextRules.Problem.blank) { try TextRules.singleLine(text) }
    }
}
