/// Turns a validated trip into a plan for a given day.
///
/// Pure: the same trip and `today` always give the same plan. The caller chooses `today`
/// (see ``Today``), which is how tests pin the clock.
public enum Planner {
    /// How to plan beyond the trip itself: the command line's choices.
    public struct Options: Sendable, Hashable {
        /// A travel mode for every task, overriding the trip's and the tasks' own.
        public var travel: TravelMode?
        /// The rule that recommends a side.
        public var preference: Preference
        /// Hours a day for detours at every stay, overriding the trip's and the stays' own.
        public var dayHours: DayHours?

        /// Creates options; the defaults follow the trip and prefer time.
        public init(travel: TravelMode? = nil, preference: Preference = .time, dayHours: DayHours? = nil) {
            self.travel = travel
            self.preference = preference
            self.dayHours = dayHours
        }
    }

    /// The plan of `trip` as of `today`.
    public static func plan(_ trip: Trip, today: CalendarDay, options: Options = Options()) -> Plan {
        // A stay's section and its place there depend on its days alone, so each destination is
        // planned straight into its section: a large trip's plan is not made once in file order
        // and copied again into sections (a copy that was a tenth of the memory a report took).
        let destinations = trip.destinations
        var grouped: [SectionKind: [Int]] = [:]
        for index in destinations.indices {
            grouped[Sections.kind(of: destinations[index], today: today), default: []].append(index)
        }
        let order = SectionKind.allCases.map { kind in
            Sections.sorted(grouped[kind] ?? [], in: kind) { destinations[$0] }
        }
        // Where each destination, by its index in the file, is in `sections`.
        var place = [(section: Int, position: Int)](repeating: (0, 0), count: destinations.count)
        for (section, indexes) in order.enumerated() {
            for (position, index) in indexes.enumerated() { place[index] = (section, position) }
        }
        var sections = order.map { indexes in
            indexes.map { index in
                var planned = plan(destinations[index], tripTravel: trip.travel, options: options, rates: trip.rates)
                planned.index = index
                return planned
            }
        }
        // From here on, destinations are visited in file order, as the warnings list them.
        var warnings: [Diagnostic] = []
        let stayBudgets = destinations.contains { $0.budget != nil }
        for (index, (section, position)) in place.enumerated() {
            guard let budget = destinations[index].budget else { continue }
            let outcome = Budget.apply(
                &sections[section][position].detours, budget: budget, rates: trip.rates, choose: true)
            sections[section][position].budget = outcome
            warnings += overBudget(outcome, path: "destinations[\(index)].budget")
        }
        var tripBudget: BudgetOutcome?
        if let budget = trip.budget {
            var all = place.flatMap { sections[$0.section][$0.position].detours }
            let outcome = Budget.apply(&all, budget: budget, rates: trip.rates, choose: !stayBudgets)
            var next = all.makeIterator()
            for (section, position) in place {
                for detour in sections[section][position].detours.indices {
                    if let chosen = next.next() { sections[section][position].detours[detour] = chosen }
                }
            }
            tripBudget = outcome
            warnings += overBudget(outcome, path: "budget")
        }
        for (index, (section, position)) in place.enumerated() {
            lay(
                &sections[section][position],
                dayHours: options.dayHours ?? destinations[index].dayHours ?? trip.dayHours ?? .standard)
            sections[section][position].totals = Totals.of(sections[section][position].detours, rates: trip.rates)
            if !sections[section][position].unscheduled.isEmpty {
                warnings.append(unscheduledWarning(sections[section][position]))
            }
        }
        // The trip's detours are read where they are, in file order, not gathered into one list:
        // for a large trip that list was the largest thing planning made and threw away.
        let planned = sections
        let allDetours = place.lazy.flatMap { planned[$0.section][$0.position].detours }
        if let rates = trip.rates {
            let missing = Totals.missingRates(allDetours, rates: rates)
            if !missing.isEmpty {
                warnings.append(
                    Diagnostic(
                        .missingRate, path: "rates",
                        "the total in \(rates.currency.code) needs a rate for \(missing.map(\.code).joined(separator: ", ")); "
                            + "add it to the trip's rates"))
            }
        }
        warnings += Overlaps.warnings(destinations)
        let totals = Totals.of(allDetours, rates: trip.rates)
        var result = Plan(
            title: trip.title, traveler: trip.traveler, today: today,
            sections: zip(SectionKind.allCases, planned).map { PlanSection(kind: $0, destinations: $1) },
            preference: options.preference, defaultTravel: options.travel ?? trip.travel)
        result.rates = trip.rates
        result.totals = totals
        result.budget = tripBudget
        result.warnings = warnings
        return result
    }

