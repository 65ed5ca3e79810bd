/// How much a reader accepts before it refuses a file: every limit has a number and a reason.
///
/// Files come from anywhere; a limit turns a hostile or broken file into a clear error instead
/// of a machine running out of memory or stack.
public struct ReadLimits: Sendable, Hashable {
    /// The largest trip JSON, in bytes (JSON is read whole; 64 MiB by default).
    public var maxJSONBytes: Int
    /// The largest GPX file, in bytes (GPX streams, so 4 GiB by default).
    public var maxGPXBytes: Int
    /// The longest single text (a name, a pro, a con), in bytes.
    public var maxTextBytes: Int
    /// The deepest nesting of JSON arrays and objects.
    public var maxDepth: Int
    /// The most destinations a trip may have.
    public var maxDestinations: Int
    /// The most tasks a trip may have.
    public var maxTasks: Int
    /// The most points in one path.
    public var maxPathPoints: Int

    /// The defaults.
    public static let standard = ReadLimits()

    /// The flag that raises the input size, for messages.
    public static let inputFlag = "--max-input-mib"

    /// Creates limits; each default is generous for any real trip.
    public init(
        maxJSONBytes: Int = 64 << 20, maxGPXBytes: Int = 4 << 30, maxTextBytes: Int = 10_000,
        maxDepth: Int = 64, maxDestinations: Int = 100_000, maxTasks: Int = 1_000_000,
        maxPathPoints: Int = 5_000_000
    ) {
        self.maxJSONBytes = maxJSONBytes
        self.maxGPXBytes = maxGPXBytes
        self.maxTextBytes = maxTextBytes
        self.maxDepth = maxDepth
        self.maxDestinations = maxDestinations
        self.maxTasks = maxTasks
        self.maxPathPoints = maxPathPoints
    }

    /// Limits with both input sizes set to `mebibytes`.
    public func withInputLimit(mebibytes: Int) -> ReadLimits {
        var limits = self
        limits.maxJSONBytes = mebibytes << 20
        limits.maxGPXBytes = mebibytes << 20
        return limits
    }

    /// The message for an input over the size limit.
    public static func tooLarge(_ what: String, limit: Int) -> String {
        "the file is larger than the \(limit >> 20) MiB limit for \(what); raise it with \(inputFlag) N"
    }
}
