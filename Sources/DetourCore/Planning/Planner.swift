/// Turns a validated trip into a plan for a given day.
///
/// Pure: the same trip and `today` always give the same plan. The caller chooses `today`
/// (see ``Today``), which is how tests pin the clock.
public enum Planner {
    /// The plan of `trip` as of `today`.
    public static func plan(_ trip: Trip, today: CalendarDay) -> Plan {
        var grouped: [SectionKind: [PlannedDestination]] = [:]
        for destination in trip.destinations {
            let kind = Sections.kind(of: destination, today: today)
            grouped[kind, default: []].append(plan(destination))
        }
        let sections = SectionKind.allCases.map { kind in
            PlanSection(
                kind: kind,
                destinations: Sections.sorted(grouped[kind] ?? [], in: kind) { $0.destination })
        }
        return Plan(title: trip.title, traveler: trip.traveler, today: today, sections: sections)
    }

    /// One destination with its detours compared.
    public static func plan(_ destination: Destination) -> PlannedDestination {
        let detours = destination.detours.map { detour -> PlannedDetour in
            let tasks = detour.tasks.map { task in
                PlannedTask(
                    task: task,
                    distanceMeters: task.location.map {
                        Geodesy.distance(from: destination.location, to: $0)
                    })
            }
            return PlannedDetour(
                title: detour.title, tasks: tasks, better: Comparison.betterSides(tasks))
        }
        return PlannedDestination(destination: destination, detours: detours)
    }
}
