import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// The validator's rules for the trip-wide money fields (currency, rates, budgets, day hours)
/// and for fields a reader found unusable, each path with the diagnostic it gives.
@Suite struct ValidatorPathTests {
    static func trip(currency: Field<String> = .missing(Draft.here), rates: [(String, String)] = []) -> TripDraft {
        var trip = Draft.trip([Draft.destination()])
        trip.currency = currency
        trip.rates = rates.map { RateDraft(currency: Draft.text($0.0), value: Draft.text($0.1)) }
        return trip
    }

    func lines(_ draft: TripDraft) -> [String] {
        TripValidator.validate(draft).diagnostics.map {
            "\($0.severity) \($0.path ?? "-"): \($0.message) [\($0.code.rawValue)]"
        }
    }

    @Test func aSecondRateForOneCurrencyIsAnErrorNamingIt() {
        let draft = Self.trip(
            currency: Draft.text("EUR"), rates: [("SEK", "0.0871"), ("NOK", "0.0853"), ("SEK", "0.09")])
        #expect(lines(draft) == ["error rates.SEK: currency SEK has a rate already [duplicate-rate]"])
    }

    @Test func theTripsOwnCurrencyMayHaveARateOfOneOnly() {
        #expect(lines(Self.trip(currency: Draft.text("EUR"), rates: [("EUR", "1.0")])) == [])
        #expect(
            lines(Self.trip(currency: Draft.text("EUR"), rates: [("EUR", "1.01")])) == [
                "error rates.EUR: EUR is the trip's own currency, so its rate is 1, not 1.01 [bad-rate]"
            ])
    }

    @Test func aRateIsCheckedEvenWhenItsCurrencyIsNot() {
        #expect(
            lines(Self.trip(currency: Draft.text("EUR"), rates: [("sek", "x")])) == [
                "error rates.sek: currency \"sek\" is not an ISO 4217 code (three capital letters, like EUR); did you mean \"SEK\"? [bad-currency]",
                "error rates.sek: rate \"x\" is not a decimal number [bad-rate]",
            ])
        // A key that is not a plain name is quoted in the path.
        #expect(
            lines(Self.trip(currency: Draft.text("EUR"), rates: [("S K", "1")])).first
                == "error rates[\"S K\"]: currency \"S K\" is not an ISO 4217 code (three capital letters, like EUR) [bad-currency]"
        )
    }

    @Test func aRateWithoutAValueIsNamed() {
        var draft = Self.trip(currency: Draft.text("EUR"))
        draft.rates = [RateDraft(currency: Draft.text("SEK"), value: .missing(Draft.here))]
        #expect(lines(draft) == ["error rates.SEK: a rate needs a value [missing-field]"])
    }

    /// A GPX `dr:rate` may leave out its currency: an error, never a rate quietly dropped.
    ///
    /// One the reader already reported (`.invalid`) is not reported again.
    @Test func aRateWithoutACurrencyIsNamed() {
        var draft = Self.trip(currency: Draft.text("EUR"))
        draft.rates = [
            RateDraft(currency: .missing(Draft.here), value: Draft.text("0.1")),
            RateDraft(currency: .invalid, value: Draft.text("0.2")),
            RateDraft(currency: Draft.text("SEK"), value: Draft.text("0.0871")),
        ]
        #expect(lines(draft) == ["error rates: a rate needs a currency [missing-field]"])
    }

    @Test func ratesWithoutACurrencyAreAnErrorButNotWhenTheCurrencyIsMerelyInvalid() {
        #expect(
            lines(Self.trip(rates: [("SEK", "0.1")])) == [
                "error rates: rates convert into the trip's currency, but the trip has none; give the trip a currency [rates-without-currency]"
            ])
        // A currency the reader already reported (wrong type) is not "missing".
        #expect(lines(Self.trip(currency: .invalid, rates: [("SEK", "0.1")])) == [])
        #expect(
            lines(Self.trip(currency: Draft.text("eur"), rates: [("SEK", "0.1")])) == [
                "error currency: currency \"eur\" is not an ISO 4217 code (three capital letters, like EUR); did you mean \"EUR\"? [bad-currency]"
            ])
    }

    @Test func aCurrencyOutsideTheListIsAWarningNotAnError() throws {
        let draft = Self.trip(currency: Draft.text("QQQ"))
        #expect(
            lines(draft) == [
                "warning currency: currency QQQ is not in the ISO 4217 list of \(ISO4217.edition); check the code [unknown-currency]"
            ])
        #expect(TripValidator.validate(draft).trip?.rates?.currency.code == "QQQ")
    }

    @Test func budgetsAndDayHoursFollowTheirValuesRules() {
        var draft = Draft.trip([Draft.destination()])
        draft.budget = .present(MoneyDraft(amount: Draft.text("-1"), currency: Draft.text("EUR")), Draft.here)
        draft.dayHours = Draft.text("25")
        draft.stays[0].budget = .present(
            MoneyDraft(amount: .missing(Draft.here), currency: .missing(Draft.here)), Draft.here)
        draft.stays[0].dayHours = Draft.text("x")
        #expect(
            lines(draft) == [
                "error budget.amount: amount -1 is negative; an amount is zero or more [bad-amount]",
                "error day_hours: day hours \"25\" is not more than 0 and at most 24 [bad-day-hours]",
                "error destinations[0].budget.amount: a budget needs an amount [missing-field]",
                "error destinations[0].budget.currency: a budget needs a currency [missing-field]",
                "error destinations[0].day_hours: day hours \"x\" is not a decimal number of hours [bad-day-hours]",
            ])
    }

    @Test func aTravelModeOutsideTheFourIsNamed() {
        var draft = Draft.trip([Draft.destination(tasks: [[Draft.task(name: "A"), Draft.task(name: "B")]])])
        draft.travel = Draft.text("fly")
        draft.stays[0].detours[0].tasks[1].travel = Draft.text("Walk")
        #expect(
            lines(draft) == [
                "error travel: travel mode \"fly\" is not one of walk, cycle, transit, drive [bad-travel-mode]",
                "error destinations[0].detours[0].tasks[1].travel: travel mode \"Walk\" is not one of walk, cycle, transit, drive [bad-travel-mode]",
            ])
    }

    /// A field the reader marked invalid was reported by the reader; the validator says nothing
    /// more about it, and the trip is still refused for it by the reader's error.
    @Test func fieldsTheReaderFoundUnusableAreNotReportedAgain() {
        var task = Draft.task(name: "A")
        task.cost = .invalid
        task.coordinate = .invalid
        task.pros = [.invalid, Draft.text("ok")]
        task.travel = .invalid
        task.path = .invalid
        var stay = Draft.destination(tasks: [[task, Draft.task(name: "B")]])
        stay.coordinate = .present(CoordinateDraft(latitude: .invalid, longitude: Draft.text("1")), Draft.here)
        stay.arrival = .invalid
        var draft = Draft.trip([stay])
        draft.title = .invalid
        draft.traveler = .invalid
        draft.budget = .invalid
        draft.dayHours = .invalid
        let outcome = TripValidator.validate(draft)
        #expect(lines(draft) == [])
        // Nothing to say, yet no trip: an invalid title leaves it without one.
        #expect(outcome.trip == nil)
    }

    @Test func reasonsAreCheckedOneByOneWithTheirIndex() {
        let draft = Draft.trip([
            Draft.destination(tasks: [
                [Draft.task(name: "A", pros: ["fine", " "], cons: ["a\u{7}b"]), Draft.task(name: "B")]
            ])
        ])
        #expect(
            lines(draft) == [
                "error destinations[0].detours[0].tasks[0].pros[1]: a pro must not be blank [blank-text]",
                "error destinations[0].detours[0].tasks[0].cons[0]: a con contains the control character U+0007, which is not allowed [control-character]",
            ])
    }

    @Test func aPathIsCheckedPointByPointAndAgainstItsEnds() {
        var task = Draft.task(name: "A", location: Draft.coordinate("38.7", "-9.1"))
        task.path = .present(PathDraft(points: [Draft.point("38.7", "-9.1"), Draft.point("91", "-9.1")]), Draft.here)
        let bad = Draft.trip([Draft.destination(tasks: [[task, Draft.task(name: "B")]])])
        #expect(
            lines(bad) == [
                "error destinations[0].detours[0].tasks[0].path[1].lat: latitude 91 is outside [-90, 90] [coordinate-out-of-range]"
            ])
        task.path = .present(PathDraft(points: [Draft.point("38.7", "-9.1")]), Draft.here)
        let short = Draft.trip([Draft.destination(tasks: [[task, Draft.task(name: "B")]])])
        #expect(
            lines(short) == [
                "error destinations[0].detours[0].tasks[0].path: a path needs at least two points, this one has 1 [short-path]"
            ])
        // A path far from both ends: one warning for each end.
        task.path = .present(PathDraft(points: [Draft.point("39.7", "-9.1"), Draft.point("39.8", "-9.1")]), Draft.here)
        let far = Draft.trip([Draft.destination(tasks: [[task, Draft.task(name: "B")]])])
        #expect(TripValidator.validate(far).diagnostics.map(\.code) == [.pathFarFromEnds, .pathFarFromEnds])
        // A path with no task location is checked at its start only; the task needs no location.
        var located = Draft.task(name: "A", location: .missing(Draft.here))
        located.path = .present(
            PathDraft(points: [Draft.point("38.7", "-9.1"), Draft.point("38.8", "-9.1")]), Draft.here)
        let pathOnly = Draft.trip([Draft.destination(tasks: [[located, Draft.task(name: "B")]])])
        #expect(lines(pathOnly) == [])
    }
}

