import DetourCore

/// The overview a report opens with: the trip's days, one row per stay, totals, the budget line
/// and how many warnings there are.
public struct OverviewModel: Sendable {
    /// The first arrival, formatted; empty for a trip with no stay.
    public var firstDay: String
    /// The last departure, formatted.
    public var lastDay: String
    /// `9 nights` from the first arrival to the last departure.
    public var nights: String
    /// One row per stay, by arrival, then name: the order a reader scans a trip in.
    public var stays: StayRowModels
    /// The chosen sides' cost in each currency: `445.00 SEK`.
    public var costs: [String]
    /// The cost in the trip's currency, when every rate is declared: `54.11 EUR`.
    public var costInCurrency: String
    /// The chosen sides' cost in a line: `445.00 SEK + 200.00 NOK (54.11 EUR)`.
    public var total: String
    /// The trip's budget line, or empty.
    public var budget: String
    /// Whether the trip's budget is exceeded.
    public var overBudget: Bool
    /// `6 of 6 detours chosen, 15h 11m in all`.
    public var chosen: String
    /// `2 warnings, listed at the end`, or empty.
    public var warnings: String

    init(_ plan: Plan, warningCount: Int) {
        stays = StayRowModels(plan.sections)
        let all = plan.sections.lazy.flatMap(\.destinations)
        let first = all.map(\.destination.arrival).min()
        let last = all.map(\.destination.departure).max()
        firstDay = first.map(Formatting.day) ?? ""
        lastDay = last.map(Formatting.day) ?? ""
        nights = first.flatMap { first in last.map { Formatting.nights(first.days(to: $0)) } } ?? ""
        costs = plan.totals.costs.map(Formatting.money)
        costInCurrency = plan.totals.costInCurrency.map(Formatting.money) ?? ""
        total = Formatting.cost(plan.totals)
        budget = plan.budget.map(Formatting.budget) ?? ""
        overBudget = plan.budget.map { !$0.within && $0.spent != nil } ?? false
        let totals = plan.totals
        chosen =
            "\(totals.chosen) of \(totals.chosen + totals.undecided) detours chosen, "
            + "\(Formatting.minutes(totals.minutes)) in all"
        warnings =
            warningCount == 0 ? "" : "\(warningCount) warning\(warningCount == 1 ? "" : "s"), listed at the end"
    }
}

/// The overview's rows, each made into a ``StayRowModel`` only when it is read.
///
/// Rows are written one after another, so a trip of 20,000 stays never holds 20,000 rows' worth
/// of text, nor a second copy of its destinations: a row is found through its place in the plan's
/// sections.
public struct StayRowModels: RandomAccessCollection, Sendable {
    /// Where a row's destination is: its section and its index there.
    struct Place: Sendable {
        var section: Int
        var index: Int
    }

    let sections: [PlanSection]
    /// The rows' destinations, in the overview's order.
    let order: [Place]

    /// The rows of every destination of `sections`, by date, as a reader scans a trip: arrival,
    /// then name, then file order (`index`), so the order does not depend on the sort algorithm.
    init(_ sections: [PlanSection]) {
        self.sections = sections
        var keyed: [(arrival: CalendarDay, name: String, index: Int, place: Place)] = []
        keyed.reserveCapacity(sections.reduce(0) { $0 + $1.destinations.count })
        for (section, list) in sections.enumerated() {
            for (index, planned) in list.destinations.enumerated() {
                keyed.append(
                    (
                        planned.destination.arrival, planned.destination.name, planned.index,
                        Place(section: section, index: index)
                    ))
            }
        }
        keyed.sort { ($0.arrival, $0.name, $0.index) < ($1.arrival, $1.name, $1.index) }
        order = keyed.map(\.place)
    }

    public var startIndex: Int { order.startIndex }
    public var endIndex: Int { order.endIndex }

    /// The row at `index`.
    public subscript(index: Int) -> StayRowModel {
        let place = order[index]
        return StayRowModel(sections[place.section].destinations[place.index])
    }
}

/// One stay in the overview.
public struct StayRowModel: Sendable {
    /// The stay's name.
    public var name: String
    /// `Tue 1 Dec – Fri 4 Dec 2026`.
    public var dates: String
    /// `3 nights`.
    public var nights: String
    /// `3 chosen, 0 undecided`.
    public var chosen: String
    /// `7h 40m of 24h`.
    public var hours: String
    /// Whether the chosen sides need more hours than the stay has, or some fit on no day.
    public var overHours: Bool
    /// `445.00 SEK (38.76 EUR)`.
    public var cost: String

    init(_ planned: PlannedDestination) {
        let destination = planned.destination
        name = destination.name
        dates = Formatting.stay(destination)
        nights = Formatting.nights(destination.nights)
        chosen = "\(planned.totals.chosen) chosen, \(planned.totals.undecided) undecided"
        hours = "\(Formatting.hours(planned.totals.minutes)) of \(Formatting.hours(planned.availableMinutes))"
        overHours = planned.overByMinutes > 0 || !planned.isFeasible
        cost = Formatting.cost(planned.totals)
    }
}

