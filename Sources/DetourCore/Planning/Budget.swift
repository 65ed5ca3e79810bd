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
///   currency, keep their rule's pick, and its cost counts against the budget (a cost no declared
///   rate converts leaves the verdict unknown, with a warning naming its currency);
/// - if even the cheapest sides exceed the budget, the cheapest are chosen, with a warning that
///   says by how much.
public enum Budget {
    /// The currency a budget is judged in, and how costs and the budget get there, exactly.
    ///
    /// A budget in the trip's own currency, or in a currency every cost is in, is judged in its
    /// own currency. A budget in another currency with a declared rate (`"budget": {"amount": 100,
    /// "currency": "USD"}` with `"rates": {"USD": 0.9}` in a EUR trip) is judged in the trip's
    /// currency: the budget and every cost are converted there by multiplying by their rates, so
    /// the verdict is exact; only the amounts shown are converted back, and rounded once.
    struct Scale {
        let budget: Money
        let rates: ExchangeRates?
        /// The budget's rate into the trip's currency, when costs are judged there.
        let budgetRate: Decimal?

        init(_ budget: Money, rates: ExchangeRates?) {
            self.budget = budget
            self.rates = rates
            budgetRate = rates.flatMap { $0.currency == budget.currency ? nil : $0.rate(of: budget.currency) }
        }

        /// The budget in the currency it is judged in.
        var capacity: Decimal { budget.amount * (budgetRate ?? 1) }

        /// `money` in the currency the budget is judged in, exactly, or `nil` when no declared
        /// rate gets it there.
        func amount(_ money: Money) -> Decimal? {
            if budgetRate == nil, money.currency == budget.currency { return money.amount }
            guard let rates, budgetRate != nil || rates.currency == budget.currency else { return nil }
            return rates.convert(money)
        }

        /// An amount in the judged currency, shown in the budget's, rounded once.
        func shown(_ amount: Decimal) -> Money {
            Conversion.rounded(budgetRate.map { amount / $0 } ?? amount, in: budget.currency)
        }
    }

    /// The minutes a side counts for: its total time where known, else its duration.
    static func minutes(_ task: PlannedTask) -> Int {
        task.totalMinutes ?? task.task.duration.minutes
    }

    /// Chooses sides of `detours` within `budget`, or (when `choose` is false) only checks them.
    ///
    /// `nodeLimit` bounds the knapsack's branch and bound (see ``Knapsack``).
    public static func apply(
        _ detours: inout [PlannedDetour], budget: Money, rates: ExchangeRates?, choose: Bool,
        nodeLimit: Int = Knapsack.nodeLimit
    ) -> BudgetOutcome {
        let scale = Scale(budget, rates: rates)
        var fixed = Decimal(0)
        var unconverted: Set<CurrencyCode> = []
        var baseMinutes = 0
        var items: [Knapsack.Item] = []
        var sides: [(detour: Int, cheap: Int, fast: Int)] = []
        for index in detours.indices {
            let detour = detours[index]
            let tasks = detour.tasks
            if choose, tasks.count == 2, let timeA = tasks[0].totalMinutes, let timeB = tasks[1].totalMinutes,
                timeA != timeB,
                let costA = scale.amount(tasks[0].task.cost), let costB = scale.amount(tasks[1].task.cost)
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
            if let cost = scale.amount(tasks[side].task.cost) {
                fixed += cost
            } else {
                unconverted.insert(tasks[side].task.cost.currency)
            }
        }
        let room = scale.capacity - fixed
        var solution: Knapsack.Solution?
        if room >= 0, !items.isEmpty {
            solution = Knapsack.solve(items, capacity: room, nodeLimit: nodeLimit)
        }
        var spent = fixed
        for (position, entry) in sides.enumerated() {
            let takeFast = solution?.taken[position] ?? false
            detours[entry.detour].choose(takeFast ? entry.fast : entry.cheap)
            if takeFast { spent += items[position].weight }
        }
        let known = unconverted.isEmpty
        let optimal = solution?.optimal ?? (room >= 0)
        var lowerBound: Int?
        if let solution, !solution.optimal { lowerBound = baseMinutes - solution.bound }
        let within = known && spent <= scale.capacity
        return BudgetOutcome(
            budget: budget, spent: known ? scale.shown(spent) : nil, within: within,
            optimal: choose ? optimal && known : true, lowerBoundMinutes: lowerBound, chose: choose,
            over: known && !within ? scale.shown(spent - scale.capacity) : nil,
            unconverted: unconverted.sorted { $0.code < $1.code })
    }
}

extension PlannedDetour {
    /// Chooses `side` for a budget: its reason is the rule's when the rule picked the same.
    mutating func choose(_ side: Int) {
        chosenBecause = recommendation.side == side ? .rule : .budget
        chosen = side
    }
}
