import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// The boundaries where `<` and `<=` part ways: a schedule that fills a day to the minute, a
/// side of exactly N days of hours, a budget met to the cent, stays that touch or overlap by one
/// night, and the rule of each on either side of its edge.
@Suite struct ExactFitTests {
    static let today = Build.day("2026-11-22")
    static let here = Build.point(0, 0)

    static func side(_ name: String, minutes: Int, cost: String = "0") -> DetourTask {
        Build.task(name, minutes: minutes, cost: Build.money(cost), at: here)
    }

    /// A stay of `nights` nights with days of `dayMinutes`, each detour's left side chosen (it
    /// is the quicker by a minute).
    static func schedule(_ minutes: [Int], nights: Int, dayMinutes: Int) throws -> PlannedDestination {
        let detours = minutes.enumerated().map { index, length in
            Detour(tasks: [side("s\(index)", minutes: length), side("t\(index)", minutes: length + 1)])
        }
        let departure = Build.day("2026-12-01").adding(days: nights)?.description ?? ""
        var stay = Build.stay("S", "2026-12-01", departure, detours: detours)
        stay.dayHours = DayHours(minutes: dayMinutes)
        let plan = Planner.plan(Trip(title: "T", traveler: nil, destinations: [stay]), today: today)
        return try #require(plan.sections.flatMap(\.destinations).first)
    }

    /// Each day's items as `detour x days`.
    func layout(_ stay: PlannedDestination) -> [[String]] {
        stay.schedule.map { $0.items.map { "\($0.detour)x\($0.days)" } }
    }

    @Test func sidesThatFillADayToTheMinuteShareIt() throws {
        let exact = try Self.schedule([300, 300], nights: 2, dayMinutes: 600)
        #expect(layout(exact) == [["0x1", "1x1"], []])
        let over = try Self.schedule([300, 301], nights: 2, dayMinutes: 600)
        #expect(layout(over) == [["0x1"], ["1x1"]])
        // Three that fill it exactly, then one minute more goes to the next day.
        let three = try Self.schedule([200, 200, 200, 1], nights: 2, dayMinutes: 600)
        #expect(layout(three) == [["0x1", "1x1", "2x1"], ["3x1"]])
    }

    @Test func aSideOfExactlyADayTakesOneDayAndAMinuteMoreTakesTwo() throws {
        let day = try Self.schedule([600, 60], nights: 3, dayMinutes: 600)
        #expect(layout(day) == [["0x1"], ["1x1"], []])
        #expect(day.schedule.map(\.coveredByEarlier) == [false, false, false])
        let more = try Self.schedule([601, 60], nights: 3, dayMinutes: 600)
        #expect(layout(more) == [["0x2"], [], ["1x1"]])
        #expect(more.schedule.map(\.coveredByEarlier) == [false, true, false])
    }

    @Test func aSideOfExactlyNDaysOfHoursTakesNDays() throws {
        let two = try Self.schedule([1200, 10], nights: 3, dayMinutes: 600)
        #expect(layout(two) == [["0x2"], [], ["1x1"]])
        let twoAndAMinute = try Self.schedule([1201, 10], nights: 4, dayMinutes: 600)
        #expect(layout(twoAndAMinute) == [["0x3"], [], [], ["1x1"]])
        // A side that needs every day of the stay fits; a minute more does not.
        let whole = try Self.schedule([1800], nights: 3, dayMinutes: 600)
        #expect(layout(whole) == [["0x3"], [], []])
        #expect(whole.isFeasible)
        let past = try Self.schedule([1801], nights: 3, dayMinutes: 600)
        #expect(past.unscheduled.map(\.detour) == [0])
        #expect(!past.isFeasible)
    }

    @Test func aLongSideNeedsEmptyDaysAndSkipsPartlyUsedOnes() throws {
        // Day 0 is partly used, so the two-day side starts on day 1; the last side goes back to day 0.
        let stay = try Self.schedule([60, 1200, 540], nights: 3, dayMinutes: 600)
        #expect(layout(stay) == [["0x1", "2x1"], ["1x2"], []])
        // Room left on day 0 is never enough for a second day's worth.
        let blocked = try Self.schedule([60, 1200], nights: 2, dayMinutes: 600)
        #expect(blocked.unscheduled.map(\.detour) == [1])
    }

