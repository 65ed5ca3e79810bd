/// The rule for which side of a detour is better on a figure.
///
/// Lower is better. A tie, a missing value, or amounts in two different currencies give no
/// better side: the report never guesses.
public enum Comparison {
    /// The better side of a two-task detour on each figure; no side at all for a draft.
    public static func betterSides(_ tasks: [PlannedTask]) -> BetterSides {
        guard tasks.count == 2 else { return BetterSides() }
        let (left, right) = (tasks[0], tasks[1])
        let cost: Int? =
            left.task.cost.currency == right.task.cost.currency
            ? lower(left.task.cost.amount, right.task.cost.amount) : nil
        return BetterSides(
            duration: lower(left.task.duration, right.task.duration),
            cost: cost,
            distance: lower(left.distanceMeters, right.distanceMeters)
        )
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