/// Quoting user text into messages: bounded, and unable to control a terminal.
@Suite struct QuotingTests {
    @Test func aQuotedValueKeepsEightyScalarsAndMarksTheCut() {
        let eighty = String(repeating: "é", count: 80)
        #expect(Quoting.quoted(eighty) == "\"\(eighty)\"")
        #expect(Quoting.quoted(eighty + "x") == "\"\(eighty)…\"")
        #expect(Quoting.quoted("abc", limit: 2) == "\"ab…\"")
    }

    @Test func quotesBackslashesAndControlsAreEscapedAndBidiControlsToo() {
        #expect(Quoting.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(Quoting.quoted("\u{1B}[31m") == #""\u{1B}[31m""#)
        for scalar: UInt32 in [0x00, 0x1F, 0x7F, 0x80, 0x9F, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069] {
            let text = "a" + String(UnicodeScalar(scalar) ?? "?") + "b"
            let hex = String(scalar, radix: 16, uppercase: true)
            #expect(Quoting.printable(text) == "a\\u{\(hex)}b")
            #expect(Quoting.quoted(text) == "\"a\\u{\(hex)}b\"")
        }
        for scalar: UInt32 in [0x20, 0x7E, 0xA0, 0x200D, 0x2010, 0x2029, 0x202F, 0x2065, 0x206A] {
            let text = "a" + String(UnicodeScalar(scalar) ?? "?") + "b"
            #expect(Quoting.printable(text) == text, "U+\(String(scalar, radix: 16))")
        }
    }

