import DetourCore

/// The JSON report: the `detour-report/1` contract scripts rely on.
///
/// Fields may be added; the ones here are never renamed. `better` holds the index in `tasks` of
/// the better side on each figure, or `null` when neither is better.
public enum JSONReport {
    /// The value of the `format` field.
    public static let formatName = "detour-report/1"

    /// The report of `plan` as a JSON value.
    public static func document(plan: Plan, warnings: [Diagnostic]) -> JSONOutput {
        .object([
            ("format", .string(formatName)),
            ("title", .string(plan.title)),
            ("traveler", .string(plan.traveler?.text)),
            ("today", .string(plan.today.description)),
            ("travel", travel(plan)),
            ("currency", .string(plan.rates?.currency.code)),
            (
                "rates",
                .object(
                    (plan.rates?.rates ?? [:]).sorted { $0.key.code < $1.key.code }.map { ($0.key.code, .number($0.value.description)) })
            ),
            ("totals", totals(plan.totals)),
            ("budget", plan.budget.map(budget) ?? .null),
            ("sections", .array(plan.sections.map(section))),
            ("warnings", .array(warnings.map(warning))),
        ])
    }

    /// The assumptions behind every travel time: the default mode, speeds and detour factor.
    static func travel(_ plan: Plan) -> JSONOutput {
        .object([
            ("default_mode", .string(plan.defaultTravel.rawValue)),
            ("prefer", .string(plan.preference.rawValue)),
            ("detour_factor", .number("\(Travel.detourFactor)")),
            ("speeds_kmh", .object(TravelMode.allCases.map { ($0.rawValue, .number("\(Int($0.kilometresPerHour))")) })),
        ])
    }

    static func section(_ section: PlanSection) -> JSONOutput {
        .object([
            ("name", .string(section.kind.rawValue)),
            ("destinations", .array(section.destinations.map(destination))),
        ])
    }

    static func destination(_ planned: PlannedDestination) -> JSONOutput {
        let destination = planned.destination
        return .object([
            ("name", .string(destination.name)),
            ("location", location(destination.location)),
            ("arrival", .string(destination.arrival.description)),
            ("departure", .string(destination.departure.description)),
            ("nights", .int(destination.nights)),
            ("detours", .array(planned.detours.map(detour))),
            ("totals", totals(planned.totals)),
            ("budget", planned.budget.map(budget) ?? .null),
            ("day_hours", .number(planned.dayHours.hoursText)),
            ("available_minutes", .int(planned.availableMinutes)),
            ("over_by_minutes", .int(planned.overByMinutes)),
            ("feasible", .bool(planned.isFeasible)),
            ("schedule", .array(planned.schedule.map(day))),
            ("unscheduled", .array(planned.unscheduled.map { .object([("detour", .int($0.detour)), ("task", .int($0.task))]) })),
        ])
    }

    static func day(_ day: ScheduleDay) -> JSONOutput {
        .object([
            ("day", .string(day.day.description)),
            (
                "items",
                .array(
                    day.items.map { item in
                        .object([
                            ("detour", .int(item.detour)), ("task", .int(item.task)), ("minutes", .int(item.minutes)),
                            ("days", .int(item.days)),
                        ])
                    })
            ),
        ])
    }

    static func money(_ money: Money) -> JSONOutput {
        .object([("amount", .number(money.amountText)), ("currency", .string(money.currency.code))])
    }

    static func totals(_ totals: Totals) -> JSONOutput {
        .object([
            ("cost", .array(totals.costs.map(money))),
            ("cost_in_currency", totals.costInCurrency.map(money) ?? .null),
            ("minutes", .int(totals.minutes)),
            ("chosen", .int(totals.chosen)),
            ("undecided", .int(totals.undecided)),
        ])
    }

    static func budget(_ outcome: BudgetOutcome) -> JSONOutput {
        .object([
            ("amount", .number(outcome.budget.amountText)),
            ("currency", .string(outcome.budget.currency.code)),
            ("spent", outcome.spent.map(money) ?? .null),
            ("within", .bool(outcome.within)),
            ("optimal", .bool(outcome.optimal)),
            ("lower_bound_minutes", .int(outcome.lowerBoundMinutes)),
        ])
    }

    static func detour(_ detour: PlannedDetour) -> JSONOutput {
        .object([
            ("title", .string(detour.title)),
            ("draft", .bool(detour.isDraft)),
            ("tasks", .array(detour.tasks.map(task))),
            (
                "better",
                .object([
                    ("duration", .int(detour.better.duration)),
                    ("cost", .int(detour.better.cost)),
                    ("distance", .int(detour.better.distance)),
                    ("total_time", .int(detour.better.totalTime)),
                ])
            ),
            ("recommended", .int(detour.recommendation.side)),
            ("recommended_because", .string(Formatting.reason(detour.recommendation))),
            ("chosen", .int(detour.chosen)),
            ("chosen_because", .string(detour.chosenBecause?.rawValue)),
        ])
    }

    static func task(_ planned: PlannedTask) -> JSONOutput {
        let task = planned.task
        return .object([
            ("name", .string(task.name)),
            ("duration_minutes", .int(task.duration.minutes)),
            ("cost", money(task.cost)),
            ("location", task.location.map(location) ?? .null),
            // Millimetres: enough for scripts to sum and compare without the report's rounding.
            ("distance_m", planned.distanceMeters.map { .number(Formatting.fixed($0, digits: 3)) } ?? .null),
            ("route_m", planned.routeMeters.map { .number(Formatting.fixed($0, digits: 3)) } ?? .null),
            ("travel_mode", .string(planned.travelMode.rawValue)),
            ("travel_minutes", .int(planned.travelMinutes)),
            ("total_minutes", .int(planned.totalMinutes)),
            ("pros", .array(task.pros.map { .string($0) })),
            ("cons", .array(task.cons.map { .string($0) })),
        ])
    }

    static func location(_ point: Coordinate) -> JSONOutput {
        .object([("lat", .number("\(point.latitude)")), ("lon", .number("\(point.longitude)"))])
    }

    static func warning(_ diagnostic: Diagnostic) -> JSONOutput {
        .object([
            ("code", .string(diagnostic.code.rawValue)),
            ("path", .string(diagnostic.path ?? "")),
            ("line", .int(diagnostic.position?.line)),
            ("message", .string(diagnostic.fullMessage)),
        ])
    }
}
