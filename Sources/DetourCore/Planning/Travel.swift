/// How a traveller gets from their stay to a task and back, and the figures behind it.
///
/// Every speed and the detour factor are named here, once, with where they come from; reports
/// print them in their footnote.
public enum TravelMode: String, Sendable, Hashable, CaseIterable {
    /// On foot.
    case walk
    /// By bicycle.
    case cycle
    /// By bus, tram or metro.
    case transit
    /// By car or taxi.
    case drive

    /// Average speed in km/h, door to door.
    public var kilometresPerHour: Double {
        switch self {
        // Typical adult walking pace, 1.4 m/s (Bohannon 1997, comfortable gait speed).
        case .walk: return 5
        // Typical urban cycling speed including stops at junctions.
        case .cycle: return 15
        // Average commercial speed of urban buses, trams and metros, stops included.
        case .transit: return 20
        // Average urban driving speed in traffic, parking not included.
        case .drive: return 30
        }
    }

    /// Where the speed comes from, for the report's footnote.
    public var source: String {
        switch self {
        case .walk: return "typical adult walking pace, 1.4 m/s"
        case .cycle: return "typical urban cycling speed with stops"
        case .transit: return "average urban bus, tram and metro speed with stops"
        case .drive: return "average urban driving speed in traffic"
        }
    }
}

/// The rules that turn a distance into travel time.
public enum Travel {
    /// Streets are not straight: without a path, the straight-line distance is multiplied by
    /// this to estimate the distance travelled (urban circuity is typically 1.2 to 1.4).
    public static let detourFactor = 1.3

    /// Why the factor is what it is, for the report's footnote.
    public static let detourFactorSource = "urban street networks run 1.2 to 1.4 times the straight line"

    /// A path starting or ending further than this from where it should is suspicious.
    public static let pathToleranceMetres = 1000.0

    /// Warnings about a path that starts far from its destination or ends far from its task.
    public static func pathWarnings(_ path: RoutePath, from destination: Coordinate, to task: Coordinate?) -> [String] {
        var warnings: [String] = []
        if let first = path.points.first {
            let gap = Geodesy.distance(from: destination, to: first)
            if gap > pathToleranceMetres {
                warnings.append("the path starts \(Int(gap.rounded())) m from its destination (more than 1 km)")
            }
        }
        if let task, let last = path.points.last {
            let gap = Geodesy.distance(from: last, to: task)
            if gap > pathToleranceMetres {
                warnings.append("the path ends \(Int(gap.rounded())) m from its task (more than 1 km)")
            }
        }
        return warnings
    }

    /// Minutes for the round trip over `metres` one way, rounded up to a whole minute.
    public static func roundTripMinutes(oneWayMetres metres: Double, mode: TravelMode) -> Int {
        let hours = 2 * metres / 1000 / mode.kilometresPerHour
        return Int((hours * 60).rounded(.up))
    }
}

/// The way from a destination to a task, as a list of points.
public struct RoutePath: Sendable, Hashable {
    /// The points, in order, from the destination towards the task.
    public var points: [Coordinate]
    /// Its length along the ellipsoid, point to point, in metres.
    public var metres: Double

    /// A path through `points`, measured with ``Geodesy``.
    public init(points: [Coordinate]) {
        self.points = points
        var total = 0.0
        for index in points.indices.dropFirst() {
            total += Geodesy.distance(from: points[index - 1], to: points[index])
        }
        metres = total
    }
}

/// Which figure picks the recommended side of a detour.
public enum Preference: String, Sendable, Hashable, CaseIterable {
    /// Least total time (the Amazing Race rule); on a tie, the cheaper.
    case time
    /// Cheapest (same currency only); on a tie, the least total time.
    case cost
    /// Nearest in travel distance; on a tie, the least total time.
    case distance
}