    @Test func aStayIsFeasibleExactlyWhenEverySideFits() throws {
        let full = try Self.schedule([600, 600], nights: 2, dayMinutes: 600)
        #expect(full.isFeasible)
        #expect(full.availableMinutes == 1200)
        #expect(full.overByMinutes == 0)
        let over = try Self.schedule([600, 600, 1], nights: 2, dayMinutes: 600)
        #expect(!over.isFeasible)
        #expect(over.overByMinutes == 1)
    }

    // MARK: Budgets

    /// Two detours whose faster sides cost 4.99 and 5.01 more.
    static func budgetTrip(_ budget: String) -> Trip {
        let detours = [
            Detour(tasks: [side("fast 0", minutes: 60, cost: "4.99"), side("slow 0", minutes: 120)]),
            Detour(tasks: [side("fast 1", minutes: 60, cost: "5.01"), side("slow 1", minutes: 150)]),
        ]
        return Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-03", detours: detours)],
            budget: Build.money(budget))
    }

    @Test func aBudgetMetToTheCentIsWithinIt() throws {
        let exact = Planner.plan(Self.budgetTrip("10.00"), today: Self.today)
        let detours = exact.sections.flatMap(\.destinations).flatMap(\.detours)
        #expect(detours.map(\.chosen) == [0, 0])
        let budget = try #require(exact.budget)
        #expect(budget.within)
        #expect(budget.optimal)
        #expect(budget.spent?.description == "10.00 EUR")
        #expect(exact.warnings.isEmpty)
        // A cent less and the dearer one saves less per cent: only the 5.01 side fits alone.
        let cent = Planner.plan(Self.budgetTrip("9.99"), today: Self.today)
        #expect(cent.sections.flatMap(\.destinations).flatMap(\.detours).map(\.chosen) == [1, 0])
        #expect(cent.budget?.spent?.description == "5.01 EUR")
    }

    @Test func theCheapestSidesMeetingTheBudgetExactlyAreNotOverIt() throws {
        // Both cheap sides cost 5: a budget of 10 is met exactly, with no warning.
        let detours = [
            Detour(tasks: [Self.side("fast 0", minutes: 60, cost: "7"), Self.side("slow 0", minutes: 120, cost: "5")]),
            Detour(tasks: [Self.side("fast 1", minutes: 60, cost: "7"), Self.side("slow 1", minutes: 120, cost: "5")]),
        ]
        func plan(_ budget: String) -> Plan {
            Planner.plan(
                Trip(
                    title: "T", traveler: nil,
                    destinations: [Build.stay("S", "2026-12-01", "2026-12-03", detours: detours)],
                    budget: Build.money(budget)),
                today: Self.today)
        }
        #expect(plan("10").budget?.within == true)
        #expect(plan("10").warnings.isEmpty)
        #expect(plan("9.99").budget?.within == false)
        #expect(plan("9.99").warnings.map(\.code) == [.overBudget])
        #expect(plan("9.99").warnings.first?.message.contains("0.01 EUR over the budget of 9.99 EUR") == true)
    }

    // MARK: Overlaps

    func overlapPaths(_ stays: [Destination]) -> [String?] {
        Planner.plan(Trip(title: "T", traveler: nil, destinations: stays), today: Self.today).warnings.map(\.path)
    }

    @Test func staysThatShareOnlyAChangeoverDayDoNotOverlap() {
        #expect(
            overlapPaths([Build.stay("A", "2026-12-01", "2026-12-05"), Build.stay("B", "2026-12-05", "2026-12-07")])
                == [])
        #expect(
            overlapPaths([Build.stay("A", "2026-12-01", "2026-12-05"), Build.stay("B", "2026-12-04", "2026-12-07")])
                == [
                    "destinations[1].arrival"
                ])
    }

    /// A short stay inside a long one, then a third after the short one ends but before the long
    /// one does: both later stays overlap the long one.
    @Test func aShortStayInsideALongOneDoesNotHideTheLongOneFromAThird() {
        let stays = [
            Build.stay("Long", "2026-12-01", "2026-12-20"), Build.stay("Short", "2026-12-03", "2026-12-05"),
            Build.stay("Third", "2026-12-10", "2026-12-12"),
        ]
        #expect(overlapPaths(stays) == ["destinations[1].arrival", "destinations[2].arrival"])
        // In another file order the same stays give the same warnings.
        #expect(
            overlapPaths([stays[2], stays[1], stays[0]]) == ["destinations[1].arrival", "destinations[0].arrival"])
    }

    @Test func staysArrivingTheSameDayOverlap() {
        let stays = [Build.stay("A", "2026-12-01", "2026-12-03"), Build.stay("B", "2026-12-01", "2026-12-02")]
        #expect(overlapPaths(stays) == ["destinations[1].arrival"])
        let messages = Planner.plan(Trip(title: "T", traveler: nil, destinations: stays), today: Self.today).warnings
            .map(\.message)
        #expect(
            messages == [
                "the stay arrives 2026-12-01, 2 nights before the stay at \"A\" (destinations[0]) departs on 2026-12-03"
            ])
    }
}

