import Foundation

/// The rule for which side of a detour is better on a figure.
///
/// Lower is better. A tie, a missing value, or amounts in two different currencies without the
/// trip's rates for both give no better side: the report never guesses. With rates, costs in
/// different currencies are compared exactly, converted into the trip's currency. Distance means the distance travelled one way: along
/// the path when there is one, else the straight line times ``Travel/detourFactor``.
public enum Comparison {
    /// The better side of a two-task detour on each figure; no side at all for a draft.
    public static func betterSides(_ tasks: [PlannedTask], rates: ExchangeRates? = nil) -> BetterSides {
        guard tasks.count == 2 else { return BetterSides() }
        let (left, right) = (tasks[0], tasks[1])
        let cost = Conversion.comparable(left.task.cost, right.task.cost, rates: rates).flatMap { lower($0.0, $0.1) }
        return BetterSides(
            duration: lower(left.task.duration, right.task.duration),
            cost: cost,
            distance: lower(left.travelMeters, right.travelMeters),
            totalTime: lower(left.totalMinutes, right.totalMinutes)
        )
    }

    /// The side to pick under `preference`: the better one on the preferred figure, then on the
    /// tie-breaker (cost for time; total time for cost and distance); otherwise none.
    public static func recommendation(
        _ tasks: [PlannedTask], preference: Preference, rates: ExchangeRates? = nil
    ) -> Recommendation {
        func none(_ reason: Recommendation.Reason) -> Recommendation {
            Recommendation(side: nil, preference: preference, reason: reason)
        }
        guard tasks.count == 2 else { return none(.draft) }
        let (left, right) = (tasks[0], tasks[1])
        let comparable = Conversion.comparable(left.task.cost, right.task.cost, rates: rates)
        /// How much cheaper `side` is, in the currency the two costs were compared in.
        func cheaperBy(_ side: Int, _ costs: (Decimal, Decimal, CurrencyCode)) -> Money {
            let amount = side == 0 ? costs.1 - costs.0 : costs.0 - costs.1
            guard left.task.cost.currency == right.task.cost.currency else {
                return Conversion.rounded(amount, in: costs.2)
            }
            return Money(amount: amount, currency: costs.2, scale: max(left.task.cost.scale, right.task.cost.scale))
        }
        let totals = (left.totalMinutes, right.totalMinutes)
        // Cost and distance break a tie on the least total time.
        func breakTieByTotalTime() -> Recommendation {
            guard let a = totals.0, let b = totals.1 else { return none(.unknownFigure) }
            guard let side = lower(a, b) else { return none(.tie) }
            return Recommendation(
                side: side, preference: preference, reason: .tieThenLessTotalTime(minutes: abs(a - b)))
        }
        switch preference {
        case .time:
            guard let a = totals.0, let b = totals.1 else { return none(.unknownFigure) }
            if let side = lower(a, b) {
                return Recommendation(side: side, preference: preference, reason: .lessTotalTime(minutes: abs(a - b)))
            }
            guard let costs = comparable else { return none(.differentCurrencies) }
            guard let side = lower(costs.0, costs.1) else { return none(.tie) }
            return Recommendation(side: side, preference: preference, reason: .tieThenCheaper(cheaperBy(side, costs)))
        case .cost:
            guard let costs = comparable else { return none(.differentCurrencies) }
            if let side = lower(costs.0, costs.1) {
                return Recommendation(side: side, preference: preference, reason: .cheaper(cheaperBy(side, costs)))
            }
            return breakTieByTotalTime()
        case .distance:
            guard let a = left.travelMeters, let b = right.travelMeters else { return none(.unknownFigure) }
            if let side = lower(a, b) {
                return Recommendation(side: side, preference: preference, reason: .nearer(metres: abs(a - b)))
            }
            return breakTieByTotalTime()
        }
    }

    /// 0 if `left` is lower, 1 if `right` is, `nil` on a tie.
    public static func lower<Value: Comparable>(_ left: Value, _ right: Value) -> Int? {
        if left < right { return 0 }
        if right < left { return 1 }
        return nil
    }

    /// As ``lower(_:_:)-(Value,Value)``, and `nil` when either value is missing.
    public static func lower<Value: Comparable>(_ left: Value?, _ right: Value?) -> Int? {
        guard let left, let right else { return nil }
        return lower(left, right)
    }
}
