import Foundation
import Testing

@testable import DetourCore
@testable import DetourRender

/// Every sentence the reports build from a plan's figures, one case each: why a side is
/// recommended, what a budget came to, which rule chose, and how numbers are written.
@Suite struct PlanSentenceTests {
    /// `text` euros, with cents.
    static func euros(_ text: String) -> Money {
        guard let amount = Decimal(string: text), let code = CurrencyCode("EUR") else {
            fatalError("a bad test amount")
        }
        return Money(amount: amount, currency: code, scale: 2)
    }

    static let eur = euros("1.5")

    @Test(arguments: [
        (Recommendation.Reason.lessTotalTime(minutes: 170), Preference.time, "2 h 50 min less in all, travel included"),
        (.cheaper(eur), .cost, "cheaper by 1.50 EUR"),
        (.nearer(metres: 1250), .distance, "1.3 km less to travel each way"),
        (.tieThenCheaper(eur), .time, "same total time, and cheaper by 1.50 EUR"),
        (.tieThenLessTotalTime(minutes: 25), .cost, "same cost, and 25 min less in all"),
        (.tieThenLessTotalTime(minutes: 25), .distance, "same distance, and 25 min less in all"),
        (.draft, .time, "a side is still undecided"),
        (.unknownFigure, .distance, "a figure the rule needs is unknown (a task without a location or path)"),
        (.differentCurrencies, .cost, "the costs are in different currencies"),
        (.tie, .time, "the two sides are even"),
    ])
    func everyReasonHasItsSentence(reason: Recommendation.Reason, preference: Preference, text: String) {
        #expect(Formatting.reason(Recommendation(side: 0, preference: preference, reason: reason)) == text)
    }

    static func outcome(
        spent: String?, within: Bool, optimal: Bool = true, bound: Int? = nil, chose: Bool = true,
        unconverted: [String] = []
    ) -> BudgetOutcome {
        BudgetOutcome(
            budget: euros("100"), spent: spent.map(euros), within: within, optimal: optimal, lowerBoundMinutes: bound,
            chose: chose, over: nil, unconverted: unconverted.compactMap(CurrencyCode.init))
    }

    @Test(arguments: [
        (outcome(spent: "80", within: true), "Budget 100.00 EUR: 80.00 EUR spent, within; the least time, proven"),
        (
            outcome(spent: "80", within: true, optimal: false, bound: 95),
            "Budget 100.00 EUR: 80.00 EUR spent, within; the best found, and no choice takes less than 1 h 35 min"
        ),
        (outcome(spent: "80", within: true, optimal: false), "Budget 100.00 EUR: 80.00 EUR spent, within"),
        (
            outcome(spent: "120", within: false),
            "Budget 100.00 EUR: 120.00 EUR spent, over; the cheapest sides are chosen"
        ),
        (
            outcome(spent: "120", within: false, chose: false),
            "Budget 100.00 EUR: 120.00 EUR spent, over; checked only, since stays have budgets of their own"
        ),
        (
            outcome(spent: nil, within: false, optimal: false, unconverted: ["NOK", "SEK"]),
            "Budget 100.00 EUR: spent unknown, since no declared rate converts NOK, SEK; not judged"
        ),
    ])
    func everyBudgetOutcomeHasItsSentence(outcome: BudgetOutcome, text: String) {
        #expect(Formatting.budget(outcome) == text)
    }

    @Test(arguments: [
        (
            Preference.time,
            "the side with the least total time (duration plus travel there and back); on a tie, the cheaper"
        ),
        (.cost, "the cheaper side (same currency only); on a tie, the one with the least total time"),
        (.distance, "the side with the shortest travel; on a tie, the one with the least total time"),
    ])
    func theFootnoteNamesTheRuleThatChose(preference: Preference, rule: String) throws {
        let trip = Trip(title: "T", traveler: nil, destinations: [])
        let plan = Planner.plan(
            trip, today: CalendarDay(iso: "2026-11-22") ?? .unixEpoch, options: Planner.Options(preference: preference))
        #expect(ReportModel.footnotes(plan).first == "Recommended: \(rule).")
    }

    /// Plain notation whatever the size: never `1e+20`, which neither RFC 5545 nor GeoJSON
    /// readers are sure to take.
    @Test(arguments: [
        (12.345, 2, "12.35"), (-0.004, 2, "0.00"), (-2.5, 0, "-3"), (1e20, 1, "100000000000000000000"),
        (-2.5e15, 0, "-2500000000000000"),
    ])
    func fixedIsPlainAndRoundsHalfAwayFromZero(value: Double, digits: Int, text: String) {
        #expect(Formatting.fixed(value, digits: digits) == text)
    }