    /// A destination's days: its schedule, what is available and by how much it is exceeded.
    static func lay(_ planned: inout PlannedDestination, dayHours: DayHours) {
        planned.dayHours = dayHours
        let placed = Schedule.place(planned.detours, in: planned.destination, dayHours: dayHours)
        planned.schedule = placed.days
        planned.unscheduled = placed.unscheduled
        planned.availableMinutes = planned.destination.nights * dayHours.minutes
        let used = planned.detours.reduce(0) { sum, detour in
            sum + (detour.chosen.map { Budget.minutes(detour.tasks[$0]) } ?? 0)
        }
        planned.overByMinutes = max(0, used - planned.availableMinutes)
    }

    /// The warning for a budget the chosen sides exceed, or that cannot be judged.
    static func overBudget(_ outcome: BudgetOutcome, path: String) -> [Diagnostic] {
        let budget = Conversion.rounded(outcome.budget.amount, in: outcome.budget.currency).description
        if !outcome.unconverted.isEmpty {
            let codes = outcome.unconverted.map(\.code).joined(separator: ", ")
            return [
                Diagnostic(
                    .missingRate, path: path,
                    "the budget of \(budget) cannot be checked: no declared rate converts \(codes) into "
                        + "\(outcome.budget.currency.code); give the trip a currency and a rate for each")
            ]
        }
        guard let spent = outcome.spent, let over = outcome.over, !outcome.within else { return [] }
        let how = outcome.chose ? ", even at their cheapest" : ""
        return [
            Diagnostic(
                .overBudget, path: path,
                "the chosen sides cost \(spent.description), \(over.description) over the budget of \(budget)\(how)")
        ]
    }

    /// The warning for chosen sides that fit on none of a stay's days.
    static func unscheduledWarning(_ planned: PlannedDestination) -> Diagnostic {
        let names = planned.unscheduled.map { planned.detours[$0.detour].tasks[$0.task].task.name }
        let count = names.count == 1 ? "1 chosen side does" : "\(names.count) chosen sides do"
        return Diagnostic(
            .unscheduledSides, path: "destinations[\(planned.index)]",
            "\(count) not fit on the \(planned.destination.nights) day\(planned.destination.nights == 1 ? "" : "s") of "
                + "\(planned.dayHours.hoursText) h: "
                + names.map { Quoting.quoted($0) }.joined(separator: ", "))
    }

    /// One destination with its detours compared.
    public static func plan(
        _ destination: Destination, tripTravel: TravelMode = .walk, options: Options = Options(),
        rates: ExchangeRates? = nil
    ) -> PlannedDestination {
        let detours = destination.detours.map { detour -> PlannedDetour in
            let tasks = detour.tasks.map { task in
                plan(task, from: destination.location, mode: options.travel ?? task.travel ?? tripTravel)
            }
            let recommendation = Comparison.recommendation(tasks, preference: options.preference, rates: rates)
            // The chosen side is the recommendation, unless a budget chooses later.
            return PlannedDetour(
                tasks: tasks, better: Comparison.betterSides(tasks, rates: rates),
                recommendation: recommendation, chosen: recommendation.side,
                chosenBecause: recommendation.side == nil ? nil : .rule)
        }
        return PlannedDestination(destination: destination, detours: detours)
    }

    /// One task's distances and times.
    static func plan(_ task: DetourTask, from stay: Coordinate, mode: TravelMode) -> PlannedTask {
        // The line's bearing comes with its length from one solution of the geodesic: a map of
        // the stay needs it, and solving the geodesic again there was a twentieth of an HTML report.
        let line = task.location.map { Geodesy.line(from: stay, to: $0) }
        var planned = PlannedTask(
            task: task, distanceMeters: line?.distance, bearing: line?.initialAzimuth,
            routeMeters: task.path?.metres, travelMode: mode, travelMinutes: nil)
        planned.travelMinutes = planned.travelMeters.map { Travel.roundTripMinutes(oneWayMetres: $0, mode: mode) }
        return planned
    }
}
