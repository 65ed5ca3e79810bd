import Foundation

/// Every rule and every limit a trip must follow, applied to a ``TripDraft`` from any reader.
///
/// This is the one place a trip is judged: a JSON trip and a GPX trip that mean the same thing
/// get the same diagnostics, with the same codes and the same paths. The validator never stops at
/// the first problem: it returns every error and warning it finds, each named by its place in the
/// trip (`destinations[0].detours[1].tasks[0].duration`) and its position in the file, and a
/// ``Trip`` only when there are no errors.
///
/// The rules for single values live with their types (``CalendarDay``, ``TaskDuration``,
/// ``Money``, ``Coordinate``, ``EmailAddress``, ``TextRules``, ``TravelMode``); the rules about
/// how values relate (departure after arrival, two sides to a detour, a path's ends) and the
/// limits (``TripLimits``) are here.
public enum TripValidator {
    /// What validation found.
    public struct Outcome: Sendable {
        /// The trip, when there were no errors.
        public var trip: Trip?
        /// Every problem found, in the order the trip lists its fields.
        public var diagnostics: [Diagnostic]

        /// Creates an outcome.
        public init(trip: Trip?, diagnostics: [Diagnostic]) {
            self.trip = trip
            self.diagnostics = diagnostics
        }
    }

    /// Applies every rule and limit to `draft`.
    public static func validate(_ draft: TripDraft, limits: TripLimits = .standard) -> Outcome {
        var check = Checker(limits: limits)
        let trip = check.trip(draft)
        return Outcome(trip: check.diagnostics.containsErrors ? nil : trip, diagnostics: check.diagnostics)
    }

    /// Validates a trip's destinations one at a time, as a reader finds them, then the rest of
    /// the trip: the outcome ``validate(_:limits:)`` gives for the whole draft, without the whole
    /// draft.
    ///
    /// A draft is several times the size of its file (each value's text and position), and a
    /// trip of 20,000 stays held as one peaked at seven times its file; checked as they come,
    /// only one destination's draft is held at a time. It is for a reader that places every task
    /// in a destination, as the JSON reader does: a draft's ``TripDraft/unplacedTasks`` are
    /// checked after its destinations here, so a limit on tasks or path points met among them
    /// would be reported at another task than ``validate(_:limits:)`` reports it at.
    public struct Destinations: Sendable {
        private var checker: Checker
        private var destinations: [Destination] = []
        /// How many destination drafts were given, those past the limit included.
        private var count = 0

        /// A check of no destinations yet.
        public init(limits: TripLimits = .standard) {
            checker = Checker(limits: limits)
        }

        /// Forgets the destinations checked so far: the file gives its list of destinations again,
        /// which replaces the first, as it does in a draft.
        public mutating func restart() {
            self = Destinations(limits: checker.limits)
        }

        /// Checks the next destination of the list, as ``validate(_:limits:)`` checks it; past
        /// the limit on destinations it is only counted.
        public mutating func check(_ draft: DestinationDraft) {
            defer { count += 1 }
            guard count < checker.limits.maxDestinations else { return }
            if let destination = checker.destination(draft, Place(destination: count)) {
                destinations.append(destination)
            }
        }

        /// The outcome for the trip `draft`, whose ``TripDraft/destinations`` stand for the list
        /// checked here: present (its elements are not looked at), missing or invalid.
        public func outcome(_ draft: TripDraft) -> Outcome {
            var check = Checker(limits: checker.limits)
            let header = check.header(draft)
            check.list(draft, count: count)
            check.diagnostics += checker.diagnostics
            let trip = header.trip(destinations)
            return Outcome(trip: check.diagnostics.containsErrors ? nil : trip, diagnostics: check.diagnostics)
        }
    }
}

/// Where the checker is in the trip; turned into a path only when a diagnostic needs one, since
/// most fields never do.
private struct Place {
    var destination: Int?
    var detour: Int?
    var task: Int?

    /// The path of `field` here, in trip JSON's spelling.
    func path(_ field: String) -> String {
        var path = ""
        if let destination { path = "destinations[\(destination)]" }
        if let detour { path += ".detours[\(detour)]" }
        if let task { path += ".tasks[\(task)]" }
        if field.isEmpty { return path }
        if path.isEmpty || field.hasPrefix("[") { return path + field }
        return path + "." + field
    }
}

