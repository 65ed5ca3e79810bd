/// The rules that put a destination in a section and order each section.
public enum Sections {
    /// The section a stay from `arrival` to `departure` is in on `today`.
    ///
    /// Past if it has ended (departure before today), future if it has not started (arrival
    /// after today), otherwise now: a stay arriving today or leaving today is under way.
    public static func kind(of destination: Destination, today: CalendarDay) -> SectionKind {
        if destination.departure < today { return .past }
        if destination.arrival > today { return .future }
        return .now
    }

    /// `destinations` (all of one section) in that section's order; ties keep input order.
    ///
    /// Future: soonest arrival first. Now: soonest departure first. Past: most recently ended
    /// (latest departure) first.
    public static func sorted<Item>(
        _ items: [Item], in kind: SectionKind, destination: (Item) -> Destination
    ) -> [Item] {
        let keyed = items.enumerated().map { (offset, item) -> (key: Int, offset: Int, item: Item) in
            let stay = destination(item)
            let key: Int
            switch kind {
            case .future: key = stay.arrival.daysSinceEpoch
            case .now: key = stay.departure.daysSinceEpoch
            case .past: key = -stay.departure.daysSinceEpoch
            }
            return (key, offset, item)
        }
        // Sorting on (key, offset) makes the order stable whatever algorithm sort uses.
        return keyed.sorted { ($0.key, $0.offset) < ($1.key, $1.offset) }.map(\.item)
    }
}
