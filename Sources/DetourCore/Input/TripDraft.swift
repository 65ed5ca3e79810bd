/// A value a reader found (or did not find) in a trip file, before any rule is applied.
///
/// Readers report shape errors themselves (`must be a string, not a number`) and mark the field
/// ``invalid`` so the validator does not report it a second time as missing. A field knows where
/// it was written, not what it is called: the validator names every field by its place in the
/// trip, the same way for every format.
public enum Field<Value: Sendable>: Sendable {
    /// Absent from the file; the position is where it would have been (its enclosing element).
    case missing(SourcePosition)
    /// Present but unusable; the reader has already reported why.
    case invalid
    /// Present, with where it was written.
    case present(Value, SourcePosition)

    /// The value, when present.
    public var value: Value? {
        if case .present(let value, _) = self { return value }
        return nil
    }

    /// Where the value is, or would have been.
    public var position: SourcePosition? {
        switch self {
        case .missing(let position), .present(_, let position): return position
        case .invalid: return nil
        }
    }
}

extension Field: Equatable where Value: Equatable {}

/// A trip as a reader found it: raw text for every value, with where each one came from.
///
/// Both readers (JSON and GPX) produce this, and ``TripValidator`` turns it into a ``Trip``, so
/// every rule, limit and message is the same whichever format the trip was written in.
public struct TripDraft: Sendable {
    /// The trip as a whole, for problems with no single field.
    public var position: SourcePosition
    /// The title.
    public var title: Field<String>
    /// The traveller's email address; missing is fine.
    public var traveler: Field<String>
    /// Where the traveller stays: missing when the file has no list of destinations at all, which
    /// is not the same as an empty list (a trip not planned yet).
    public var destinations: Field<[DestinationDraft]>
    /// The trip-wide travel mode's name; missing means walking.
    public var travel: Field<String>
    /// The traveller's own currency's code, which totals and budgets are given in.
    public var currency: Field<String> = .missing(.unknown)
    /// Exchange rates into ``currency``, as written.
    public var rates: [RateDraft] = []
    /// Where the rates are, or would be.
    public var ratesPosition: SourcePosition? = nil
    /// A budget for every detour of the trip.
    public var budget: Field<MoneyDraft> = .missing(.unknown)
    /// Hours a day spent on detours, as number text.
    public var dayHours: Field<String> = .missing(.unknown)
    /// Tasks the file holds but could not place in the trip (in GPX, a task naming a stay that
    /// does not exist, which the reader reports): checked for their own values, so one run
    /// reports every problem, then left out.
    public var unplacedTasks: [TaskDraft] = []

    /// Creates a draft.
    public init(
        position: SourcePosition, title: Field<String>, traveler: Field<String>,
        destinations: Field<[DestinationDraft]>, travel: Field<String> = .missing(.unknown)
    ) {
        self.position = position
        self.title = title
        self.traveler = traveler
        self.destinations = destinations
        self.travel = travel
    }
}

/// One exchange rate as written: a currency's code and what one unit of it is worth in the
/// trip's currency.
public struct RateDraft: Sendable {
    /// The currency's code (a JSON key, a GPX attribute).
    public var currency: Field<String>
    /// The rate's number text.
    public var value: Field<String>

    /// Creates a rate draft.
    public init(currency: Field<String>, value: Field<String>) {
        self.currency = currency
        self.value = value
    }
}

/// A destination as a reader found it.
public struct DestinationDraft: Sendable {
    /// The destination as a whole.
    public var position: SourcePosition
    /// The name.
    public var name: Field<String>
    /// Where it is; required.
    public var coordinate: Field<CoordinateDraft>
    /// The arrival day as written.
    public var arrival: Field<String>
    /// The departure day as written.
    public var departure: Field<String>
    /// Its detours.
    public var detours: [DetourDraft]
    /// A budget for this stay's detours.
    public var budget: Field<MoneyDraft> = .missing(.unknown)
    /// Hours a day spent on detours here, as number text.
    public var dayHours: Field<String> = .missing(.unknown)

    /// Creates a destination draft.
    public init(
        position: SourcePosition, name: Field<String>, coordinate: Field<CoordinateDraft>,
        arrival: Field<String>, departure: Field<String>, detours: [DetourDraft]
    ) {
        self.position = position
        self.name = name
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
        self.detours = detours
    }
}

/// A latitude and longitude as written, each as number text.
public struct CoordinateDraft: Sendable {
    /// The latitude's text.
    public var latitude: Field<String>
    /// The longitude's text.
    public var longitude: Field<String>

    /// Creates a coordinate draft.
    public init(latitude: Field<String>, longitude: Field<String>) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A detour as a reader found it.
public struct DetourDraft: Sendable {
    /// The detour as a whole.
    public var position: SourcePosition
    /// Its tasks, in the file's order: the first is the left side, unless tasks name their sides.
    public var tasks: [TaskDraft]
    /// The side each task names, in the order of ``tasks``.
    ///
    /// `1` is left and `2` right, as GPX's `side` writes it; empty when the file names none, as
    /// trip JSON never does. The validator places the tasks by it. It is kept here, not on each task, so that a check of a million tasks without sides never
    /// looks for one in each.
    public var sides: [Field<String>] = []

    /// Creates a detour draft.
    public init(position: SourcePosition, tasks: [TaskDraft], sides: [Field<String>] = []) {
        self.position = position
        self.tasks = tasks
        self.sides = sides
    }
}

/// A task as a reader found it.
public struct TaskDraft: Sendable {
    /// The task as a whole.
    public var position: SourcePosition
    /// The name.
    public var name: Field<String>
    /// The duration as written (`PT1H30M`, `90m`).
    public var duration: Field<String>
    /// The cost.
    public var cost: Field<MoneyDraft>
    /// Where it is; optional.
    public var coordinate: Field<CoordinateDraft>
    /// Reasons to pick it.
    public var pros: [Field<String>]
    /// Reasons not to.
    public var cons: [Field<String>]
    /// The task's own travel mode's name, if it has one.
    public var travel: Field<String>
    /// The way there, if the file gives one.
    public var path: Field<PathDraft>

    /// Creates a task draft.
    public init(
        position: SourcePosition, name: Field<String>, duration: Field<String>,
        cost: Field<MoneyDraft>, coordinate: Field<CoordinateDraft>,
        pros: [Field<String>], cons: [Field<String>],
        travel: Field<String> = .missing(.unknown),
        path: Field<PathDraft> = .missing(.unknown)
    ) {
        self.position = position
        self.name = name
        self.duration = duration
        self.cost = cost
        self.coordinate = coordinate
        self.pros = pros
        self.cons = cons
        self.travel = travel
        self.path = path
    }
}

/// A path as a reader found it: its points, each as number text.
public struct PathDraft: Sendable {
    /// The points, from the destination towards the task.
    public var points: [CoordinateDraft]
    /// How many points the file gave; more than `points.count` when a streaming reader stopped
    /// keeping them past the limit (``TripLimits/maxPathPoints``), so that the validator can still
    /// refuse the trip by that limit without the reader holding every point.
    public var count: Int

    /// Creates a path draft of `points`; `count` defaults to their number.
    public init(points: [CoordinateDraft], count: Int? = nil) {
        self.points = points
        self.count = count ?? points.count
    }
}

/// A cost as written: amount text and currency text.
public struct MoneyDraft: Sendable {
    /// The amount's number text.
    public var amount: Field<String>
    /// The currency code's text.
    public var currency: Field<String>

    /// Creates a money draft.
    public init(amount: Field<String>, currency: Field<String>) {
        self.amount = amount
        self.currency = currency
    }
}
