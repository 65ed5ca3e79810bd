/// The days rule: placing a stay's chosen sides on its days.
///
/// A stay has one day per night, from arrival up to the day before departure, each of its day
/// hours. Chosen sides are placed in the report's detour order, each on the first day with room
/// for it (first fit). A side longer than a day takes the first run of whole empty days it needs.
/// A side that fits nowhere is unscheduled, and the stay is then not feasible.
public enum Schedule {
    /// The schedule of `detours` over the nights of `destination`, with days of `dayHours`.
    public static func place(
        _ detours: [PlannedDetour], in destination: Destination, dayHours: DayHours
    ) -> (days: [ScheduleDay], unscheduled: [ScheduleItem]) {
        let dayMinutes = dayHours.minutes
        // Every night's day exists: the stay's departure, later than all of them, is a valid day.
        var days = (0..<destination.nights).compactMap { destination.arrival.adding(days: $0) }.map { day in
            ScheduleDay(day: day, items: [], coveredByEarlier: false)
        }
        let nights = days.count
        var used = Array(repeating: 0, count: nights)
        var unscheduled: [ScheduleItem] = []
        for (index, detour) in detours.enumerated() {
            guard let side = detour.chosen, side < detour.tasks.count else { continue }
            let minutes = Budget.minutes(detour.tasks[side])
            var item = ScheduleItem(detour: index, task: side, minutes: minutes, days: 1)
            if minutes <= dayMinutes {
                if let day = used.indices.first(where: {
                    used[$0] + minutes <= dayMinutes && !days[$0].coveredByEarlier
                }) {
                    used[day] += minutes
                    days[day].items.append(item)
                } else {
                    unscheduled.append(item)
                }
                continue
            }
            let span = (minutes + dayMinutes - 1) / dayMinutes
            item.days = span
            let start = used.indices.first { first in
                first + span <= nights
                    && (first..<first + span).allSatisfy { used[$0] == 0 && !days[$0].coveredByEarlier }
            }
            guard let start else {
                unscheduled.append(item)
                continue
            }
            days[start].items.append(item)
            var left = minutes
            for day in start..<start + span {
                used[day] = min(left, dayMinutes)
                left -= used[day]
                if day > start { days[day].coveredByEarlier = true }
            }
        }
        return (days, unscheduled)
    }
}
