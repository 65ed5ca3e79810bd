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
    /// A place to visit: a waypoint, a point feature or a placemark.
    public struct Point: Sendable, Equatable {
        public var name: String?
        public var description: String?
        public var link: String?
        public var location: Coordinate
        /// Its street address, as a map app keeps it (Google Takeout's `location.address`).
        public var address: String?
        /// The folder or layer it was listed in (a KML `Folder`).
        public var folder: String?

        public init(
            name: String?, description: String?, link: String?, location: Coordinate, address: String? = nil,
            folder: String? = nil
        ) {
            (self.name, self.description, self.link, self.location) = (name, description, link, location)
            (self.address, self.folder) = (address, folder)
        }
    }

    /// A point of the file that is no place, left out.
    public struct Skipped: Sendable, Equatable {
        /// Why a point is left out.
        public enum Reason: Error, Sendable, Equatable, CaseIterable {
            /// No position at all: no geometry, or `0, 0`, which apps write for a place they
            /// have no position for (Google Takeout does).
            case noPosition
            /// Coordinates that are not numbers, or out of range (`lat="undefined"`).
            case badCoordinates
        }

        public var name: String?
        public var reason: Reason

        public init(name: String?, reason: Reason) {
            (self.name, self.reason) = (name, reason)
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
        /// The points left out, in file order.
        public var skipped: [Skipped] = []

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

    /// Places more than this apart (by every chain of hops) are separate stays by default: 50 km,
    /// a day's reach on foot and by transit (a day trip from Rome to Tivoli is 30 km, from
    /// Florence to Siena 50).
    public static let clusterMetres = 50_000.0
    /// Points closer than this are the same place, and one task: 10 m, closer than two
    /// buildings' doors.
    public static let samePlaceMetres = 10.0
    /// The most places a file may give: single linkage compares every pair.
    public static let maxPlaces = 10_000

    /// How a draft is made beyond the file's places.
    public struct Options: Sendable {
        /// Places further apart than this, by every chain of hops, are separate stays.
        public var stayRadius: Double
        /// The first stay's arrival; `nil`: two weeks after the day the draft is made.
        public var firstDay: CalendarDay?
        /// The nights of the whole trip, spread over its stays by their number of tasks;
        /// `nil`: one night a stay.
        public var nights: Int?
        /// The name of the town or city at a point, for a stay's name; `nil` when none is near.
        public var placeName: @Sendable (Coordinate) -> String?

        public init(
            stayRadius: Double = clusterMetres, firstDay: CalendarDay? = nil, nights: Int? = nil,
            placeName: @escaping @Sendable (Coordinate) -> String? = { _ in nil }
        ) {
            (self.stayRadius, self.firstDay, self.nights, self.placeName) = (stayRadius, firstDay, nights, placeName)
        }
    }

    /// The draft of `places`, its stays planned from `day` as `options` say.
    ///
    /// Without a first day, the first stay arrives two weeks after `day`; without a number of
    /// nights, each stays one night, one after the other. A stay is named after the town or city
    /// at its centre, else after its first named place. `fileName` titles a file without a name.
    public static func draft(
        _ places: Places, from day: CalendarDay, fileName: String, options: Options = Options()
    ) -> Draft {
        let lines = places.lines.filter { !$0.points.isEmpty }
        let placeholders = Placeholders.standard
        // Each place a task, a point's anchor its place, a line's its first point; points at the
        // same place one task.
        var tasks: [(anchor: Coordinate, task: DetourTask, firstName: String?)] = []
        var merged: [String] = []
        for (index, point) in places.points.enumerated() where tasks.count < maxPlaces {
            let task = task(point, number: index + 1, placeholders)
            if let same = tasks.firstIndex(where: { isSamePlace($0.anchor, point.location) }) {
                tasks[same].task = combined(tasks[same].task, with: task)
                merged.append(task.name)
                continue
            }
            tasks.append((point.location, task, point.name.flatMap(nonBlank)))
        }
        for (index, line) in lines.enumerated() where tasks.count < maxPlaces {
            if let first = line.points.first {
                tasks.append((first, task(line, number: places.points.count + index + 1, placeholders), nil))
            }
        }
        let clusters = cluster(tasks.map(\.anchor), within: options.stayRadius)
        let nights = spread(options.nights, over: clusters.map(\.count))
        var stays: [Destination] = []
        var taken: [String: Int] = [:]
        // Two weeks ahead, or as late as the calendar goes.
        let first = options.firstDay ?? later(day, by: 14)
        var start = first
        for (number, members) in clusters.enumerated() {
            let centre = centre(of: members.map { tasks[$0].anchor })
            let detours = members.map { Detour(tasks: [tasks[$0].task]) }
            var name = "Stay \(number + 1)"
            if let near = members.lazy.compactMap({ tasks[$0].firstName }).first { name += " near \(near)" }
            if clusters.count == 1 { name = places.title.flatMap(nonBlank) ?? "Stay" }
            if let town = options.placeName(centre).flatMap(nonBlank) { name = town }
            // Two stays near the same town: Florence, Florence 2.
            taken[name, default: 0] += 1
            if let count = taken[name], count > 1 { name += " \(count)" }
            let departure = later(start, by: nights[number])
            stays.append(
                Destination(name: name, location: centre, arrival: start, departure: departure, detours: detours))
            start = departure
        }
        let title = places.title.flatMap(nonBlank) ?? "Places from \(fileName)"
        let days =
            options.nights == nil
            ? "one night each from \(first)" : "\(nights.reduce(0, +)) nights from \(first), by their places"
        var notes = [
            "each stay's arrival and departure are placeholders (\(days)); set the real ones",
            "each task's duration (1h) and cost (0 EUR) are placeholders; set them, and add each detour's other side",
        ]
        if let asked = options.nights, asked < clusters.count {
            notes.append("\(clusters.count) stays need \(clusters.count) nights, more than the \(asked) asked for")
        }
        if !merged.isEmpty {
            notes.append(
                "\(merged.count) \(merged.count == 1 ? "point was" : "points were") at the place of another, and made "
                    + "one task with it: \(Quoting.series(someNames(merged), "and"))")
        }
        if tasks.count >= maxPlaces, places.points.count + lines.count > maxPlaces {
            notes.append("only the first \(maxPlaces) places were imported")
        }
        return Draft(trip: Trip(title: title, traveler: nil, destinations: stays), notes: notes)
    }

    /// Whether `a` and `b` are within ``samePlaceMetres``: first by degrees (a thousandth of one
    /// is over 100 m of latitude, and over 10 m of longitude up to 84°), so that most pairs of
    /// 10,000 places cost no geodesic.
    static func isSamePlace(_ a: Coordinate, _ b: Coordinate) -> Bool {
        guard abs(a.latitude - b.latitude) < 0.001 else { return false }
        let longitude = abs(a.longitude - b.longitude)
        guard min(longitude, 360 - longitude) < 0.001 || abs(a.latitude) > 84 else { return false }
        return Geodesy.distance(from: a, to: b) <= samePlaceMetres
    }

    /// `task` with what `other`, a point at the same place, adds: its pros, and its name when it
    /// is another.
    static func combined(_ task: DetourTask, with other: DetourTask) -> DetourTask {
        var task = task
        var extra = other.pros
        if other.name != task.name { extra.insert("Also saved as \(other.name)", at: 0) }
        for pro in extra where !task.pros.contains(pro) { task.pros.append(pro) }
        return task
    }

    /// `total` nights spread over stays of `sizes` tasks, in proportion (largest remainder), at
    /// least one each; one each without a total.
    static func spread(_ total: Int?, over sizes: [Int]) -> [Int] {
        guard let total, total > sizes.count, !sizes.isEmpty else { return sizes.map { _ in 1 } }
        let spare = total - sizes.count
        let all = sizes.reduce(0, +)
        var nights = sizes.map { 1 + spare * $0 / all }
        // The nights rounding left, to the stays that lost most to it, the first among equals.
        let order = sizes.indices.sorted { (spare * sizes[$0] % all, -$0) > (spare * sizes[$1] % all, -$1) }
        for index in order.prefix(total - nights.reduce(0, +)) { nights[index] += 1 }
        return nights
    }

    /// The first five of `names`, quoted as messages quote what a file says (control
    /// characters escaped), then how many more there are: `"Enzo"`, `"Caffè"`, `3 more`.
    static func someNames(_ names: [String]) -> [String] {
        var shown = names.prefix(5).map { Quoting.quoted($0) }
        if names.count > 5 { shown.append("\(names.count - 5) more") }
        return shown
    }

    /// One line for each reason points were left out: `3 points skipped: no position —
    /// Trattoria da Enzo, Café Central and 1 without a name`.
    public static func skippedNotes(_ skipped: [Skipped]) -> [String] {
        Skipped.Reason.allCases.compactMap { reason in
            let left = skipped.filter { $0.reason == reason }
            guard !left.isEmpty else { return nil }
            let why =
                switch reason {
                case .noPosition: "no position (no geometry, or 0, 0)"
                case .badCoordinates: "coordinates that are not numbers in range"
                }
            let named = left.compactMap { $0.name.flatMap(nonBlank) }
            var names = someNames(named)
            let unnamed = left.count - named.count
            if unnamed > 0 { names.append("\(unnamed) without a name") }
            let list = Quoting.series(names, "and")
            return "\(left.count) \(left.count == 1 ? "point" : "points") skipped, with \(why): \(list)"
        }
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
        if let address = point.address.flatMap(nonBlank) { pros.append(address) }
        if let link = point.link.flatMap(nonBlank) { pros.append(link) }
        if let folder = point.folder.flatMap(nonBlank) { pros.append("Listed under \(folder)") }
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

    /// The places linked by hops of at most `within` metres, each group in file order, the
    /// groups in the order of their first place.
    static func cluster(_ places: [Coordinate], within: Double = clusterMetres) -> [[Int]] {
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
                    Geodesy.distance(from: places[first], to: places[second]) <= within
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