    @Test func degreesDropTrailingZerosAndAWholeNumberHasNoPoint() {
        #expect(Formatting.degrees(-9.1393, digits: 4) == "-9.1393")
        #expect(Formatting.degrees(38.5, digits: 4) == "38.5")
        #expect(Formatting.degrees(38.0, digits: 4) == "38")
        #expect(Formatting.degrees(38.4, digits: 0) == "38")
    }
}

/// A budget the chosen sides exceed is flagged, for the trip and for a stay; one that cannot be
/// judged is not called over.
@Suite struct OverBudgetFlagTests {
    static func trip(budget: String, currency: String) -> String {
        """
        {"title": "T", "budget": {"amount": \(budget), "currency": "\(currency)"}, "destinations": [
         {"name": "S", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01", "departure": "2026-12-05",
          "budget": {"amount": \(budget), "currency": "\(currency)"},
          "detours": [{"tasks": [
           {"name": "A", "duration": "1h", "cost": {"amount": 25, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}},
           {"name": "B", "duration": "2h", "cost": {"amount": 30, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}}]}]}]}
        """
    }

    @Test(arguments: [("10", "EUR", true), ("100", "EUR", false), ("10", "USD", false)])
    func overBudgetIsFlaggedOnlyWhenJudged(budget: String, currency: String, over: Bool) throws {
        let (plan, warnings) = try RenderFixture.plan(Array(Self.trip(budget: budget, currency: currency).utf8))
        #expect(OverviewModel(plan, warningCount: warnings.count).overBudget == over)
        let stay = try #require(plan.sections.flatMap(\.destinations).first)
        #expect(StayPlanModel(stay).overBudget == over)
    }

    /// The planner's warnings (over budget, here) are listed in every report beside the trip
    /// file's own, as the command line prints them.
    @Test func thePlannersWarningsAreInEveryReport() throws {
        let bytes = Array(Self.trip(budget: "10", currency: "EUR").utf8)
        let json = try RenderFixture.render(bytes, as: .json)
        #expect(json.contains("\"over-budget\""), "\(json)")
        for format in [ReportFormat.html, .markdown] {
            let report = try RenderFixture.render(bytes, as: format)
            // The trip and its stay are each over: two warnings, each with its code.
            #expect(report.contains("2 warnings, listed at the end"), "\(format)")
            let code = format == .markdown ? Escaping.markdown("over-budget") : "over-budget"
            #expect(report.components(separatedBy: code).count - 1 == 2, "\(format)")
        }
    }
}

/// Units a reader cannot confuse: minutes are `min`, metres `m`; large numbers are grouped.
@Suite struct UnitTests {
    @Test(arguments: [
        (0, "0 min"), (11, "11 min"), (60, "1 h"), (90, "1 h 30 min"), (1440, "1 d"), (2 * 1440 + 180, "2 d 3 h"),
        (1001 * 1440 + 1, "1,001 d 1 min"),
    ])
    func minutes(_ count: Int, _ text: String) {
        #expect(Formatting.minutes(count) == text)
    }

    @Test(arguments: [
        (849.6, "850 m"), (999.4, "999 m"), (999.5, "1.0 km"), (12_345, "12.3 km"), (99_949, "99.9 km"),
        (99_950, "100 km"), (999_499, "999 km"), (999_500, "1,000 km"), (4_327_000, "4,327 km"),
    ])
    func distances(_ metres: Double, _ text: String) {
        #expect(Formatting.distance(metres) == text)
    }

    @Test func moneyIsGroupedInReportsAndPlainInJSON() throws {
        let euro = try #require(CurrencyCode("EUR"))
        #expect(Formatting.money(Money(amount: 1250, currency: euro, scale: 2)) == "1,250.00 EUR")
        #expect(Formatting.money(Money(amount: 999.5, currency: euro)) == "999.50 EUR")
        let trip = """
            {"title": "T", "destinations": [{"name": "L", "location": {"lat": 38.7, "lon": -9.1},
             "arrival": "2026-12-01", "departure": "2026-12-03", "detours": [{"tasks": [
              {"name": "Dinner", "duration": "2h", "cost": {"amount": 1250, "currency": "EUR"}, "location": {"lat": 38.71, "lon": -9.13}},
              {"name": "Picnic", "duration": "90m", "cost": {"amount": 12.5, "currency": "EUR"}, "location": {"lat": 38.71, "lon": -9.13}}]}]}]}
            """
        let markdown = try RenderFixture.render(Array(trip.utf8), as: .markdown)
        #expect(markdown.contains("1,250.00 EUR"))
        #expect(markdown.contains("1 h 30 min"))
        #expect(!markdown.contains("30m"))
        let json = try RenderFixture.render(Array(trip.utf8), as: .json)
        #expect(json.contains("\"amount\": 1250.00"), "\(json)")
        #expect(!json.contains("1,250"))
    }
}
