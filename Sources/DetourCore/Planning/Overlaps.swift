/// The overlap rule: two stays may share a changeover day (one departs the day the next
/// arrives), not more; a stay that starts before an earlier one has ended gets a warning.
public enum Overlaps {
    /// A warning for each stay that starts before another (earlier-arriving) stay has ended.
    public static func warnings(_ destinations: [Destination]) -> [Diagnostic] {
        let order = destinations.indices.sorted {
            (destinations[$0].arrival, $0) < (destinations[$1].arrival, $1)
        }
        var warnings: [Diagnostic] = []
        // The stay that ends last among those already seen.
        var latest: Int?
        for index in order {
            let stay = destinations[index]
            if let previous = latest {
                let other = destinations[previous]
                let nights = stay.arrival.days(to: other.departure)
                if nights > 0 {
                    warnings.append(
                        Diagnostic(
                            .overlappingStays, path: "destinations[\(index)].arrival",
                            "the stay arrives \(stay.arrival), \(nights) night\(nights == 1 ? "" : "s") before the stay at "
                                + "\(Quoting.quoted(other.name)) (destinations[\(previous)]) departs on \(other.departure)"
                        ))
                }
                if stay.departure > other.departure { latest = index }
            } else {
                latest = index
            }
        }
        return warnings
    }
}
