import DetourTestSupport
import Foundation
import Testing

@testable import DetourCore

/// The number grammar and the values built on it, at the places where their forms part ways.
@Suite struct NumberTextEdgeTests {
    @Test func signsAndExponentsInEveryForm() throws {
        #expect(try #require(NumberText("+1.5")).plain == "1.5")
        #expect(try #require(NumberText("-1.5")).plain == "-1.5")
        #expect(try #require(NumberText("1e+2")).plain == "100")
        #expect(try #require(NumberText("1E-2")).plain == "0.01")
        #expect(try #require(NumberText("-0")).isNegative == false)
        #expect(try #require(NumberText("0.000")).digits.isEmpty)
        for text in ["", "+", "-", "1e", "1e+", ".5", "1.", "1.e5", "--1", "1-", "0x1", "1_000", "١"] {
            #expect(NumberText(text) == nil, "\(text)")
        }
    }

    @Test func aThousandSignificantDigitsIsTheMostReadAndDecimalsHoldNineteen() throws {
        let digits999 = "1" + String(repeating: "3", count: 998)
        #expect(NumberText(digits999)?.digits.count == 999)
        #expect(NumberText(digits999 + "3") != nil)
        #expect(NumberText(digits999 + "33") == nil)
        // Leading zeros do not count; zeros after the first significant digit do, as written.
        #expect(NumberText("0.0000" + digits999 + "3") != nil)
        #expect(NumberText("0.0000" + digits999 + "30") == nil)
        #expect(try #require(NumberText("1234567890123456789")).decimal != nil)
        #expect(try #require(NumberText("12345678901234567891")).decimal == nil)
        #expect(try #require(NumberText("-12.5")).decimal == Decimal(string: "-12.5"))
        #expect(try #require(NumberText("1e127")).decimal != nil)
        #expect(try #require(NumberText("1e128")).decimal == nil)
        #expect(try #require(NumberText("1e-128")).decimal != nil)
        #expect(try #require(NumberText("1e-129")).decimal == nil)
    }

    /// The coordinate parser hands grammar-checked text to Swift's own parser: every shape the
    /// grammar allows must be one it reads, to the same value as the plain form.
    @Test func everyShapeTheGrammarAllowsIsReadByTheCoordinateParser() throws {
        var random = SplitMix(seed: 90)
        for _ in 0..<3000 {
            var text = ["", "-", "+"][Int.random(in: 0..<3, using: &random)]
            text += String(repeating: "0", count: Int.random(in: 0...2, using: &random))
            text += String(Int.random(in: 0...99, using: &random))
            if Bool.random(using: &random) { text += "." + String(Int.random(in: 0...99_999, using: &random)) }
            if Bool.random(using: &random) {
                text +=
                    ["e", "E"][Int.random(in: 0..<2, using: &random)]
                    + ["", "-", "+"][Int.random(in: 0..<3, using: &random)]
                text += String(Int.random(in: 0...3, using: &random))
            }
            let number = try #require(NumberText(text), "\(text)")
            let value = try? Coordinate.parse(text, axis: .longitude)
            let plain = Double(number.plain) ?? .nan
            if abs(plain) <= 180 {
                #expect(value == (plain == 0 ? 0 : plain), "\(text)")
            } else {
                #expect(value == nil, "\(text)")
            }
        }
        #expect(try Coordinate.parse("-0", axis: .latitude).sign == .plus)
    }

    @Test func refusalsSayWhatWasWrong() {
        #expect(throws: Money.ParseError.notANumber) { try Money.parseAmount("ten") }
        #expect(Money.message(.notANumber, text: "ten") == "amount \"ten\" is not a decimal number")
        #expect(Money.message(.tooLarge, text: "1e13") == "amount 1e13 is out of range (at most 1000000000000)")
        #expect(throws: ExchangeRates.ParseError.notANumber) { try ExchangeRates.parse("x") }
        #expect(ExchangeRates.message(.tooLarge, text: "1e9") == "rate \"1e9\" is out of range (below 1000000000)")
        #expect(throws: DayHours.ParseError.notANumber) { try DayHours.parse("1.00000000000000000000001") }
        #expect(throws: TaskDuration.ParseError.notADuration) { try TaskDuration.parse("PT1HT30M") }
        #expect(throws: TaskDuration.ParseError.notADuration) { try TaskDuration.parse("P1DT") }
        #expect(throws: TaskDuration.ParseError.notADuration) { try TaskDuration.parse("PT") }
        #expect(throws: TaskDuration.ParseError.calendarUnit) { try TaskDuration.parse("P1M") }
        #expect(throws: TaskDuration.ParseError.notADuration) { try TaskDuration.parse("1h1d") }
        #expect(throws: TaskDuration.ParseError.notPositive) { try TaskDuration.parse("-1h") }
        #expect(
            TaskDuration.message(.partialMinute, text: "PT30S") == "duration \"PT30S\" is not a whole number of minutes"
        )
    }

    @Test func codesAndAddressesDescribeThemselvesAsWritten() throws {
        #expect("\(try #require(CurrencyCode("EUR")))" == "EUR")
        #expect("\(try #require(EmailAddress("ana@example.org")))" == "ana@example.org")
        #expect("\(try #require(TaskDuration(minutes: 1501)))" == "1d 1h 1m")
    }
}

