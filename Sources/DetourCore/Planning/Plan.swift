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
    /// The rule that recommended each detour's side.
    public var preference: Preference = .time
    /// The travel mode of tasks that do not name their own.
    public var defaultTravel: TravelMode = .walk
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
    /// The side to pick, and why.
    public var recommendation: Recommendation
    /// Whether a side is still undecided.
    public var isDraft: Bool { tasks.count < Detour.sides }
}

/// The recommended side of a detour under a ``Preference``, and the reason.
public struct Recommendation: Sendable, Hashable {
    /// The index in `tasks` of the side to pick, or `nil`.
    public var side: Int?
    /// The rule that was applied.
    public var preference: Preference
    /// Why that side (or why none).
    public var reason: Reason

    /// Creates a recommendation.
    public init(side: Int?, preference: Preference, reason: Reason) {
        self.side = side
        self.preference = preference
        self.reason = reason
    }

    /// Why a side was (or was not) recommended.
    public enum Reason: Sendable, Hashable {
        /// Less total time, by this many minutes.
        case lessTotalTime(minutes: Int)
        /// Cheaper, by this amount.
        case cheaper(Money)
        /// Nearer, by this many metres of travel.
        case nearer(metres: Double)
        /// Same on the preferred figure, and cheaper by this amount.
        case tieThenCheaper(Money)
        /// Same on the preferred figure, and less total time by this many minutes.
        case tieThenLessTotalTime(minutes: Int)
        /// A side is still undecided.
        case draft
        /// A figure needed for the rule is unknown (a task without location or path).
        case unknownFigure
        /// The costs are in different currencies.
        case differentCurrencies
        /// The two sides are the same on every figure the rule looks at.
        case tie
    }
}

/// A task with the figures computed for it.
public struct PlannedTask: Sendable, Hashable {
    /// The task as validated.
    public var task: DetourTask
    /// Straight-line metres from its destination, or `nil` when the task has no location.
    public var distanceMeters: Double?
    /// Metres along its path, or `nil` when it has none.
    public var routeMeters: Double?
    /// How the traveller gets there.
    public var travelMode: TravelMode
    /// Minutes to get there and back, or `nil` when neither location nor path is known.
    public var travelMinutes: Int?

    /// The task's duration plus the round trip, or `nil` when the travel is unknown.
    public var totalMinutes: Int? {
        travelMinutes.map { $0 + task.duration.minutes }
    }

    /// The one-way distance travelled: the path, or the straight line times the detour factor.
    public var travelMeters: Double? {
        routeMeters ?? distanceMeters.map { $0 * Travel.detourFactor }
    }
}

/// For each figure, the index of the side that is better (lower), or `nil` when neither is.
public struct BetterSides: Sendable, Hashable {
    /// The shorter task.
    public var duration: Int?
    /// The cheaper task, when both are in the same currency.
    public var cost: Int?
    /// The task with less distance to travel (path, else straight line × detour factor), when
    /// both are known.
    public var distance: Int?
    /// The task that costs less time in all, travel included, when both are known.
    public var totalTime: Int?

    /// Creates the comparison.
    public init(duration: Int? = nil, cost: Int? = nil, distance: Int? = nil, totalTime: Int? = nil) {
        self.duration = duration
        self.cost = cost
        self.distance = distance
        self.totalTime = totalTime
    }
}
