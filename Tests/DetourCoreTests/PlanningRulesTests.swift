import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// The planner's rules: conversion, chosen sides, budgets, totals, days and overlaps.
@Suite struct PlanningRulesTests {
    static let here = Build.point(0, 0)
    static let today = Build.day("2026-11-22")

    /// A task at its stay (no travel), so its total time is its duration.
    static func side(_ name: String, minutes: Int, cost: String, _ currency: String = "EUR") -> DetourTask {
        Build.task(name, minutes: minutes, cost: Build.money(cost, currency), at: here)
    }

    static func rates(_ table: [String: String], into currency: String = "EUR") -> ExchangeRates? {
        guard let code = CurrencyCode(currency) else { return nil }
        var rates: [CurrencyCode: Decimal] = [:]
        for (key, value) in table {
            guard let key = CurrencyCode(key), let rate = try? ExchangeRates.parse(value) else { return nil }
            rates[key] = rate
        }
        return ExchangeRates(currency: code, rates: rates)
    }

    func detours(_ plan: Plan) -> [PlannedDetour] {
        plan.sections.flatMap(\.destinations).sorted { $0.index < $1.index }.flatMap(\.detours)
    }

    // MARK: Money across currencies

    @Test(arguments: [
        ("2.345", "EUR", "2.34"), ("2.355", "EUR", "2.36"), ("2.3451", "EUR", "2.35"), ("0.5", "JPY", "0"),
        ("1.5", "JPY", "2"), ("2.5", "JPY", "2"), ("1.0005", "BHD", "1.000"), ("1.0015", "BHD", "1.002"),
    ])
    func totalsRoundOnceHalfToEvenToTheMinorUnit(_ amount: String, _ currency: String, _ expected: String) throws {
        let code = try #require(CurrencyCode(currency))
        let exact = try #require(Decimal(string: amount))
        #expect(Conversion.rounded(exact, in: code).amountText == expected)
    }

    @Test func costsInTwoCurrenciesAreComparedConvertedWithRates() throws {
        let tasks = [
            Self.side("Vasa", minutes: 60, cost: "230", "SEK"), Self.side("Fram", minutes: 60, cost: "200", "NOK"),
        ]
        let stay = Build.stay("Nordic", "2026-12-01", "2026-12-03", detours: [Detour(tasks: tasks)])
        let without = Planner.plan(Trip(title: "T", traveler: nil, destinations: [stay]), today: Self.today)
        #expect(detours(without).first?.recommendation.reason == .differentCurrencies)
        let rates = try #require(Self.rates(["SEK": "0.0871", "NOK": "0.0853"]))
        let trip = Trip(title: "T", traveler: nil, destinations: [stay], rates: rates)
        let plan = Planner.plan(trip, today: Self.today)
        let detour = try #require(detours(plan).first)
        // 230 SEK = 20.033 EUR; 200 NOK = 17.06 EUR: Fram is cheaper, and on equal time it is picked.
        #expect(detour.better.cost == 1)
        #expect(detour.chosen == 1)
        #expect(plan.totals.costInCurrency?.description == "17.06 EUR")
    }

    @Test func aMissingRateLeavesTheTotalOutAndSaysWhich() throws {
        let tasks = [Self.side("A", minutes: 60, cost: "100", "SEK"), Self.side("B", minutes: 90, cost: "1", "SEK")]
        let stay = Build.stay("S", "2026-12-01", "2026-12-03", detours: [Detour(tasks: tasks)])
        let eur = try #require(CurrencyCode("EUR"))
        let trip = Trip(title: "T", traveler: nil, destinations: [stay], rates: ExchangeRates(currency: eur))
        let plan = Planner.plan(trip, today: Self.today)
        #expect(plan.totals.costInCurrency == nil)
        #expect(plan.totals.costs.map(\.description) == ["100.00 SEK"])
        #expect(plan.warnings.map(\.code) == [.missingRate])
        #expect(plan.warnings.first?.message.contains("SEK") == true)
    }

