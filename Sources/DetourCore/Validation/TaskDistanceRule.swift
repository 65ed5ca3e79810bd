import Foundation

/// A task far from its stay: most often a typo, or latitude and longitude written the wrong way
/// round.
///
/// A detour is something done from the stay, so a task more than ``farMetres`` away is warned
/// about (`task-far-from-stay`); when the task's coordinates swapped would put it within
/// ``swappedMetres`` of the stay, the warning asks whether they were. Rome written as
/// `lat 12.5, lon 41.9` lands in the Horn of Africa, 4,327 km from a stay in Rome.
public enum TaskDistanceRule {
    /// Farther than this from its stay, a task is warned about: 500 km.
    public static let farMetres = 500_000.0
    /// Swapped coordinates this close to the stay make the swap the likely mistake: 50 km.
    public static let swappedMetres = 50_000.0

    /// The warning for a task at `task` from a stay at `stay`, or `nil` when it is near enough.
    public static func warning(task: Coordinate, stay: Coordinate) -> String? {
        // Most tasks are well within reach, which a bound tells for a twentieth of the geodesic's
        // cost (the geodesic was a quarter of checking a task). The margin is far above the
        // geodesic's error (nanometres) and the bound's rounding.
        if upperBound(from: stay, to: task) < farMetres * (1 - 1e-9) { return nil }
        let metres = Geodesy.distance(from: stay, to: task)
        guard metres > farMetres else { return nil }
        let kilometres = Int((metres / 1000).rounded())
        var message = "the task is \(NumberText.grouped(kilometres)) km from its stay (more than 500 km)"
        if let swapped = Coordinate(latitude: task.longitude, longitude: task.latitude),
            Geodesy.distance(from: stay, to: swapped) <= swappedMetres
        {
            message += "; latitude and longitude swapped? lat \(task.longitude), lon \(task.latitude) is near it"
        } else {
            message += "; check its location"
        }
        return message
    }

    /// A length in metres that the geodesic from `first` to `second` never exceeds: the way along
    /// `first`'s meridian to `second`'s latitude, then along that parallel (or the parallel first,
    /// whichever is shorter), each bounded above on the WGS84 ellipsoid.
    static func upperBound(from first: Coordinate, to second: Coordinate) -> Double {
        let a = Geodesic.wgs84.a
        let e2 = Geodesic.wgs84.e2
        let radians = Double.pi / 180
        // The meridian's radius of curvature is largest at the poles: a / sqrt(1 - e²).
        let meridian = a / (1 - e2).squareRoot() * abs(second.latitude - first.latitude) * radians
        var longitudes = abs(second.longitude - first.longitude).truncatingRemainder(dividingBy: 360)
        if longitudes > 180 { longitudes = 360 - longitudes }
        // A parallel's radius: N cos φ, with N = a / sqrt(1 - e² sin² φ).
        func parallel(_ latitude: Double) -> Double {
            let sine = sin(latitude * radians)
            return a * cos(latitude * radians) / (1 - e2 * sine * sine).squareRoot()
        }
        return meridian + min(parallel(first.latitude), parallel(second.latitude)) * longitudes * radians
    }
}