/// A trip's own fields as checked; `nil` where a value was refused.
private struct TripHeader {
    var title: String?
    var traveler: EmailAddress?
    var travel: TravelMode
    var rates: ExchangeRates?
    var budget: Money?
    var dayHours: DayHours?

    /// The trip of these fields and `destinations`; `nil` without a title.
    func trip(_ destinations: [Destination]) -> Trip? {
        guard let title else { return nil }
        return Trip(
            title: title, traveler: traveler, destinations: destinations, travel: travel, rates: rates, budget: budget,
            dayHours: dayHours)
    }
}

/// Collects diagnostics while checking one draft.
private struct Checker {
    let limits: TripLimits
    var diagnostics: [Diagnostic] = []
    var detourCount = 0
    var taskCount = 0
    var pointCount = 0
    var nightCount = 0

    init(limits: TripLimits) {
        self.limits = limits
    }

    mutating func report(
        _ code: DiagnosticCode, _ place: Place, _ field: @autoclosure () -> String, _ position: SourcePosition?,
        _ message: String
    ) {
        diagnostics.append(Diagnostic(code, path: place.path(field()), at: position, message))
    }

    /// A present text, checked against the text limit; reports a missing one when `required`
    /// gives the message, and returns nil for anything absent, invalid or too long.
    mutating func text(
        _ field: Field<String>, _ place: Place, _ name: @autoclosure () -> String,
        required: @autoclosure () -> String? = nil
    ) -> (String, SourcePosition)? {
        switch field {
        case .missing(let position):
            if let message = required() { report(.missingField, place, name(), position, message) }
            return nil
        case .invalid:
            return nil
        case .present(let text, let position):
            guard withinLength(text, position, place, name()) else { return nil }
            return (text, position)
        }
    }

    /// Whether `text` is within the limit on any text; past it, reported at `name`.
    mutating func withinLength(
        _ text: String, _ position: SourcePosition, _ place: Place, _ name: @autoclosure () -> String
    ) -> Bool {
        guard text.utf8.count <= limits.maxTextBytes else {
            report(
                .textTooLong, place, name(), position,
                "the text is longer than \(limits.maxTextBytes) bytes, the limit for any text in a trip")
            return false
        }
        return true
    }

    /// A present token (a day, a code, a duration, a number as text), with the white space
    /// around it dropped (see ``TokenText``); otherwise as ``text(_:_:_:required:)``.
    mutating func token(
        _ field: Field<String>, _ place: Place, _ name: @autoclosure () -> String,
        required: @autoclosure () -> String? = nil
    ) -> (String, SourcePosition)? {
        guard let (text, position) = text(field, place, name(), required: required()) else { return nil }
        return (TokenText.trimmed(text), position)
    }

    /// `text` read by `Rule`, or `nil` after reporting why it was refused, at `name`.
    mutating func value<Rule: ValueRule>(
        _ rule: Rule.Type, _ text: String, _ position: SourcePosition, _ place: Place, _ name: @autoclosure () -> String
    ) -> Rule.Value? {
        do {
            return try Rule.parse(text)
        } catch {
            report(Rule.code(error), place, name(), position, Rule.message(error, text: text))
            return nil
        }
    }

    /// A one-line text (a title, a name): white space folded, not blank.
    mutating func line(
        _ field: Field<String>, _ place: Place, _ name: String, what: String, required: String
    ) -> String? {
        guard let (text, position) = self.text(field, place, name, required: required) else { return nil }
        do {
            return try TextRules.singleLine(text)
        } catch {
            report(error.code, place, name, position, TextRules.message(error, what: what))
            return nil
        }
    }

    // MARK: - Trip

    mutating func trip(_ draft: TripDraft) -> Trip? {
        let header = self.header(draft)
        var drafts: ArraySlice<DestinationDraft> = []
        if case .present(let list, _) = draft.destinations { drafts = ArraySlice(list) }
        list(draft, count: drafts.count)
        drafts = drafts.prefix(limits.maxDestinations)
        var destinations: [Destination] = []
        destinations.reserveCapacity(drafts.count)
        for (index, destinationDraft) in drafts.enumerated() {
            if let destination = destination(destinationDraft, Place(destination: index)) {
                destinations.append(destination)
            }
        }
        return header.trip(destinations)
    }