    // MARK: Budgets

    /// Four detours whose faster sides cost 9, 4, 2 and 3 EUR more and save 90, 80, 40 and 50
    /// minutes, within 14 EUR: the best saves 180 minutes (the 9, 2 and 3), while filling greedily
    /// by ratio, by minutes saved or by cheapness all stop at 170.
    static let greedyTrap: [(extra: String, saved: Int)] = [("9", 90), ("4", 80), ("2", 40), ("3", 50)]

    static func budgetTrip(_ items: [(extra: String, saved: Int)], budget: String) -> Trip {
        let detours = items.enumerated().map { index, item in
            Detour(tasks: [
                side("fast \(index)", minutes: 120, cost: item.extra),
                side("slow \(index)", minutes: 120 + item.saved, cost: "0"),
            ])
        }
        return Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-09", detours: detours)],
            budget: Build.money(budget))
    }

    @Test func theBudgetsOptimumBeatsEveryGreedyOrder() throws {
        let plan = Planner.plan(Self.budgetTrip(Self.greedyTrap, budget: "14"), today: Self.today)
        #expect(detours(plan).map(\.chosen) == [0, 1, 0, 0])
        #expect(detours(plan).map(\.chosenBecause) == [.rule, .budget, .rule, .rule])
        let budget = try #require(plan.budget)
        #expect(budget.within && budget.optimal)
        #expect(budget.spent?.description == "14.00 EUR")
        #expect(plan.totals.minutes == 4 * 120 + 80)
    }

    @Test func overBudgetEvenAtTheCheapestChoosesTheCheapestAndSaysByHowMuch() throws {
        var trip = Self.budgetTrip(Self.greedyTrap, budget: "10")
        let fixed = Detour(tasks: [
            Self.side("museum", minutes: 60, cost: "25"), Self.side("gallery", minutes: 90, cost: "30"),
        ])
        trip.destinations[0].detours.append(fixed)
        let plan = Planner.plan(trip, today: Self.today)
        #expect(detours(plan).map(\.chosen) == [1, 1, 1, 1, 0])
        let budget = try #require(plan.budget)
        #expect(!budget.within)
        #expect(
            plan.warnings.map(\.message) == [
                "the chosen sides cost 25.00 EUR, 15.00 EUR over the budget of 10.00 EUR, even at their cheapest"
            ])
        #expect(plan.warnings.first?.path == "budget")
    }

    @Test func aStaysOwnBudgetChoosesAndTheTripsIsOnlyChecked() throws {
        var trip = Self.budgetTrip(Self.greedyTrap, budget: "1000")
        trip.destinations[0].budget = Build.money("6")
        let plan = Planner.plan(trip, today: Self.today)
        let stay = try #require(plan.sections.flatMap(\.destinations).first)
        #expect(stay.budget?.optimal == true)
        // Within 6 EUR: the 4 (80 min) and the 2 (40 min).
        #expect(stay.detours.map(\.chosen) == [1, 0, 0, 1])
        #expect(plan.budget?.chose == false)
        #expect(plan.budget?.within == true)
    }

    /// The law: on any small trip the chosen sides take the least total time any choice within
    /// the budget takes, found by trying every combination.
    @Test func theBudgetsChoiceIsTheOptimumOfEveryCombination() throws {
        var random = SplitMix(seed: 10)
        for round in 0..<300 {
            let count = Int.random(in: 1...9, using: &random)
            let detours = (0..<count).map { index in
                Detour(tasks: [
                    Self.side(
                        "a\(index)", minutes: Int.random(in: 10...600, using: &random),
                        cost: "\(Int.random(in: 0...40, using: &random)).\(Int.random(in: 0...99, using: &random))"),
                    Self.side(
                        "b\(index)", minutes: Int.random(in: 10...600, using: &random),
                        cost: "\(Int.random(in: 0...40, using: &random))"),
                ])
            }
            let budget = Decimal(Int.random(in: 0...150, using: &random))
            let trip = Trip(
                title: "T", traveler: nil,
                destinations: [Build.stay("S", "2026-12-01", "2026-12-30", detours: detours)],
                budget: Money(amount: budget, currency: try #require(CurrencyCode("EUR"))))
            let plan = Planner.plan(trip, today: Self.today)
            let chosen = self.detours(plan)
            var best: Int?
            var cheapest = Decimal.greatestFiniteMagnitude
            for mask in 0..<(1 << count) {
                var cost = Decimal(0)
                var minutes = 0
                for (index, detour) in detours.enumerated() {
                    let task = detour.tasks[(mask >> index) & 1]
                    cost += task.cost.amount
                    minutes += task.duration.minutes
                }
                cheapest = min(cheapest, cost)
                if cost <= budget, best.map({ minutes < $0 }) ?? true { best = minutes }
            }
            let budgetOutcome = try #require(plan.budget)
            if let best {
                #expect(plan.totals.minutes == best, "round \(round)")
                #expect(budgetOutcome.within && budgetOutcome.optimal, "round \(round)")
            } else {
                #expect(!budgetOutcome.within, "round \(round)")
                let spent = chosen.enumerated().reduce(Decimal(0)) { sum, pair in
                    sum + (pair.element.chosen.map { detours[pair.offset].tasks[$0].cost.amount } ?? 0)
                }
                #expect(spent == cheapest, "round \(round): over budget, the cheapest sides")
            }
        }
    }

    // MARK: Days

    @Test func sidesAreLaidFirstFitAndALongSideTakesWholeEmptyDays() throws {
        let detours = [
            Detour(tasks: [Self.side("morning", minutes: 300, cost: "0"), Self.side("x", minutes: 900, cost: "0")]),
            Detour(tasks: [Self.side("long", minutes: 1000, cost: "0"), Self.side("y", minutes: 2000, cost: "0")]),
            Detour(tasks: [Self.side("afternoon", minutes: 240, cost: "0"), Self.side("z", minutes: 999, cost: "0")]),
            Detour(tasks: [Self.side("too long", minutes: 2400, cost: "0"), Self.side("w", minutes: 2500, cost: "0")]),
        ]
        var stay = Build.stay("S", "2026-12-01", "2026-12-05", detours: detours)
        stay.dayHours = DayHours(minutes: 600)
        let plan = Planner.plan(Trip(title: "T", traveler: nil, destinations: [stay]), today: Self.today)
        let planned = try #require(plan.sections.flatMap(\.destinations).first)
        #expect(
            planned.schedule.map { $0.items.map { "\($0.detour)x\($0.days)" } } == [["0x1", "2x1"], ["1x2"], [], []])
        #expect(planned.schedule.map(\.coveredByEarlier) == [false, false, true, false])
        #expect(planned.unscheduled.map(\.detour) == [3])
        #expect(!planned.isFeasible)
        #expect(planned.availableMinutes == 2400)
        #expect(planned.overByMinutes == 300 + 1000 + 240 + 2400 - 2400)
        #expect(plan.warnings.map(\.code) == [.unscheduledSides])
    }

    @Test func staysThatOverlapMoreThanAChangeoverDayAreWarnedAbout() {
        let trip = Trip(
            title: "T", traveler: nil,
            destinations: [
                Build.stay("Oslo", "2026-12-01", "2026-12-05"), Build.stay("Bergen", "2026-12-05", "2026-12-07"),
                Build.stay("Tromsø", "2026-12-06", "2026-12-09"),
            ])
        let warnings = Planner.plan(trip, today: Self.today).warnings
        #expect(warnings.map(\.path) == ["destinations[2].arrival"])
        #expect(
            warnings.map(\.message) == [
                "the stay arrives 2026-12-06, 1 night before the stay at \"Bergen\" (destinations[1]) departs on 2026-12-07"
            ])
    }
}
