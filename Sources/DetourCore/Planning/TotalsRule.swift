import Foundation

extension Totals {
    /// The totals of the chosen sides of `detours`: each currency's exact sum; in the trip's
    /// currency, the exact converted sum rounded once, half to even (or `nil` when a rate it needs
    /// is not declared); the minutes; how many detours are chosen and undecided.
    public static func of(_ detours: some Sequence<PlannedDetour>, rates: ExchangeRates?) -> Totals {
        var totals = Totals()
        var byCurrency: [CurrencyCode: (amount: Decimal, scale: Int)] = [:]
        var converted: Decimal? = rates == nil ? nil : 0
        for detour in detours {
            guard let side = detour.chosen, side < detour.tasks.count else {
                totals.undecided += 1
                continue
            }
            totals.chosen += 1
            let task = detour.tasks[side]
            totals.minutes += Budget.minutes(task)
            let cost = task.task.cost
            let sum = byCurrency[cost.currency] ?? (0, 0)
            byCurrency[cost.currency] = (sum.amount + cost.amount, max(sum.scale, cost.scale))
            if let sum = converted {
                converted = rates?.convert(cost).map { sum + $0 }
            }
        }
        totals.costs = byCurrency.sorted { $0.key.code < $1.key.code }.map {
            Money(amount: $0.value.amount, currency: $0.key, scale: $0.value.scale)
        }
        if let converted, let currency = rates?.currency {
            totals.costInCurrency = Conversion.rounded(converted, in: currency)
        }
        return totals
    }

    /// The currencies among the chosen sides that `rates` cannot convert, sorted by code.
    public static func missingRates(_ detours: some Sequence<PlannedDetour>, rates: ExchangeRates) -> [CurrencyCode] {
        let codes = detours.compactMap { detour in detour.chosen.map { detour.tasks[$0].task.cost.currency } }
        return Set(codes.filter { rates.rate(of: $0) == nil }).sorted { $0.code < $1.code }
    }
}
