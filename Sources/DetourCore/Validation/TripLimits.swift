/// How much a trip may hold: every limit on a trip's content, with its number.
///
/// Trip files come from anywhere; a limit turns a hostile or broken file into a clear error
/// instead of a machine running out of memory. ``TripValidator`` applies each limit, the same for
/// every format; readers only keep their own memory bounded by them (a streaming reader stops
/// keeping what is past a limit, and the validator still reports it).
public struct TripLimits: Sendable, Hashable {
    /// The longest single text (a title, a name, a pro, any value), in UTF-8 bytes.
    public var maxTextBytes: Int
    /// The most destinations a trip may have.
    public var maxDestinations: Int
    /// The most detours a trip may have, over all its destinations.
    public var maxDetours: Int
    /// The most tasks a trip may have, over all its detours.
    public var maxTasks: Int
    /// The most path points a trip may have, over all its paths.
    public var maxPathPoints: Int
    /// The most nights one stay may last.
    ///
    /// The plan lays out every day of a stay, so a typo in a year (`1026` for `2026`) would otherwise
    /// give a report of hundreds of thousands of days.
    public var maxStayNights: Int
    /// The most nights a trip may have, over all its stays.
    public var maxNights: Int

    /// The defaults, generous for any real trip.
    public static let standard = TripLimits()

    /// Creates limits.
    public init(
        maxTextBytes: Int = 10_000, maxDestinations: Int = 100_000, maxDetours: Int = 1_000_000,
        maxTasks: Int = 1_000_000, maxPathPoints: Int = 5_000_000, maxStayNights: Int = 366,
        maxNights: Int = 1_000_000
    ) {
        self.maxTextBytes = maxTextBytes
        self.maxDestinations = maxDestinations
        self.maxDetours = maxDetours
        self.maxTasks = maxTasks
        self.maxPathPoints = maxPathPoints
        self.maxStayNights = maxStayNights
        self.maxNights = maxNights
    }
}
