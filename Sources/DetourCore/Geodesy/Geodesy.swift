/// Distances between points on the Earth.
public enum Geodesy {
    /// The length in metres of the shortest path along the WGS84 ellipsoid between two points.
    ///
    /// Karney's method (see ``Geodesic``): within a few nanometres of GeographicLib everywhere,
    /// including coincident points, the poles, the antimeridian and nearly antipodal points.
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        Geodesic.wgs84.distance(from: a, to: b)
    }

    /// The shortest path on the WGS84 ellipsoid from `a` to `b`: its length and its azimuths.
    public static func line(from a: Coordinate, to b: Coordinate) -> GeodesicLine {
        Geodesic.wgs84.line(from: a, to: b)
    }
}

/// The shortest path between two points: how long it is and which way it heads at each end.
public struct GeodesicLine: Sendable, Equatable {
    /// The length in metres.
    public var distance: Double
    /// The direction at the start, in degrees clockwise from north, in (-180, 180].
    public var initialAzimuth: Double
    /// The direction at the end (the way the path arrives), in degrees clockwise from north.
    public var finalAzimuth: Double

    /// A path of `distance` metres leaving at `initialAzimuth` and arriving at `finalAzimuth`.
    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}
