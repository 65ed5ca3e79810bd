import Foundation

/// The places a map app exports (GPX waypoints, routes and tracks; GeoJSON points and lines),
/// made into a draft trip to finish by hand.
///
/// Each point becomes a draft detour of one task at that place (its description and link as
/// pros); each route or track a task whose path it is, ending at its last point. Places are
/// grouped into stays: one at the centre of each cluster, a cluster being places linked by hops
/// of at most ``clusterMetres`` (single linkage). What a file cannot say (days, durations,
/// costs) gets placeholders, and ``TripImport/Draft/notes`` says which.
public enum TripImport {
    /// A place to visit: a waypoint or a point feature.
    public struct Point: Sendable, Equatable {
        public var name: String?
        public var description: String?
        public var link: String?
        public var location: Coordinate

        public init(name: String?, description: String?, link: String?, location: Coordinate) {
            (self.name, self.description, self.link, self.location) = (name, description, link, location)
        }
    }

    /// A way: a route, a track (its segments joined) or a line feature.
    public struct Line: Sendable, Equatable {
        public var name: String?
        public var points: [Coordinate]

        public init(name: String?, points: [Coordinate]) {
            (self.name, self.points) = (name, points)
        }
    }

    /// What a file holds.
    public struct Places: Sendable, Equatable {
        public var title: String?
        public var points: [Point] = []
        public var lines: [Line] = []

        public init(title: String?, points: [Point] = [], lines: [Line] = []) {
            (self.title, self.points, self.lines) = (title, points, lines)
        }

        /// Whether there is nothing to import.
        public var isEmpty: Bool { points.isEmpty && !lines.contains { !$0.points.isEmpty } }
    }

    /// The draft trip, and what its reader must finish.
    public struct Draft: Sendable {
        public var trip: Trip
        /// One line each: what is a placeholder.
        public var notes: [String]
    }

    /// Places more than this apart (by every chain of hops) are separate stays: 50 km.
    public static let clusterMetres = 50_000.0
    /// The most places a file may give: single linkage compares every pair.
    public static let maxPlaces = 10_000

    /// The draft of `places`, its stays planned from `day`.
    ///
    /// The first stay arrives two weeks after `day`, and each stays one night, one after the
    /// other. `fileName` titles a file without a name.
    public static func draft(_ places: Places, from day: CalendarDay, fileName: String) -> Draft {
        let lines = places.lines.filter { !$0.points.isEmpty }
        // Anchors: a point's place, a line's first point.
        var anchors = places.points.map(\.location) + lines.compactMap(\.points.first)
        anchors = Array(anchors.prefix(maxPlaces))
        let clusters = cluster(anchors)
        let placeholders = Placeholders.standard
        var stays: [Destination] = []
        // Two weeks ahead, or as late as the calendar goes.
        let first = later(day, by: 14)
        var start = first
        for (number, members) in clusters.enumerated() {
            let centre = centre(of: members.map { anchors[$0] })
            var detours: [Detour] = []
            for member in members {
                if member < places.points.count {
                    let point = places.points[member]
                    detours.append(Detour(tasks: [task(point, number: member + 1, placeholders)]))
                } else {
                    let line = lines[member - places.points.count]
                    detours.append(Detour(tasks: [task(line, number: member + 1, placeholders)]))
                }
            }
            let pointName = places.points.indices.contains(members[0]) ? places.points[members[0]].name : nil
            var name = "Stay \(number + 1)"
            if let near = pointName.flatMap(nonBlank) { name += " near \(near)" }
            if clusters.count == 1 { name = places.title.flatMap(nonBlank) ?? "Stay" }
            let departure = later(start, by: 1)
            stays.append(
                Destination(name: name, location: centre, arrival: start, departure: departure, detours: detours))
            start = departure
        }
        let title = places.title.flatMap(nonBlank) ?? "Places from \(fileName)"
        var notes = [
            "each stay's arrival and departure are placeholders (one night from \(first)); set the real ones",
            "each task's duration (1h) and cost (0 EUR) are placeholders; set them, and add each detour's other side",
        ]
        if anchors.count < places.points.count + lines.count {
            notes.append("only the first \(maxPlaces) places were imported")
        }
        return Draft(trip: Trip(title: title, traveler: nil, destinations: stays), notes: notes)
    }

    /// `count` days after `day`, or the last day there is.
    static func later(_ day: CalendarDay, by count: Int) -> CalendarDay {
        var last = day
        for _ in 0..<count {
            guard let next = last.adding(days: 1) else { break }
            last = next
        }
        return last
    }

    static func nonBlank(_ text: String) -> String? {
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return folded.isEmpty ? nil : folded
    }

    /// A task's placeholders: an hour, nothing to pay.
    struct Placeholders {
        var duration: TaskDuration
        var cost: Money

        /// An hour and 0 EUR, both valid by construction.
        static let standard = Placeholders(duration: .hour, cost: Money(amount: 0, currency: .euro))
    }

    static func task(_ point: Point, number: Int, _ placeholders: Placeholders) -> DetourTask {
        var pros: [String] = []
        if let description = point.description.flatMap(nonBlank) { pros.append(description) }
        if let link = point.link.flatMap(nonBlank) { pros.append(link) }
        return DetourTask(
            name: point.name.flatMap(nonBlank) ?? "Place \(number)", duration: placeholders.duration,
            cost: placeholders.cost, location: point.location, pros: pros, cons: [])
    }

    static func task(_ line: Line, number: Int, _ placeholders: Placeholders) -> DetourTask {
        DetourTask(
            name: line.name.flatMap(nonBlank) ?? "Way \(number)", duration: placeholders.duration,
            cost: placeholders.cost, location: line.points.last, pros: [], cons: [],
            path: line.points.count >= 2 ? RoutePath(points: line.points) : nil)
    }

    /// The places linked by hops of at most ``clusterMetres``, each group in file order, the
    /// groups in the order of their first place.
    static func cluster(_ places: [Coordinate]) -> [[Int]] {
        var group = Array(places.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while group[index] != index {
                group[index] = group[group[index]]
                index = group[index]
            }
            return index
        }
        for first in places.indices {
            for second in places.indices where second > first {
                guard root(first) != root(second),
                    Geodesy.distance(from: places[first], to: places[second]) <= clusterMetres
                else { continue }
                group[max(root(first), root(second))] = min(root(first), root(second))
            }
        }
        var clusters: [Int: [Int]] = [:]
        for index in places.indices { clusters[root(index), default: []].append(index) }
        return clusters.keys.sorted().compactMap { clusters[$0] }
    }

    /// The centre of `points`: the mean of their directions from the Earth's centre, so places
    /// either side of the antimeridian centre on it, not on the Greenwich side.
    static func centre(of points: [Coordinate]) -> Coordinate {
        var (x, y, z) = (0.0, 0.0, 0.0)
        for point in points {
            let (lat, lon) = (point.latitude * .pi / 180, point.longitude * .pi / 180)
            x += cos(lat) * cos(lon)
            y += cos(lat) * sin(lon)
            z += sin(lat)
        }
        let lon = atan2(y, x) * 180 / .pi
        let lat = atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi
        let rounded = { (value: Double) in (value * 10_000).rounded() / 10_000 }
        guard let centre = Coordinate(latitude: rounded(lat), longitude: rounded(lon)) else { return points[0] }
        return centre
    }
}
