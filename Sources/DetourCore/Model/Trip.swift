/// A validated trip: every value here has passed every rule in ``TripValidator``.
public struct Trip: Sendable, Hashable {
    /// The trip's title.
    public var title: String
    /// Who travels, when given.
    public var traveler: EmailAddress?
    /// Where the traveller stays, in the order the file lists them.
    public var destinations: [Destination]
    /// How the traveller gets to tasks unless a task says otherwise.
    public var travel: TravelMode
    /// The traveller's own currency and the declared rates into it, when the trip gives a currency.
    public var rates: ExchangeRates?
    /// A budget for all the trip's detours.
    public var budget: Money?
    /// Hours a day spent on detours, unless a stay says otherwise.
    public var dayHours: DayHours?

    /// Creates a trip.
    public init(
        title: String, traveler: EmailAddress?, destinations: [Destination], travel: TravelMode = .walk,
        rates: ExchangeRates? = nil, budget: Money? = nil, dayHours: DayHours? = nil
    ) {
        self.title = title
        self.traveler = traveler
        self.destinations = destinations
        self.travel = travel
        self.rates = rates
        self.budget = budget
        self.dayHours = dayHours
    }

    /// The traveller's own currency, when the trip gives one.
    public var currency: CurrencyCode? { rates?.currency }
}

/// A place the traveller stays, from an arrival day to a later departure day.
public struct Destination: Sendable, Hashable {
    /// The place's name, never blank.
    public var name: String
    /// Where it is.
    public var location: Coordinate
    /// The day of arrival.
    public var arrival: CalendarDay
    /// The day of departure, always after arrival.
    public var departure: CalendarDay
    /// The choices to make while there.
    public var detours: [Detour]
    /// A budget for this stay's detours.
    public var budget: Money?
    /// Hours a day spent on detours here, when the stay sets its own.
    public var dayHours: DayHours?

    /// Creates a destination.
    public init(
        name: String, location: Coordinate, arrival: CalendarDay, departure: CalendarDay,
        detours: [Detour], budget: Money? = nil, dayHours: DayHours? = nil
    ) {
        self.name = name
        self.location = location
        self.arrival = arrival
        self.departure = departure
        self.detours = detours
        self.budget = budget
        self.dayHours = dayHours
    }

    /// Nights spent there: the days from arrival to departure.
    public var nights: Int { arrival.days(to: departure) }
}

/// A choice between two tasks, as in the Amazing Race.
///
/// A detour with fewer than two tasks is a draft: it is valid, and reports show the missing side
/// as undecided.
public struct Detour: Sendable, Hashable {
    /// The tasks to choose between: two, or fewer for a draft.
    public var tasks: [DetourTask]

    /// Creates a detour of at most two tasks.
    public init(tasks: [DetourTask]) {
        self.tasks = tasks
    }

    /// The most tasks a detour has.
    public static let sides = 2

    /// The title, made of the tasks' names: `Wheeze or Cheese`.
    public var title: String { Detour.title(of: tasks.map(\.name)) }

    /// The title of a detour whose tasks have `names`.
    static func title(of names: [String]) -> String {
        switch names.count {
        case 0: return "Undecided detour"
        case 1: return "\(names[0]) or undecided"
        default: return names.joined(separator: " or ")
        }
    }
}

/// One side of a detour: something to do, how long it takes, what it costs, and where it is.
public struct DetourTask: Sendable, Hashable {
    /// The task's name, never blank.
    public var name: String
    /// How long the task itself takes.
    public var duration: TaskDuration
    /// What it costs.
    public var cost: Money
    /// Where it is, when known; without it the distance is unknown.
    public var location: Coordinate?
    /// Reasons to pick it, each non-blank.
    public var pros: [String]
    /// Reasons not to, each non-blank.
    public var cons: [String]
    /// How to get there, when the task says; otherwise the trip's mode.
    public var travel: TravelMode?
    /// The way from the destination to the task, when known.
    public var path: RoutePath?

    /// Creates a task.
    public init(
        name: String, duration: TaskDuration, cost: Money, location: Coordinate?,
        pros: [String], cons: [String], travel: TravelMode? = nil, path: RoutePath? = nil
    ) {
        self.name = name
        self.duration = duration
        self.cost = cost
        self.location = location
        self.pros = pros
        self.cons = cons
        self.travel = travel
        self.path = path
    }
}