/// What a destination adds to its detours in the report: totals, budget and schedule.
public struct StayPlanModel: Sendable {
    /// `Chosen: 445.00 SEK (38.76 EUR), 7h 40m of 24h (8h a day)`.
    public var totals: String
    /// The stay's budget line, or empty.
    public var budget: String
    /// Whether its budget is exceeded.
    public var overBudget: Bool
    /// One entry per day of the stay.
    public var days: [ScheduleDayModel]
    /// Chosen sides that fit on no day: `2A Long hike (14h)`.
    public var unscheduled: [String]

    init(_ planned: PlannedDestination) {
        totals =
            "\(Formatting.cost(planned.totals)), \(Formatting.hours(planned.totals.minutes)) of "
            + "\(Formatting.hours(planned.availableMinutes)) (\(Formatting.hours(planned.dayHours.minutes)) a day)"
            + (planned.overByMinutes > 0 ? ", \(Formatting.hours(planned.overByMinutes)) over" : "")
        budget = planned.budget.map(Formatting.budget) ?? ""
        overBudget = planned.budget.map { !$0.within && $0.spent != nil } ?? false
        func label(_ item: ScheduleItem) -> String {
            let task = planned.detours[item.detour].tasks[item.task].task
            let span = item.days > 1 ? ", \(item.days) days" : ""
            return
                "\(item.detour + 1)\(item.task == 0 ? "A" : "B") \(task.name) (\(Formatting.minutes(item.minutes))\(span))"
        }
        days = planned.schedule.map { day in
            ScheduleDayModel(
                day: Formatting.day(day.day), items: day.items.map(label),
                note: day.coveredByEarlier ? "taken by the day before" : (day.items.isEmpty ? "free" : ""))
        }
        unscheduled = planned.unscheduled.map(label)
    }
}

/// One day of a stay's schedule.
public struct ScheduleDayModel: Sendable {
    /// `Tue 1 Dec 2026`.
    public var day: String
    /// The sides placed on it: `1A Vasa Museum (3h 11m)`.
    public var items: [String]
    /// `free`, `taken by the day before`, or empty.
    public var note: String
}

extension Formatting {
    /// Minutes as hours and minutes, never days, for hours of a day: `24 h`, `19 h 30 min`,
    /// `45 min`.
    static func hours(_ minutes: Int) -> String {
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(NumberText.grouped(hours)) h" : "\(NumberText.grouped(hours)) h \(rest) min"
    }

    /// `445.00 SEK + 200.00 NOK (54.11 EUR)`, or `nothing chosen`.
    static func cost(_ totals: Totals) -> String {
        guard !totals.costs.isEmpty else { return "nothing to pay" }
        let each = totals.costs.map(money).joined(separator: " + ")
        guard let converted = totals.costInCurrency,
            totals.costs.count > 1 || totals.costs.first?.currency != converted.currency
        else { return each }
        return "\(each) (\(money(converted)))"
    }

    /// `Budget 16.00 EUR: 15.35 EUR spent, within; the least time, proven`.
    static func budget(_ outcome: BudgetOutcome) -> String {
        let budget = "Budget \(money(Conversion.rounded(outcome.budget.amount, in: outcome.budget.currency)))"
        guard let spent = outcome.spent else {
            let codes = outcome.unconverted.map(\.code).joined(separator: ", ")
            return "\(budget): spent unknown, since no declared rate converts \(codes); not judged"
        }
        let standing = outcome.within ? "within" : "over"
        var text = "\(budget): \(money(spent)) spent, \(standing)"
        if !outcome.chose {
            text += "; checked only, since stays have budgets of their own"
        } else if outcome.within {
            if outcome.optimal {
                text += "; the least time, proven"
            } else if let bound = outcome.lowerBoundMinutes {
                text += "; the best found, and no choice takes less than \(minutes(bound))"
            }
        } else {
            text += "; the cheapest sides are chosen"
        }
        return text
    }
}

// Explicit lookups, as for the rest of the report model.

extension OverviewModel {
    /// What templates read as `hasStays`.
    var hasStays: Bool { !stays.isEmpty }

    /// What templates read as `hasCosts`.
    var hasCosts: Bool { !costs.isEmpty }

    /// What templates read as `hasCostInCurrency`.
    var hasCostInCurrency: Bool { !costInCurrency.isEmpty }

    /// What templates read as `hasBudget`.
    var hasBudget: Bool { !budget.isEmpty }

    /// What templates read as `hasWarnings`.
    var hasWarnings: Bool { !warnings.isEmpty }
}

extension StayPlanModel {
    /// What templates read as `hasBudget`.
    var hasBudget: Bool { !budget.isEmpty }

    /// What templates read as `hasDays`.
    var hasDays: Bool { !days.isEmpty }

    /// What templates read as `hasUnscheduled`.
    var hasUnscheduled: Bool { !unscheduled.isEmpty }
}

extension ScheduleDayModel {
    /// What templates read as `hasNote`.
    var hasNote: Bool { !note.isEmpty }
}