/// Printing amounts from their whole number of smallest units, at the edges of that method.
@Suite struct AmountTextEdgeTests {
    @Test func trailingZerosAfterThePointAreFoldedBeforePadding() {
        // 2.5 × 0.2 = 0.50, kept by Decimal as 50 × 10^-2.
        let product = Decimal(sign: .plus, exponent: -2, significand: 50)
        #expect(Money.plain(product, scale: 2) == "0.50")
        #expect(Money.plain(product, scale: 0) == "0.5")
        #expect(Money.plain(Decimal(sign: .plus, exponent: -3, significand: 1200), scale: 1) == "1.2")
        #expect(Money.plain(Decimal(sign: .minus, exponent: -2, significand: 700), scale: 2) == "-7.00")
    }

    @Test func amountsBeyondTheIntegerMethodFallBackToTheDescription() {
        // 19 places after the point: past the table of powers of ten.
        let tiny = Decimal(sign: .plus, exponent: -19, significand: 5)
        #expect(Money.plainFromInteger(tiny, scale: 2) == nil)
        #expect(Money.plain(tiny, scale: 2) == "0.0000000000000000005")
        #expect(Money.plainFromInteger(.nan, scale: 2) == nil)
    }
}

/// The planner's paths that only some trips take.
@Suite struct PlannerPathTests {
    static let today = Build.day("2026-11-22")

    @Test func aSideChosenWithoutAKnownTravelTimeCountsItsDuration() throws {
        // Preferring cost picks the cheaper side even though neither has a location.
        let detours = [
            Detour(tasks: [
                Build.task("A", minutes: 45, cost: Build.money("1")),
                Build.task("B", minutes: 30, cost: Build.money("2")),
            ])
        ]
        let trip = Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-02", detours: detours)])
        let plan = Planner.plan(trip, today: Self.today, options: Planner.Options(preference: .cost))
        #expect(plan.sections.flatMap(\.destinations).first?.detours.first?.chosen == 0)
        #expect(plan.totals.minutes == 45)
    }

    @Test func aTripBudgetThatIsOnlyCheckedSaysSoWhenExceeded() throws {
        var stay = Build.stay(
            "S", "2026-12-01", "2026-12-02",
            detours: [
                Detour(tasks: [
                    Build.task("A", minutes: 45, cost: Build.money("10"), at: Build.point(0, 0)),
                    Build.task("B", minutes: 90, cost: Build.money("12"), at: Build.point(0, 0)),
                ])
            ])
        stay.budget = Build.money("100")
        let trip = Trip(title: "T", traveler: nil, destinations: [stay], budget: Build.money("5"))
        let plan = Planner.plan(trip, today: Self.today)
        #expect(plan.budget?.chose == false)
        #expect(plan.budget?.optimal == true)
        #expect(
            plan.warnings.map(\.message) == ["the chosen sides cost 10.00 EUR, 5.00 EUR over the budget of 5.00 EUR"])
    }

    @Test func aDraftUnderABudgetCostsNothingAndStaysUndecided() throws {
        let detours = [
            Detour(tasks: [Build.task("Only", minutes: 45, cost: Build.money("10"), at: Build.point(0, 0))]),
            Detour(tasks: [
                Build.task("A", minutes: 45, cost: Build.money("3"), at: Build.point(0, 0)),
                Build.task("B", minutes: 90, cost: Build.money("0"), at: Build.point(0, 0)),
            ]),
        ]
        let trip = Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-02", detours: detours)],
            budget: Build.money("3"))
        let plan = Planner.plan(trip, today: Self.today)
        #expect(plan.sections.flatMap(\.destinations).first?.detours.map(\.chosen) == [nil, 0])
        #expect(plan.budget?.spent?.description == "3.00 EUR")
        #expect(plan.totals.undecided == 1)
    }

    @Test func aBudgetWhoseSearchRunsLongGivesTheBestFoundAndABound() throws {
        var random = SplitMix(seed: 41)
        let here = Build.point(0, 0)
        var detours = (0..<45).map { index in
            PlannedDetour.planned([
                Build.task(
                    "fast \(index)", minutes: 60, cost: Build.money("\(Int.random(in: 100...200, using: &random))"),
                    at: here),
                Build.task(
                    "slow \(index)", minutes: 60 + Int.random(in: 100...200, using: &random), cost: Build.money("0"),
                    at: here),
            ])
        }
        let outcome = Budget.apply(&detours, budget: Build.money("3000"), rates: nil, choose: true, nodeLimit: 0)
        #expect(!outcome.optimal)
        let bound = try #require(outcome.lowerBoundMinutes)
        let minutes = detours.reduce(0) { sum, detour in
            sum + (detour.chosen.map { detour.tasks[$0].totalMinutes ?? 0 } ?? 0)
        }
        #expect(bound <= minutes)
        #expect(bound > 0)
        #expect(outcome.within)
    }

    @Test func aSideThatFitsNoDayOfAOneNightStayIsNamed() throws {
        let detours = [
            Detour(tasks: [
                Build.task("Marathon", minutes: 700, at: Build.point(0, 0)),
                Build.task("B", minutes: 800, at: Build.point(0, 0)),
            ])
        ]
        let trip = Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-02", detours: detours)])
        let plan = Planner.plan(trip, today: Self.today)
        #expect(plan.warnings.map(\.message) == ["1 chosen side does not fit on the 1 day of 10 h: \"Marathon\""])
    }
}

extension PlannedDetour {
    /// A detour of `tasks` planned at its stay (no travel), by the time rule.
    static func planned(_ tasks: [DetourTask]) -> PlannedDetour {
        let stay = Build.stay("S", "2026-12-01", "2026-12-30", detours: [Detour(tasks: tasks)])
        return Planner.plan(stay).detours[0]
    }
}