    /// The trip's own fields, checked, with the tasks it could not place.
    mutating func header(_ draft: TripDraft) -> TripHeader {
        let top = Place()
        let title = line(draft.title, top, "title", what: "the title", required: "a trip needs a title")
        var traveler: EmailAddress?
        if let (text, position) = text(draft.traveler, top, "traveler") {
            do throws(TextRules.Problem) {
                // Any text's characters first: an address is printed and written into GPX.
                try TextRules.check(text)
                traveler = EmailAddress(text)
                if traveler == nil {
                    report(.badEmail, top, "traveler", position, EmailAddress.refusal(text))
                }
            } catch {
                report(error.code, top, "traveler", position, TextRules.message(error, what: "the traveler"))
            }
        }
        let travel = mode(draft.travel, top, "travel") ?? .walk
        let rates = rates(draft, top)
        let budget = money(draft.budget, top, "budget", required: nil)
        let dayHours = dayHours(draft.dayHours, top)
        // A task that could not be placed still has values worth checking in the same run.
        for task in draft.unplacedTasks {
            _ = self.task(task, top, origin: nil)
        }
        return TripHeader(
            title: title, traveler: traveler, travel: travel, rates: rates, budget: budget, dayHours: dayHours)
    }

    /// What is wrong with the list of destinations itself: none at all, or `count`, more than the
    /// limit.
    mutating func list(_ draft: TripDraft, count: Int) {
        if case .missing(let position) = draft.destinations {
            report(
                .missingField, Place(), "destinations", position,
                "a trip needs a list of destinations (it may be empty)")
        }
        if count > limits.maxDestinations {
            report(
                .tooManyDestinations, Place(), "destinations", draft.position,
                "the trip has \(count) destinations, more than the limit of \(limits.maxDestinations)")
        }
    }

    /// A travel mode's name: walk, cycle, transit or drive.
    mutating func mode(_ field: Field<String>, _ place: Place, _ name: String) -> TravelMode? {
        guard let (text, position) = token(field, place, name) else { return nil }
        guard let mode = TravelMode(rawValue: text) else {
            report(
                .badTravelMode, place, name, position,
                "travel mode \(Quoting.quoted(text)) is not one of walk, cycle, transit, drive")
            return nil
        }
        return mode
    }

    // MARK: - Destinations

    mutating func destination(_ draft: DestinationDraft, _ place: Place) -> Destination? {
        let before = diagnostics.count
        let name = line(draft.name, place, "name", what: "the name", required: "a destination needs a name")
        let location = coordinate(draft.coordinate, place, "location", required: "a destination needs a location")
        let arrival = day(draft.arrival, place, "arrival")
        let departure = day(draft.departure, place, "departure")
        if let arrival, let departure, departure <= arrival {
            report(
                .departureNotAfterArrival, place, "departure", draft.departure.position,
                "departure \(departure) is not after arrival \(arrival)")
        }
        if let arrival, let departure, departure > arrival {
            nights(arrival.days(to: departure), place, draft.departure.position)
        }
        let budget = money(draft.budget, place, "budget", required: nil)
        let dayHours = dayHours(draft.dayHours, place)
        var detours: [Detour] = []
        for (index, detourDraft) in draft.detours.enumerated() {
            var detourPlace = place
            detourPlace.detour = index
            if let detour = detour(detourDraft, detourPlace, origin: location) { detours.append(detour) }
        }
        guard !diagnostics[before...].containsErrors, let name, let location, let arrival, let departure
        else { return nil }
        return Destination(
            name: name, location: location, arrival: arrival, departure: departure, detours: detours, budget: budget,
            dayHours: dayHours)
    }

    mutating func day(_ field: Field<String>, _ place: Place, _ what: String) -> CalendarDay? {
        guard
            let (text, position) = token(
                field, place, what, required: "a destination needs \(what == "arrival" ? "an" : "a") \(what) day")
        else {
            return nil
        }
        guard let day = CalendarDay(iso: text) else {
            report(
                .badDay, place, what, position,
                "\(what) \(Quoting.quoted(text)) is not a calendar day (YYYY-MM-DD)\(CalendarDay.meantHint(text))")
            return nil
        }
        // A calendar ends a stay's all-day event the day after its departure, which must exist.
        if what == "departure", day.adding(days: 1) == nil {
            report(
                .badDay, place, what, position,
                "departure \(day) is the last day there is; a stay must end by 9999-12-30, as a calendar ends it the day after"
            )
            return nil
        }
        return day
    }

