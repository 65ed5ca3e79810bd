/// A trip laid out for one day: its destinations in sections, each detour's figures compared.
///
/// A plan is pure data made by ``Planner/plan(_:today:)``; renderers only format it.
public struct Plan: Sendable, Hashable {
    /// The trip's title.
    public var title: String
    /// Who travels, when given.
    public var traveler: EmailAddress?
    /// The day the plan is as of.
    public var today: CalendarDay
    /// Always three sections, in the order future, now, past; empty ones stay.
    public var sections: [PlanSection]
}

/// Where a destination stands relative to today.
public enum SectionKind: String, Sendable, Hashable, CaseIterable {
    /// Not started: arrival is after today.
    case future
    /// Under way: arrival is today or earlier and departure is today or later.
    case now
    /// Over: departure is before today.
    case past
}

/// One section of a plan and its destinations, in the section's order.
public struct PlanSection: Sendable, Hashable {
    /// Which section.
    public var kind: SectionKind
    /// Its destinations, sorted by the section's rule.
    public var destinations: [PlannedDestination]
}

/// A destination with its detours compared.
public struct PlannedDestination: Sendable, Hashable {
    /// The destination as validated.
    public var destination: Destination
    /// Its detours, in file order.
    public var detours: [PlannedDetour]
}

/// A detour with each side's figures and which side is better on each.
public struct PlannedDetour: Sendable, Hashable {
    /// The detour's title, from its tasks' names.
    public var title: String
    /// The sides, left first; fewer than two for a draft.
    public var tasks: [PlannedTask]
    /// Which side is better on each figure.
    public var better: BetterSides
    /// Whether a side is still undecided.
    public var isDraft: Bool { tasks.count < Detour.sides }
}

/// A task with the figures computed for it.
public struct PlannedTask: Sendable, Hashable {
    /// The task as validated.
    public var task: DetourTask
    /// Metres from its destination, or `nil` when the task has no location.
    public var distanceMeters: Double?
}

/// For each figure, the index of the side that is better (lower), or `nil` when neither is.
public struct BetterSides: Sendable, Hashable {
    /// The shorter task.
    public var duration: Int?
    /// The cheaper task, when both are in the same currency.
    public var cost: Int?
    /// The nearer task, when both have a location.
    public var distance: Int?

    /// Creates the comparison.
    public init(duration: Int? = nil, cost: Int? = nil, distance: Int? = nil) {
        self.duration = duration
        self.cost = cost
        self.distance = distance
    }
}
