import Foundation

/// Every rule a trip must follow, applied to a ``TripDraft`` from any reader.
///
/// The validator never stops at the first problem: it returns every error and warning it finds,
/// each with its location, and a ``Trip`` only when there are no errors.
public enum TripValidator {
    /// What validation found.
    public struct Outcome: Sendable {
        /// The trip, when there were no errors.
        public var trip: Trip?
        /// Every problem found, in file order.
        public var diagnostics: [Diagnostic]

        /// Creates an outcome.
        public init(trip: Trip?, diagnostics: [Diagnostic]) {
            self.trip = trip
            self.diagnostics = diagnostics
        }
    }

    /// Applies every rule to `draft`.
    public static func validate(_ draft: TripDraft) -> Outcome {
        var check = Checker()
        let title = check.line(draft.title, what: "the title", required: "a trip needs a title")
        var traveler: EmailAddress?
        if case .present(let text, let location) = draft.traveler {
            if let address = EmailAddress(text) {
                traveler = address
            } else {
                check.error(
                    location,
                    "\(Quoting.quoted(text)) is not an email address: it needs one character "
                        + "either side of an \"@\", and a \".\" between two characters after it")
            }
        }
        let travel = check.mode(draft.travel) ?? .walk
        let destinations = draft.destinations.compactMap { check.destination($0) }
        let ok = !check.diagnostics.containsErrors && !check.failedEarlier
        let trip = ok ? title.map { Trip(title: $0, traveler: traveler, destinations: destinations, travel: travel) } : nil
        return Outcome(trip: trip, diagnostics: check.diagnostics)
    }

    /// Applies every task rule to one task, for readers that check tasks as they stream.
    ///
    /// The result goes into a ``DetourDraft`` as ``TaskSide/checked(_:)``; the diagnostics are the
    /// reader's to report.
    public static func validate(task draft: TaskDraft) -> (task: DetourTask?, diagnostics: [Diagnostic]) {
        var check = Checker()
        let task = check.task(draft)
        return (task, check.diagnostics)
    }
}

/// Collects diagnostics while checking one draft.
private struct Checker {
    var diagnostics: [Diagnostic] = []
    /// Whether a side checked by its reader had errors (reported there, not here).
    var failedEarlier = false

    mutating func error(_ location: SourceLocation?, _ message: String) {
        diagnostics.append(.error(location, message))
    }

    mutating func warning(_ location: SourceLocation?, _ message: String) {
        diagnostics.append(.warning(location, message))
    }

    /// Reports a missing required field; returns nil for anything that is not present.
    mutating func required<Value>(_ field: Field<Value>, _ message: String) -> (Value, SourceLocation)? {
        switch field {
        case .missing(let location):
            error(location, message)
            return nil
        case .invalid:
            return nil
        case .present(let value, let location):
            return (value, location)
        }
    }

    mutating func line(_ field: Field<String>, what: String, required message: String) -> String? {
        guard let (text, location) = required(field, message) else { return nil }
        do {
            return try TextRules.singleLine(text)
        } catch {
            self.error(location, TextRules.message(error, what: what))
            return nil
        }
    }

    mutating func destination(_ draft: DestinationDraft) -> Destination? {
        let before = diagnostics.errors.count
        let name = line(draft.name, what: "the name", required: "a destination needs a name")
        let location = coordinate(draft.coordinate, required: "a destination needs a location")
        let arrival = day(draft.arrival, what: "arrival")
        let departure = day(draft.departure, what: "departure")
        if let arrival, let departure, departure <= arrival,
            let where_ = draft.departure.location
        {
            error(where_, "departure \(departure) is not after arrival \(arrival)")
        }
        let detours = draft.detours.compactMap { detour($0, origin: location) }
        guard diagnostics.errors.count == before, let name, let location, let arrival, let departure
        else { return nil }
        return Destination(
            name: name, location: location, arrival: arrival, departure: departure, detours: detours)
    }

    /// A travel mode's name: walk, cycle, transit or drive.
    mutating func mode(_ field: Field<String>) -> TravelMode? {
        guard case .present(let text, let location) = field else { return nil }
        guard let mode = TravelMode(rawValue: text) else {
            error(location, "travel mode \(Quoting.quoted(text)) is not one of walk, cycle, transit, drive")
            return nil
        }
        return mode
    }

    mutating func path(_ field: Field<PathDraft>) -> RoutePath? {
        guard case .present(let draft, let location) = field else { return nil }
        switch draft {
        case .checked(let path):
            return path
        case .points(let drafts):
            let before = diagnostics.errors.count
            let points = drafts.compactMap { coordinate(.present($0, location), required: nil) }
            guard diagnostics.errors.count == before else { return nil }
            guard points.count >= 2 else {
                error(location, "a path needs at least two points, this one has \(points.count)")
                return nil
            }
            return RoutePath(points: points)
        }
    }

    mutating func day(_ field: Field<String>, what: String) -> CalendarDay? {
        guard let (text, location) = required(field, "a destination needs an \(what) day") else {
            return nil
        }
        guard let day = CalendarDay(iso: text) else {
            error(location, "\(what) \(Quoting.quoted(text)) is not a calendar day (YYYY-MM-DD)")
            return nil
        }
        return day
    }

