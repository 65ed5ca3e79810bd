import Foundation

/// The budget rule: within a budget, choose the sides that take the least total time.
///
/// A budget applies to a destination's detours when it has its own, else the trip's budget
/// applies to all the trip's detours; when any destination has its own, the trip's budget is only
/// checked, not used to choose. Under a budget:
/// - a detour whose faster side is also no dearer takes it;
/// - detours whose faster side is dearer are a 0/1 knapsack (``Knapsack``): the cheap sides first,
///   then the faster sides that save the most minutes for the money left;
/// - detours whose time is unknown, or whose costs cannot be converted into the budget's
///   currency, keep their rule's pick, and its cost counts against the budget;
/// - if even the cheapest sides exceed the budget, the cheapest are chosen, with a warning that
///   says by how much.
public enum Budget {
    /// `money` in the budget's currency, exactly, or `nil` when no declared rate gets it there.
    static func amount(_ money: Money, in currency: CurrencyCode, rates: ExchangeRates?) -> Decimal? {
        if money.currency == currency { return money.amount }
        guard let rates, rates.currency == currency else { return nil }
        return rates.convert(money)
    }

    /// The minutes a side counts for: its total time where known, else its duration.
    static func minutes(_ task: PlannedTask) -> Int {
        task.totalMinutes ?? task.task.duration.minutes
    }

    /// Chooses sides of `detours` within `budget`, or (when `choose` is false) only checks them.
    public static func apply(
        _ detours: inout [PlannedDetour], budget: Money, rates: ExchangeRates?, choose: Bool
    ) -> BudgetOutcome {
        let currency = budget.currency
        var fixed = Decimal(0)
        var known = true
        var baseMinutes = 0
        var items: [Knapsack.Item] = []
        var sides: [(detour: Int, cheap: Int, fast: Int)] = []
        for index in detours.indices {
            let detour = detours[index]
            let tasks = detour.tasks
            if choose, tasks.count == 2, let timeA = tasks[0].totalMinutes, let timeB = tasks[1].totalMinutes, timeA != timeB,
                let costA = amount(tasks[0].task.cost, in: currency, rates: rates),
                let costB = amount(tasks[1].task.cost, in: currency, rates: rates)
            {
                let fast = timeA < timeB ? 0 : 1
                let cheap = 1 - fast
                let fastCost = fast == 0 ? costA : costB
                let cheapCost = fast == 0 ? costB : costA
                if fastCost <= cheapCost {
                    detours[index].choose(fast)
                    fixed += fastCost
                    baseMinutes += min(timeA, timeB)
                } else {
                    items.append(Knapsack.Item(weight: fastCost - cheapCost, value: abs(timeA - timeB)))
                    sides.append((index, cheap, fast))
                    fixed += cheapCost
                    baseMinutes += max(timeA, timeB)
                }
                continue
            }
            // Kept as the rule chose it; its cost counts against the budget.
            guard let side = detour.chosen else { continue }
            baseMinutes += minutes(tasks[side])
            if let cost = amount(tasks[side].task.cost, in: currency, rates: rates) {
                fixed += cost
            } else {
                known = false
            }
        }
        let room = budget.amount - fixed
        var solution: Knapsack.Solution?
        if room >= 0, !items.isEmpty {
            solution = Knapsack.solve(items, capacity: room)
        }
        var spent = fixed
        for (position, entry) in sides.enumerated() {
            let takeFast = solution?.taken[position] ?? false
            detours[entry.detour].choose(takeFast ? entry.fast : entry.cheap)
            if takeFast { spent += items[position].weight }
        }
        let optimal = solution?.optimal ?? (room >= 0)
        var lowerBound: Int?
        if let solution, !solution.optimal { lowerBound = baseMinutes - solution.bound }
        return BudgetOutcome(
            budget: budget, spent: known ? Conversion.rounded(spent, in: currency) : nil,
            within: known && spent <= budget.amount, optimal: choose ? optimal && known : true,
            lowerBoundMinutes: lowerBound, chose: choose)
    }
}

extension PlannedDetour {
    /// Chooses `side` for a budget: its reason is the rule's when the rule picked the same.
    mutating func choose(_ side: Int) {
        chosenBecause = recommendation.side == side ? .rule : .budget
        chosen = side
    }
}
