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
}