    // MARK: - Locations and paths

    mutating func coordinate(
        _ field: Field<CoordinateDraft>, _ place: Place, _ name: @autoclosure () -> String, required message: String?
    ) -> Coordinate? {
        let draft: CoordinateDraft
        switch field {
        case .missing(let position):
            if let message { report(.missingField, place, name(), position, message) }
            return nil
        case .invalid:
            return nil
        case .present(let value, _):
            draft = value
        }
        let latitude = axis(draft.latitude, .latitude, place, "\(name()).lat")
        let longitude = axis(draft.longitude, .longitude, place, "\(name()).lon")
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    mutating func axis(
        _ field: Field<String>, _ axis: Coordinate.Axis, _ place: Place, _ name: @autoclosure () -> String
    )
        -> Double?
    {
        guard let (text, position) = token(field, place, name(), required: "a location needs a \(axis.name)") else {
            return nil
        }
        switch axis {
        case .latitude: return value(Coordinate.LatitudeRule.self, text, position, place, name())
        case .longitude: return value(Coordinate.LongitudeRule.self, text, position, place, name())
        }
    }

    /// A stay's nights against the limits on one stay and on the whole trip.
    mutating func nights(_ nights: Int, _ place: Place, _ position: SourcePosition?) {
        if nights > limits.maxStayNights {
            report(
                .stayTooLong, place, "departure", position,
                "the stay lasts \(nights) nights, more than the limit of \(limits.maxStayNights); is a year mistyped?")
            return
        }
        let before = nightCount
        nightCount += nights
        if nightCount > limits.maxNights, before <= limits.maxNights {
            report(
                .tooManyNights, place, "departure", position,
                "the trip's stays last more than \(limits.maxNights) nights in all, the limit")
        }
    }

    mutating func path(_ field: Field<PathDraft>, _ place: Place, origin: Coordinate?, task: Coordinate?) -> RoutePath?
    {
        guard case .present(let draft, let position) = field else { return nil }
        let before = pointCount
        pointCount += draft.count
        if pointCount > limits.maxPathPoints {
            if before <= limits.maxPathPoints {
                report(
                    .tooManyPathPoints, place, "path", position,
                    "paths hold more than \(limits.maxPathPoints) points in all, the limit")
            }
            return nil
        }
        let errorsBefore = diagnostics.count
        var points: [Coordinate] = []
        points.reserveCapacity(draft.points.count)
        for (index, point) in draft.points.enumerated() {
            if let coordinate = coordinate(.present(point, position), place, "path[\(index)]", required: nil) {
                points.append(coordinate)
            }
        }
        guard !diagnostics[errorsBefore...].containsErrors else { return nil }
        guard points.count >= 2 else {
            report(
                .shortPath, place, "path", position, "a path needs at least two points, this one has \(points.count)")
            return nil
        }
        let route = RoutePath(points: points)
        if let origin {
            for message in Travel.pathWarnings(route, from: origin, to: task) {
                report(.pathFarFromEnds, place, "path", position, message)
            }
        }
        return route
    }

    // MARK: - Detours and tasks

    /// Checks a detour; `origin` is its destination's location, when valid, for path warnings.
    mutating func detour(_ draft: DetourDraft, _ place: Place, origin: Coordinate?) -> Detour? {
        detourCount += 1
        if detourCount == limits.maxDetours + 1 {
            report(
                .tooManyDetours, place, "", draft.position,
                "the trip has more than \(limits.maxDetours) detours, the limit")
        }
        let before = diagnostics.count
        switch draft.tasks.count {
        case 0:
            report(.draftDetour, place, "", draft.position, "draft detour: no tasks yet, both sides are undecided")
        case 1:
            report(.draftDetour, place, "", draft.position, "draft detour: one task, the other side is undecided")
        case 2:
            break
        default:
            report(
                .tooManySides, place, "tasks", draft.position,
                "a detour is a choice between two tasks, this one has \(draft.tasks.count)")
        }
        var tasks: [DetourTask] = []
        // Without sides (as in any JSON trip), the file's order is the side order.
        let order = draft.sides.isEmpty ? nil : inSideOrder(draft.sides, place)
        for index in draft.tasks.indices {
            var taskPlace = place
            taskPlace.task = index
            if let task = task(draft.tasks[order?[index] ?? index], taskPlace, origin: origin) { tasks.append(task) }
        }
        guard !diagnostics[before...].containsErrors else { return nil }
        return Detour(tasks: tasks)
    }

    /// Puts a detour's tasks in side order.
    ///
    /// Each task that names its side (`1` left, `2` right) goes to that place, the others fill the
    /// free places in the file's order. A side that is not 1 or 2, or that another task has
    /// already, is an error, and that task fills a free place.
    ///
    /// `sides` are the tasks' sides as written, in the file's order; returns the tasks' indexes
    /// in side order, so that no task is copied to be put in order.
    mutating func inSideOrder(_ sides: [Field<String>], _ place: Place) -> [Int] {
        var placed: [Int?] = Array(repeating: nil, count: max(sides.count, Detour.sides))
        var unsided: [Int] = []
        var problems: [(index: Int, code: DiagnosticCode, position: SourcePosition, message: String)] = []
        for (index, side) in sides.enumerated() {
            guard case .present(let written, let position) = side else {
                unsided.append(index)
                continue
            }
            guard let side = Int(TokenText.trimmed(written)), (1...Detour.sides).contains(side) else {
                problems.append(
                    (
                        index, .gpxBadSide, position,
                        "side \(Quoting.quoted(written)) is not 1 (the left side) or 2 (the right)"
                    ))
                unsided.append(index)
                continue
            }
            if placed[side - 1] != nil {
                problems.append(
                    (index, .gpxDuplicateSide, position, "another task of this detour is side \(side) already"))
                unsided.append(index)
            } else {
                placed[side - 1] = index
            }
        }
        var rest = unsided.makeIterator()
        for slot in placed.indices where placed[slot] == nil { placed[slot] = rest.next() }
        let order = placed.compactMap { $0 }
        for problem in problems {
            var taskPlace = place
            taskPlace.task = order.firstIndex(of: problem.index)
            report(problem.code, taskPlace, "side", problem.position, problem.message)
        }
        return order
    }

    /// Checks a task; with its destination's location, a path of its own is checked against it.
    mutating func task(_ draft: TaskDraft, _ place: Place, origin: Coordinate?) -> DetourTask? {
        taskCount += 1
        if taskCount == limits.maxTasks + 1 {
            report(
                .tooManyTasks, place, "", draft.position, "the trip has more than \(limits.maxTasks) tasks, the limit")
        }
        let before = diagnostics.count
        let name = line(draft.name, place, "name", what: "the name", required: "a task needs a name")
        var duration: TaskDuration?
        if let (text, position) = token(draft.duration, place, "duration", required: "a task needs a duration") {
            duration = value(TaskDuration.self, text, position, place, "duration")
        }
        let cost = money(draft.cost, place)
        let location = coordinate(draft.coordinate, place, "location", required: nil)
        if let location, let origin, case .present(_, let position) = draft.coordinate,
            let warning = TaskDistanceRule.warning(task: location, stay: origin)
        {
            report(.taskFarFromStay, place, "location", position, warning)
        }
        // With a path, the way there is known even without the task's own location.
        if case .missing(let position) = draft.coordinate, name != nil, draft.path.value == nil {
            report(.taskWithoutLocation, place, "location", position, "no location, so its distance is unknown")
        }
        let pros = reasons(draft.pros, place, "pros", what: "a pro")
        let cons = reasons(draft.cons, place, "cons", what: "a con")
        let travel = mode(draft.travel, place, "travel")
        let route = path(draft.path, place, origin: origin, task: location)
        guard !diagnostics[before...].containsErrors, let name, let duration, let cost else {
            return nil
        }
        return DetourTask(
            name: name, duration: duration, cost: cost, location: location, pros: pros, cons: cons,
            travel: travel, path: route)
    }

    mutating func reasons(_ fields: [Field<String>], _ place: Place, _ key: String, what: String) -> [String] {
        var kept: [String] = []
        for (index, field) in fields.enumerated() {
            // An item of a list is there or the reader has reported it (`.invalid`).
            guard case .present(let text, let position) = field, withinLength(text, position, place, "\(key)[\(index)]")
            else { continue }
            do {
                kept.append(try TextRules.multiLine(text))
            } catch {
                report(error.code, place, "\(key)[\(index)]", position, TextRules.message(error, what: what))
            }
        }
        return kept
    }

    /// An amount in a currency: a task's cost, or a budget (`name`); `required` is the message
    /// for a missing one, `nil` when it may be absent.
    mutating func money(
        _ field: Field<MoneyDraft>, _ place: Place, _ name: String = "cost", required: String? = "a task needs a cost"
    ) -> Money? {
        let draft: MoneyDraft
        switch field {
        case .missing(let position):
            if let required { report(.missingField, place, name, position, required) }
            return nil
        case .invalid:
            return nil
        case .present(let value, _):
            draft = value
        }
        var parsed: (amount: Decimal, scale: Int)?
        if let (text, position) = token(draft.amount, place, "\(name).amount", required: "a \(name) needs an amount") {
            parsed = value(Money.AmountRule.self, text, position, place, "\(name).amount")
        }
        // The message is made only for a missing currency: made for every cost, it was a seventh
        // of checking one.
        var required: String?
        if case .missing = draft.currency { required = "a \(name) needs a currency" }
        let currency = self.currency(draft.currency, place, "\(name).currency", required: required)
        guard let parsed, let currency else { return nil }
        return Money(amount: parsed.amount, currency: currency, scale: parsed.scale)
    }
}

extension Checker {
    /// A currency code: three capital letters (an error otherwise), in the bundled ISO 4217 list
    /// (a warning otherwise, since the list changes).
    mutating func currency(
        _ field: Field<String>, _ place: Place, _ name: @autoclosure () -> String, required: String? = nil
    ) -> CurrencyCode? {
        guard let (text, position) = token(field, place, name(), required: required) else { return nil }
        guard let currency = CurrencyCode(text) else {
            report(
                .badCurrency, place, name(), position,
                "currency \(Quoting.quoted(text)) is not an ISO 4217 code (three capital letters, like EUR)"
                    + PriceText.currencyHint(text))
            return nil
        }
        if !ISO4217.isKnown(currency) {
            report(
                .unknownCurrency, place, name(), position,
                "currency \(currency.code) is not in the ISO 4217 list of \(ISO4217.edition); check the code")
        }
        return currency
    }

