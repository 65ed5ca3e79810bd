import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// A budget in another currency than the costs, or than the trip: judged exactly in the trip's
/// currency with the declared rates, or not judged at all, with a warning; never a wrong verdict.
@Suite struct BudgetCurrencyTests {
    static let today = Build.day("2026-11-22")
    static let here = Build.point(0, 0)

    static func side(_ name: String, minutes: Int, cost: String, _ currency: String = "EUR") -> DetourTask {
        Build.task(name, minutes: minutes, cost: Build.money(cost, currency), at: here)
    }

    static func rates(_ table: [String: String]) throws -> ExchangeRates {
        var rates: [CurrencyCode: Decimal] = [:]
        for (code, rate) in table { rates[try #require(CurrencyCode(code))] = try ExchangeRates.parse(rate) }
        return ExchangeRates(currency: try #require(CurrencyCode("EUR")), rates: rates)
    }

    static func trip(_ detours: [Detour], budget: Money, rates: ExchangeRates?) -> Trip {
        Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-05", detours: detours)],
            rates: rates, budget: budget)
    }

    /// The case that was judged wrong: 25.70 EUR of costs against a budget of 100 USD, at 0.9 EUR
    /// to the dollar, was "not within" with nothing spent.
    @Test func aBudgetInAnotherCurrencyWithARateIsJudgedInTheTripsCurrency() throws {
        let detours = [
            Detour(tasks: [Self.side("A", minutes: 60, cost: "25.70"), Self.side("B", minutes: 90, cost: "0")])
        ]
        let plan = Planner.plan(
            Self.trip(detours, budget: Build.money("100", "USD"), rates: try Self.rates(["USD": "0.9"])),
            today: Self.today)
        let budget = try #require(plan.budget)
        #expect(budget.within)
        #expect(budget.optimal)
        // 25.70 EUR is 28.5555… USD, shown rounded once.
        #expect(budget.spent?.description == "28.56 USD")
        #expect(budget.unconverted.isEmpty)
        #expect(plan.warnings.isEmpty)
    }

    @Test func theVerdictIsExactAtTheEdgeOfAConvertedBudget() throws {
        // 10 USD at 0.9 is exactly 9 EUR: a faster side costing 9.00 EUR fits, 9.01 EUR does not.
        func chosen(_ cost: String) throws -> (Int?, BudgetOutcome?) {
            let detours = [
                Detour(tasks: [Self.side("fast", minutes: 60, cost: cost), Self.side("slow", minutes: 120, cost: "0")])
            ]
            let plan = Planner.plan(
                Self.trip(detours, budget: Build.money("10", "USD"), rates: try Self.rates(["USD": "0.9"])),
                today: Self.today)
            return (plan.sections.flatMap(\.destinations).first?.detours.first?.chosen, plan.budget)
        }
        let (fits, outcome) = try chosen("9.00")
        #expect(fits == 0)
        #expect(outcome?.spent?.description == "10.00 USD")
        #expect(outcome?.within == true)
        #expect(try chosen("9.01").0 == 1)
    }

    @Test func costsInTheBudgetsCurrencyAndOthersMixExactly() throws {
        // A SEK budget in a EUR trip: costs in SEK, in EUR and in NOK, all converted into EUR.
        let rates = try Self.rates(["SEK": "0.0871", "NOK": "0.0853"])
        let detours = [
            Detour(tasks: [
                Self.side("a", minutes: 60, cost: "100", "SEK"), Self.side("b", minutes: 90, cost: "0", "SEK"),
            ]),
            Detour(tasks: [Self.side("c", minutes: 60, cost: "10"), Self.side("d", minutes: 90, cost: "0")]),
            Detour(tasks: [
                Self.side("e", minutes: 60, cost: "100", "NOK"), Self.side("f", minutes: 90, cost: "0", "NOK"),
            ]),
        ]
        // 100 SEK = 8.71 EUR, 10 EUR, 100 NOK = 8.53 EUR: 27.24 EUR = 312.743… SEK in all.
        let all = Planner.plan(
            Self.trip(detours, budget: Build.money("312.75", "SEK"), rates: rates), today: Self.today)
        #expect(all.sections.flatMap(\.destinations).first?.detours.map(\.chosen) == [0, 0, 0])
        #expect(all.budget?.spent?.description == "312.74 SEK")
        #expect(all.budget?.within == true)
        // A little less and the EUR side, which saves as much for more, is left out.
        let less = Planner.plan(
            Self.trip(detours, budget: Build.money("312.70", "SEK"), rates: rates), today: Self.today)
        #expect(less.sections.flatMap(\.destinations).first?.detours.map(\.chosen) == [0, 1, 0])
    }

    @Test func aBudgetNoRateReachesIsNotJudgedAndSaysWhy() throws {
        let detours = [
            Detour(tasks: [Self.side("A", minutes: 60, cost: "25.70"), Self.side("B", minutes: 90, cost: "30")])
        ]
        for rates in [nil, try Self.rates(["SEK": "0.0871"])] {
            let plan = Planner.plan(
                Self.trip(detours, budget: Build.money("100", "USD"), rates: rates), today: Self.today)
            let budget = try #require(plan.budget)
            #expect(budget.spent == nil)
            #expect(!budget.within)
            #expect(!budget.optimal)
            #expect(budget.unconverted.map(\.code) == ["EUR"])
            #expect(plan.warnings.map(\.code) == [.missingRate])
            #expect(plan.warnings.map(\.path) == ["budget"])
            #expect(
                plan.warnings.first?.message
                    == "the budget of 100.00 USD cannot be checked: no declared rate converts EUR into USD; give the trip a currency and a rate for each"
            )
        }
    }

    /// Every currency no rate converts is named, in the order of their codes, whatever order
    /// the detours list them in.
    @Test func everyUnconvertedCurrencyIsNamedInOrder() throws {
        let detours = [
            Detour(tasks: [
                Self.side("A", minutes: 60, cost: "100", "SEK"), Self.side("B", minutes: 90, cost: "0", "SEK"),
            ]),
            Detour(tasks: [
                Self.side("C", minutes: 60, cost: "100", "NOK"), Self.side("D", minutes: 90, cost: "0", "NOK"),
            ]),
        ]
        let plan = Planner.plan(
            Self.trip(detours, budget: Build.money("100", "USD"), rates: try Self.rates(["USD": "0.9"])),
            today: Self.today)
        let budget = try #require(plan.budget)
        #expect(budget.unconverted.map(\.code) == ["NOK", "SEK"])
        #expect(budget.spent == nil)
        #expect(plan.warnings.first?.message.contains("no declared rate converts NOK, SEK into USD") == true)
    }

    /// The law, with currencies: over random trips whose costs are in EUR, USD and SEK and whose
    /// budget is in any of them, the chosen sides take the least total time of every combination
    /// within the budget, the budget and the costs converted exactly into EUR.
    @Test func theBudgetsChoiceIsTheOptimumInAnyCurrency() throws {
        var random = SplitMix(seed: 4217)
        let rates = try Self.rates(["USD": "0.9", "SEK": "0.0871"])
        let codes = ["EUR", "USD", "SEK"]
        func inEUR(_ money: Money) -> Decimal { rates.convert(money) ?? -1 }
        for round in 0..<250 {
            let count = Int.random(in: 1...8, using: &random)
            let detours = (0..<count).map { index in
                Detour(tasks: [
                    Self.side(
                        "a\(index)", minutes: Int.random(in: 10...600, using: &random),
                        cost: "\(Int.random(in: 0...40, using: &random)).\(Int.random(in: 0...99, using: &random))",
                        codes[Int.random(in: 0..<3, using: &random)]),
                    Self.side(
                        "b\(index)", minutes: Int.random(in: 10...600, using: &random),
                        cost: "\(Int.random(in: 0...300, using: &random))",
                        codes[Int.random(in: 0..<3, using: &random)]),
                ])
            }
            let budget = Build.money(
                "\(Int.random(in: 0...200, using: &random))", codes[Int.random(in: 0..<3, using: &random)])
            let plan = Planner.plan(Self.trip(detours, budget: budget, rates: rates), today: Self.today)
            let capacity = inEUR(budget)
            var best: Int?
            for mask in 0..<(1 << count) {
                var cost = Decimal(0)
                var minutes = 0
                for (index, detour) in detours.enumerated() {
                    let task = detour.tasks[(mask >> index) & 1]
                    cost += inEUR(task.cost)
                    minutes += task.duration.minutes
                }
                if cost <= capacity, best.map({ minutes < $0 }) ?? true { best = minutes }
            }
            let outcome = try #require(plan.budget)
            let chosen = plan.sections.flatMap(\.destinations).flatMap(\.detours)
            let spent = zip(chosen, detours).reduce(Decimal(0)) { sum, pair in
                sum + inEUR(pair.1.tasks[pair.0.chosen ?? 0].cost)
            }
            #expect(outcome.within == (spent <= capacity), "round \(round)")
            if let best {
                #expect(plan.totals.minutes == best, "round \(round)")
                #expect(outcome.within && outcome.optimal, "round \(round)")
            } else {
                #expect(!outcome.within, "round \(round)")
                #expect(plan.warnings.map(\.code).filter { $0 != .unscheduledSides } == [.overBudget], "round \(round)")
            }
        }
    }
}