/// The totals rule: exact sums per currency that keep every written digit, one rounding in the
/// trip's currency, minutes and counts.
@Suite struct TotalsRuleTests {
    static let here = Build.point(0, 0)

    static func side(_ name: String, cost: String, _ currency: String = "EUR", minutes: Int = 60) -> DetourTask {
        Build.task(name, minutes: minutes, cost: Build.money(cost, currency), at: here)
    }

    static func totals(_ detours: [Detour], rates: ExchangeRates? = nil) -> Totals {
        let trip = Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-09", detours: detours)],
            rates: rates)
        return Planner.plan(trip, today: Build.day("2026-11-22")).totals
    }

    @Test func sumsKeepTheMostDigitsAnyCostWasWrittenWith() {
        // Left sides are quicker, so chosen.
        let detours = [
            Detour(tasks: [Self.side("a", cost: "1.125"), Self.side("x", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("b", cost: "2.375"), Self.side("y", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("c", cost: "5", "JPY"), Self.side("z", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("d", cost: "0.5", "JPY"), Self.side("w", cost: "0", minutes: 90)]),
        ]
        let totals = Self.totals(detours)
        #expect(totals.costs.map(\.description) == ["3.500 EUR", "5.5 JPY"])
        #expect(totals.costInCurrency == nil)
        #expect(totals.minutes == 240)
        #expect(totals.chosen == 4)
        #expect(totals.undecided == 0)
    }

    @Test func currenciesAreListedByCodeAndTheTripsTotalIsRoundedOnce() throws {
        let detours = [
            Detour(tasks: [Self.side("a", cost: "0.005", "SEK"), Self.side("x", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("b", cost: "0.005", "SEK"), Self.side("y", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("c", cost: "0.001"), Self.side("z", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("draft", cost: "1")]),
        ]
        var rates: [CurrencyCode: Decimal] = [:]
        rates[try #require(CurrencyCode("SEK"))] = 1
        let totals = Self.totals(
            detours, rates: ExchangeRates(currency: try #require(CurrencyCode("EUR")), rates: rates))
        #expect(totals.costs.map(\.description) == ["0.001 EUR", "0.010 SEK"])
        // 0.005 + 0.005 + 0.001 = 0.011: rounded once, 0.01; rounded each time, 0.00 + 0.00 + 0.00.
        #expect(totals.costInCurrency?.description == "0.01 EUR")
        #expect(totals.chosen == 3)
        #expect(totals.undecided == 1)
    }

    @Test func aMissingRateLeavesTheTripsTotalOutButNotTheOthers() throws {
        let detours = [
            Detour(tasks: [Self.side("a", cost: "1", "SEK"), Self.side("x", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("b", cost: "2", "NOK"), Self.side("y", cost: "0", minutes: 90)]),
            Detour(tasks: [Self.side("c", cost: "3", "USD"), Self.side("z", cost: "0", minutes: 90)]),
        ]
        var rates: [CurrencyCode: Decimal] = [:]
        rates[try #require(CurrencyCode("NOK"))] = 1
        let eur = ExchangeRates(currency: try #require(CurrencyCode("EUR")), rates: rates)
        let totals = Self.totals(detours, rates: eur)
        #expect(totals.costInCurrency == nil)
        #expect(totals.costs.map(\.description) == ["2.00 NOK", "1.00 SEK", "3.00 USD"])
        let trip = Trip(
            title: "T", traveler: nil, destinations: [Build.stay("S", "2026-12-01", "2026-12-09", detours: detours)],
            rates: eur)
        let plan = Planner.plan(trip, today: Build.day("2026-11-22"))
        #expect(
            Totals.missingRates(plan.sections.flatMap(\.destinations).flatMap(\.detours), rates: eur).map(\.code) == [
                "SEK", "USD",
            ])
        #expect(
            plan.warnings.map(\.message) == ["the total in EUR needs a rate for SEK, USD; add it to the trip's rates"])
    }
}
