import DetourCore

/// How much a reader takes in before it refuses a file: the input's size and nesting.
///
/// These protect the reader itself (memory, stack); limits on what a trip holds (texts,
/// destinations, tasks, path points) are ``TripLimits``, applied by the validator to every
/// format alike and carried here so a streaming reader can bound what it keeps.
public struct ReadLimits: Sendable, Hashable {
    /// The largest trip JSON, in bytes (JSON is read whole; 64 MiB by default).
    public var maxJSONBytes: Int
    /// The largest GPX file, in bytes (GPX streams, so 4 GiB by default).
    public var maxGPXBytes: Int
    /// The deepest nesting of JSON arrays and objects.
    public var maxDepth: Int
    /// The most attributes one XML element may have (libxml2 takes quadratic time over them).
    public var maxAttributes: Int
    /// What a trip may hold.
    public var trip: TripLimits

    /// The defaults.
    public static let standard = ReadLimits()

    /// Creates limits; each default is generous for any real trip.
    public init(
        maxJSONBytes: Int = 64 << 20, maxGPXBytes: Int = 4 << 30, maxDepth: Int = 64,
        maxAttributes: Int = 256, trip: TripLimits = .standard
    ) {
        self.maxJSONBytes = maxJSONBytes
        self.maxGPXBytes = maxGPXBytes
        self.maxDepth = maxDepth
        self.maxAttributes = maxAttributes
        self.trip = trip
    }

    /// Limits with both input sizes set to `mebibytes`.
    public func withInputLimit(mebibytes: Int) -> ReadLimits {
        var limits = self
        limits.maxJSONBytes = mebibytes << 20
        limits.maxGPXBytes = mebibytes << 20
        return limits
    }
}