    /// The trip's currency and its declared rates; rates without a currency are an error.
    mutating func rates(_ draft: TripDraft, _ top: Place) -> ExchangeRates? {
        let currency = self.currency(draft.currency, top, "currency")
        var rates: [CurrencyCode: Decimal] = [:]
        for rate in draft.rates {
            // A JSON rate is a key and its value; a GPX dr:rate may leave its currency out.
            let key: String
            switch rate.currency {
            case .present(let text, _):
                key = text
            case .missing(let position):
                report(.missingField, top, "rates", position, "a rate needs a currency")
                continue
            case .invalid:
                continue
            }
            let code = self.currency(rate.currency, top, TripPath.member("rates", key))
            guard
                let (text, position) = token(
                    rate.value, top, TripPath.member("rates", key), required: "a rate needs a value"),
                let value = value(ExchangeRates.RateRule.self, text, position, top, TripPath.member("rates", key))
            else { continue }
            guard let code else { continue }
            if rates[code] != nil {
                report(
                    .duplicateRate, top, TripPath.member("rates", key), position,
                    "currency \(code.code) has a rate already")
            } else if code == currency, value != 1 {
                report(
                    .badRate, top, TripPath.member("rates", key), position,
                    "\(code.code) is the trip's own currency, so its rate is 1, not \(Quoting.printable(text))")
            } else {
                rates[code] = value
            }
        }
        if currency == nil, !draft.rates.isEmpty, case .missing = draft.currency {
            report(
                .ratesWithoutCurrency, top, "rates", draft.ratesPosition,
                "rates convert into the trip's currency, but the trip has none; give the trip a currency")
        }
        return currency.map { ExchangeRates(currency: $0, rates: rates) }
    }

    /// Hours a day for detours, in whole minutes.
    mutating func dayHours(_ field: Field<String>, _ place: Place) -> DayHours? {
        guard let (text, position) = token(field, place, "day_hours") else { return nil }
        return value(DayHours.self, text, position, place, "day_hours")
    }
}

extension TextRules.Problem {
    /// The diagnostic code for this problem.
    var code: DiagnosticCode {
        switch self {
        case .blank: return .blankText
        case .controlCharacter: return .controlCharacter
        case .noncharacter: return .noncharacter
        }
    }
}
