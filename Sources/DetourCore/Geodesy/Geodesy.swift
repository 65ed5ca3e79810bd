/// Distances between points on the Earth.
public enum Geodesy {
    /// The length in metres of the shortest path along the WGS84 ellipsoid between two points.
    ///
    /// Karney's method (see ``Geodesic``): within a few nanometres of GeographicLib everywhere,
    /// including coincident points, the poles, the antimeridian and nearly antipodal points.
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        Geodesic.wgs84.distance(from: a, to: b)
    }
}
