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

        /// Creates options; the defaults follow the trip and prefer time.
        public init(travel: TravelMode? = nil, preference: Preference = .time) {
            self.travel = travel
            self.preference = preference
        }
    }

    /// The plan of `trip` as of `today`.
    public static func plan(_ trip: Trip, today: CalendarDay, options: Options = Options()) -> Plan {
        var grouped: [SectionKind: [PlannedDestination]] = [:]
        for destination in trip.destinations {
            let kind = Sections.kind(of: destination, today: today)
            grouped[kind, default: []].append(plan(destination, tripTravel: trip.travel, options: options))
        }
        let sections = SectionKind.allCases.map { kind in
            PlanSection(
                kind: kind,
                destinations: Sections.sorted(grouped[kind] ?? [], in: kind) { $0.destination })
        }
        return Plan(
            title: trip.title, traveler: trip.traveler, today: today, sections: sections,
            preference: options.preference, defaultTravel: options.travel ?? trip.travel)
    }

    /// One destination with its detours compared.
    public static func plan(
        _ destination: Destination, tripTravel: TravelMode = .walk, options: Options = Options()
    ) -> PlannedDestination {
        let detours = destination.detours.map { detour -> PlannedDetour in
            let tasks = detour.tasks.map { task in
                plan(task, from: destination.location, mode: options.travel ?? task.travel ?? tripTravel)
            }
            return PlannedDetour(
                title: detour.title, tasks: tasks, better: Comparison.betterSides(tasks),
                recommendation: Comparison.recommendation(tasks, preference: options.preference))
        }
        return PlannedDestination(destination: destination, detours: detours)
    }

    /// One task's distances and times.
    static func plan(_ task: DetourTask, from stay: Coordinate, mode: TravelMode) -> PlannedTask {
        var planned = PlannedTask(
            task: task, distanceMeters: task.location.map { Geodesy.distance(from: stay, to: $0) },
            routeMeters: task.path?.metres, travelMode: mode, travelMinutes: nil)
        planned.travelMinutes = planned.travelMeters.map { Travel.roundTripMinutes(oneWayMetres: $0, mode: mode) }
        return planned
    }
}