    mutating func coordinate(_ field: Field<CoordinateDraft>, required message: String?) -> Coordinate? {
        let draft: CoordinateDraft
        switch field {
        case .missing(let location):
            if let message { error(location, message) }
            return nil
        case .invalid:
            return nil
        case .present(let value, _):
            draft = value
        }
        let latitude = axis(draft.latitude, .latitude)
        let longitude = axis(draft.longitude, .longitude)
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    mutating func axis(_ field: Field<String>, _ axis: Coordinate.Axis) -> Double? {
        guard let (text, location) = required(field, "a location needs a \(axis.name)") else {
            return nil
        }
        do {
            return try Coordinate.parse(text, axis: axis)
        } catch {
            self.error(location, Coordinate.message(for: error, text: text, axis: axis))
            return nil
        }
    }

    /// Checks a detour; `origin` is its destination's location, when valid, for path warnings.
    mutating func detour(_ draft: DetourDraft, origin: Coordinate?) -> Detour? {
        let before = diagnostics.errors.count
        switch draft.sides.count {
        case 0:
            warning(draft.location, "draft detour: no tasks yet, both sides are undecided")
        case 1:
            warning(draft.location, "draft detour: one task, the other side is undecided")
        case 2:
            break
        default:
            error(
                draft.location,
                "a detour is a choice between two tasks, this one has \(draft.sides.count)")
        }
        var tasks: [DetourTask] = []
        var complete = true
        for side in draft.sides {
            switch side {
            case .draft(let taskDraft):
                if let task = task(taskDraft, origin: origin) { tasks.append(task) } else { complete = false }
            case .checked(let checked):
                if let checked { tasks.append(checked) } else { complete = false }
            }
        }
        if !complete { failedEarlier = true }
        guard complete, diagnostics.errors.count == before else { return nil }
        return Detour(tasks: tasks)
    }

    /// Checks a task; with its destination's location, a path of its own is checked against it.
    mutating func task(_ draft: TaskDraft, origin: Coordinate? = nil) -> DetourTask? {
        let before = diagnostics.errors.count
        let name = line(draft.name, what: "the name", required: "a task needs a name")
        var duration: TaskDuration?
        if let (text, location) = required(draft.duration, "a task needs a duration") {
            do {
                duration = try TaskDuration.parse(text)
            } catch {
                self.error(location, durationMessage(error, text))
            }
        }
        let cost = money(draft.cost)
        let location = coordinate(draft.coordinate, required: nil)
        if case .missing(let where_) = draft.coordinate, name != nil {
            warning(where_, "no location, so its distance is unknown")
        }
        let pros = draft.pros.compactMap { reason($0, what: "a pro") }
        let cons = draft.cons.compactMap { reason($0, what: "a con") }
        let travel = mode(draft.travel)
        let route = path(draft.path)
        // A path a streaming reader checked already was warned about there, with its own location.
        if let origin, let route, case .present(.points, let where_) = draft.path {
            for message in Travel.pathWarnings(route, from: origin, to: location) {
                warning(where_, message)
            }
        }
        guard diagnostics.errors.count == before, let name, let duration, let cost else {
            return nil
        }
        return DetourTask(
            name: name, duration: duration, cost: cost, location: location, pros: pros, cons: cons,
            travel: travel, path: route)
    }

    mutating func reason(_ field: Field<String>, what: String) -> String? {
        guard case .present(let text, let location) = field else { return nil }
        do {
            return try TextRules.multiLine(text)
        } catch {
            self.error(location, TextRules.message(error, what: what))
            return nil
        }
    }

    mutating func money(_ field: Field<MoneyDraft>) -> Money? {
        guard let (draft, _) = required(field, "a task needs a cost") else { return nil }
        var parsed: (amount: Decimal, scale: Int)?
        if let (text, location) = required(draft.amount, "a cost needs an amount") {
            do {
                parsed = try Money.parseAmount(text)
            } catch {
                self.error(location, amountMessage(error, text))
            }
        }
        var currency: CurrencyCode?
        if let (text, location) = required(draft.currency, "a cost needs a currency") {
            currency = CurrencyCode(text)
            if currency == nil {
                error(
                    location,
                    "currency \(Quoting.quoted(text)) is not an ISO 4217 code (three capital letters, like EUR)"
                )
            }
        }
        guard let parsed, let currency else { return nil }
        return Money(amount: parsed.amount, currency: currency, scale: parsed.scale)
    }

    func durationMessage(_ error: TaskDuration.ParseError, _ text: String) -> String {
        let shown = "duration \(Quoting.quoted(text))"
        switch error {
        case .notADuration:
            return "\(shown) is not a duration (write PT1H30M, 1h30m, 90m or 2h)"
        case .calendarUnit:
            return "\(shown) uses years or months, which have no fixed length; use days or weeks"
        case .partialMinute:
            return "\(shown) is not a whole number of minutes"
        case .notPositive:
            return "\(shown) is not positive"
        case .tooLong:
            return "\(shown) is longer than the 30 days a task may take"
        }
    }

    func amountMessage(_ error: Money.ParseError, _ text: String) -> String {
        let shown = "amount \(Quoting.printable(text))"
        switch error {
        case .notANumber: return "amount \(Quoting.quoted(text)) is not a decimal number"
        case .negative: return "\(shown) is negative; a cost is zero or more"
        case .tooLarge: return "\(shown) is out of range (at most 1000000000000)"
        case .tooPrecise: return "\(shown) has more than 6 digits after the point"
        }
    }
}
