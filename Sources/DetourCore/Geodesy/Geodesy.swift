import Foundation

/// Distances between points on the Earth.
public enum Geodesy {
    /// The WGS84 ellipsoid's mean radius R1 = (2a + b) / 3, in metres.
    public static let meanRadius = 6_371_008.771_415

    /// The distance in metres between two points along the Earth's surface.
    ///
    /// This is the great-circle distance on a sphere of the WGS84 mean radius (haversine form,
    /// well-conditioned for short distances); it is within about 0.5% of the ellipsoidal geodesic.
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * .pi / 180
        let phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let sinHalfPhi = sin(dPhi / 2)
        let sinHalfLambda = sin(dLambda / 2)
        let h = sinHalfPhi * sinHalfPhi + cos(phi1) * cos(phi2) * sinHalfLambda * sinHalfLambda
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }
}
