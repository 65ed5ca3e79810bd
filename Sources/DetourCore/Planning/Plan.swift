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
    public var preference: Preference
    /// The travel mode of tasks that do not name their own.
    public var defaultTravel: TravelMode
    /// The traveller's currency and declared rates, when the trip gives a currency.
    public var rates: ExchangeRates?
    /// The chosen sides' totals over the whole trip.
    public var totals = Totals()
    /// The trip's budget and how the chosen sides stand against it, when it has one.
    public var budget: BudgetOutcome?
    /// What planning found that the traveller should know (missing rates, an overrun budget,
    /// overlapping stays); each names the field it concerns.
    public var warnings: [Diagnostic] = []

    /// Every destination in the trip file's order, whatever section it is in.
    public var destinationsInFileOrder: [PlannedDestination] {
        sections.flatMap(\.destinations).sorted { $0.index < $1.index }
    }
}

/// Why a detour's side is the chosen one.
public enum ChoiceReason: String, Sendable, Hashable {
    /// The recommendation rule picked it.
    case rule
    /// A budget picked it: the fastest choice within the budget, or the cheapest when none fits.
    case budget
}

/// What the chosen sides of some detours add up to.
public struct Totals: Sendable, Hashable {
    /// The cost in each currency the chosen sides are priced in, exact, sorted by code.
    public var costs: [Money] = []
    /// The cost in the trip's currency, rounded once to its minor units; `nil` without a trip
    /// currency or when a rate it needs is not declared.
    public var costInCurrency: Money?
    /// Total minutes of the chosen sides (duration plus travel where known, else duration).
    public var minutes = 0
    /// How many detours have a chosen side.
    public var chosen = 0
    /// How many detours have none (drafts, ties, unknown figures).
    public var undecided = 0

    /// Creates empty totals.
    public init() {}
}

/// A budget and how the chosen sides stand against it.
public struct BudgetOutcome: Sendable, Hashable {
    /// The budget as declared.
    public var budget: Money
    /// What the chosen sides cost, in the budget's currency, rounded once to its minor units;
    /// `nil` when a rate needed to convert a chosen side is not declared.
    public var spent: Money?
    /// Whether the chosen sides cost no more than the budget, judged exactly (false when unknown).
    public var within: Bool
    /// Whether the choice is proven the least total time within the budget (true where the
    /// budget was only checked, not used to choose).
    public var optimal: Bool
    /// When not proven optimal, a proven lower bound on the total minutes any choice within the
    /// budget takes.
    public var lowerBoundMinutes: Int?
    /// Whether the budget chose sides (false where it was only checked).
    public var chose: Bool
    /// By how much the chosen sides exceed the budget, in its currency, rounded once; `nil`
    /// when within it or unknown.
    public var over: Money?
    /// The currencies of chosen sides that no declared rate converts into the budget's currency:
    /// while there are any, the verdict is unknown.
    public var unconverted: [CurrencyCode]
}

/// One day of a stay and the chosen sides placed on it.
public struct ScheduleDay: Sendable, Hashable {
    /// The day.
    public var day: CalendarDay
    /// The sides placed on it; a side spanning several days is listed on its first day only.
    public var items: [ScheduleItem]
    /// Whether a side that started on an earlier day covers this one.
    public var coveredByEarlier: Bool
}

/// A chosen side placed in the schedule.
public struct ScheduleItem: Sendable, Hashable {
    /// The detour's index in the destination, in file order.
    public var detour: Int
    /// The chosen side's index in the detour.
    public var task: Int
    /// Its minutes.
    public var minutes: Int
    /// How many days it covers (more than 1 for a side longer than a day).
    public var days: Int
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

/// A destination with its detours compared, sides chosen, totalled and placed on days.
public struct PlannedDestination: Sendable, Hashable {
    /// The destination as validated.
    public var destination: Destination
    /// Its detours, in file order.
    public var detours: [PlannedDetour]
    /// Its index among the trip's destinations, in file order.
    public var index = 0
    /// The chosen sides' totals here.
    public var totals = Totals()
    /// The stay's own budget and how the chosen sides stand against it.
    public var budget: BudgetOutcome?
    /// The hours a day here for detours.
    public var dayHours = DayHours.standard
    /// Minutes available for detours: nights times the day's minutes.
    public var availableMinutes = 0
    /// By how many minutes the chosen sides exceed the available minutes (0 if they do not).
    public var overByMinutes = 0
    /// One entry per day of the stay (arrival up to the day before departure), in order.
    public var schedule: [ScheduleDay] = []
    /// Chosen sides that fit on no day, as (detour, side) indices.
    public var unscheduled: [ScheduleItem] = []

    /// Whether every chosen side has a place in the schedule.
    public var isFeasible: Bool { unscheduled.isEmpty }

    /// Creates a planned destination; the planner fills in the rest.
    public init(destination: Destination, detours: [PlannedDetour]) {
        self.destination = destination
        self.detours = detours
    }
}

/// A detour with each side's figures and which side is better on each.
public struct PlannedDetour: Sendable, Hashable {
    /// The sides, left first; fewer than two for a draft.
    public var tasks: [PlannedTask]
    /// Which side is better on each figure.
    public var better: BetterSides
    /// The side to pick, and why.
    public var recommendation: Recommendation
    /// The side chosen for the plan: the recommendation unless a budget chose another; `nil`
    /// while undecided.
    public var chosen: Int?
    /// Why ``chosen`` is chosen.
    public var chosenBecause: ChoiceReason?
    /// Whether a side is still undecided.
    public var isDraft: Bool { tasks.count < Detour.sides }

    /// The detour's title, from its tasks' names, as ``Detour/title`` makes it.
    ///
    /// Made when it is read, not kept: a large trip's plan held a title for each of its detours,
    /// a twentieth of the memory of its report.
    public var title: String { Detour.title(of: tasks.map(\.task.name)) }
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
    /// The direction from its destination at the start of that line, in degrees clockwise from
    /// north, or `nil` when the task has no location: where a map centred on the stay puts it.
    public var bearing: Double?
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
