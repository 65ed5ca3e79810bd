/// A value a reader found (or did not find) in a trip file, before any rule is applied.
///
/// Readers report type errors themselves (`a number was expected`) and mark the field
/// ``invalid`` so the validator does not report it a second time as missing.
public enum Field<Value: Sendable>: Sendable {
    /// Absent from the file; the location says what it would have been called.
    case missing(SourceLocation)
    /// Present but unusable; the reader has already reported why.
    case invalid
    /// Present, with where it was found.
    case present(Value, SourceLocation)

    /// The value, when present.
    public var value: Value? {
        if case .present(let value, _) = self { return value }
        return nil
    }

    /// Where the value is, or would have been.
    public var location: SourceLocation? {
        switch self {
        case .missing(let location), .present(_, let location): return location
        case .invalid: return nil
        }
    }
}

extension Field: Equatable where Value: Equatable {}

/// A trip as a reader found it: raw text for every value, with where each one came from.
///
/// Both readers (JSON and GPX) produce this, and ``TripValidator`` turns it into a ``Trip``, so
/// every rule and every message is the same whichever format the trip was written in.
public struct TripDraft: Sendable {
    /// The trip as a whole, for problems with no single field.
    public var location: SourceLocation
    /// The title.
    public var title: Field<String>
    /// The traveller's email address; missing is fine.
    public var traveler: Field<String>
    /// Where the traveller stays.
    public var destinations: [DestinationDraft]
    /// The trip-wide travel mode's name; missing means walking.
    public var travel: Field<String>

    /// Creates a draft.
    public init(
        location: SourceLocation, title: Field<String>, traveler: Field<String>,
        destinations: [DestinationDraft], travel: Field<String> = .missing(SourceLocation(path: "travel"))
    ) {
        self.location = location
        self.title = title
        self.traveler = traveler
        self.destinations = destinations
        self.travel = travel
    }
}

/// A destination as a reader found it.
public struct DestinationDraft: Sendable {
    /// The destination as a whole.
    public var location: SourceLocation
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

    /// Creates a destination draft.
    public init(
        location: SourceLocation, name: Field<String>, coordinate: Field<CoordinateDraft>,
        arrival: Field<String>, departure: Field<String>, detours: [DetourDraft]
    ) {
        self.location = location
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
    public var location: SourceLocation
    /// Its sides, in order: the first is the left side.
    public var sides: [TaskSide]

    /// Creates a detour draft from tasks still to be checked.
    public init(location: SourceLocation, tasks: [TaskDraft]) {
        self.location = location
        self.sides = tasks.map(TaskSide.draft)
    }

    /// Creates a detour draft from sides, some perhaps checked already.
    public init(location: SourceLocation, sides: [TaskSide]) {
        self.location = location
        self.sides = sides
    }
}

/// One side of a detour draft: a task still to check, or one a streaming reader has checked
/// already with ``TripValidator/validate(task:)`` so that it need not keep the draft.
public enum TaskSide: Sendable {
    /// A task still to be checked.
    case draft(TaskDraft)
    /// A task checked as it was read: the task, or `nil` when it had errors (already reported).
    case checked(DetourTask?)
}

/// A task as a reader found it.
public struct TaskDraft: Sendable {
    /// The task as a whole.
    public var location: SourceLocation
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
        location: SourceLocation, name: Field<String>, duration: Field<String>,
        cost: Field<MoneyDraft>, coordinate: Field<CoordinateDraft>,
        pros: [Field<String>], cons: [Field<String>],
        travel: Field<String> = .missing(SourceLocation(path: "travel")),
        path: Field<PathDraft> = .missing(SourceLocation(path: "path"))
    ) {
        self.location = location
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

/// A path as a reader found it.
public enum PathDraft: Sendable {
    /// Points still to be checked, each as number text (JSON).
    case points([CoordinateDraft])
    /// Points a streaming reader has checked already (GPX tracks can be long).
    case checked(RoutePath)
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