    @Test func codePointsAreWrittenAsUnicodeWritesThem() {
        #expect(Quoting.codePoint(0x9) == "U+0009")
        #expect(Quoting.codePoint(0x1F600) == "U+1F600")
        #expect(Quoting.hex4(0xD800) == "D800")
    }

    @Test func aPathKeyThatIsNotAPlainNameIsQuotedInBrackets() {
        #expect(TripPath.member("", "title") == "title")
        #expect(TripPath.member("destinations[0]", "name_2$") == "destinations[0].name_2$")
        #expect(TripPath.member("rates", "2x") == "rates[\"2x\"]")
        #expect(TripPath.member("rates", "") == "rates[\"\"]")
        #expect(TripPath.member("rates", "a-b") == "rates[\"a-b\"]")
        #expect(TripPath.member("", "é") == "[\"é\"]")
    }
}

@Suite struct SourcePositionTests {
    @Test func unknownPartsStayUnknownAndAnOffsetResolvesOnce() {
        var position = SourcePosition(offset: 12)
        #expect(position.offset == 12)
        #expect(position.line == nil)
        position = position.resolvingPosition { offset in (offset / 10 + 1, offset % 10 + 1) }
        #expect(position.line == 2)
        #expect(position.column == 3)
        // Already resolved: left as it is.
        #expect(position.resolvingPosition { _ in (99, 99) }.line == 2)
        // No offset: nothing to resolve.
        #expect(SourcePosition(line: 4).resolvingPosition { _ in (99, 99) }.line == 4)
        #expect(SourcePosition.unknown.offset == nil)
        #expect(SourcePosition(offset: -3).offset == nil)
    }

    @Test func fieldsKnowTheirValueAndWhereTheyWere() {
        let here = SourcePosition(line: 3)
        #expect(Field<String>.present("x", here).value == "x")
        #expect(Field<String>.present("x", here).position == here)
        #expect(Field<String>.missing(here).value == nil)
        #expect(Field<String>.missing(here).position == here)
        #expect(Field<String>.invalid.value == nil)
        #expect(Field<String>.invalid.position == nil)
    }
}

@Suite struct CalendarDayEdgeTests {
    @Test func daysBeforeYearOneAndAfterYear9999AreNotDays() {
        let first = CalendarDay(year: 1, month: 1, day: 1)
        #expect(first?.adding(days: -1) == nil)
        #expect(CalendarDay(daysSinceEpoch: -1_000_000) == nil)
        #expect(CalendarDay(daysSinceEpoch: -719_162)?.description == "0001-01-01")
        #expect(CalendarDay(year: 9999, month: 12, day: 31)?.adding(days: 1) == nil)
        #expect(CalendarDay(unixSeconds: -1)?.description == "1969-12-31")
        #expect(CalendarDay(unixSeconds: -86_400)?.description == "1969-12-31")
        #expect(CalendarDay(unixSeconds: -86_401)?.description == "1969-12-30")
    }

    @Test(arguments: ["2026-1a-01", "2026-01-0b", "2O26-01-01", "2026/01/01", "2026-01-011", " 2026-01-01"])
    func aDayWithAnythingButDigitsInItsPlacesIsNotADay(_ text: String) {
        #expect(CalendarDay(iso: text) == nil)
    }
}
