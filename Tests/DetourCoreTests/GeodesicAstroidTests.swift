import Testing

@testable import DetourCore

/// The astroid equation that starts the search for nearly antipodal points, against
/// GeographicLib 2.1's own solution (`Geodesic._Astroid`, Python), including the line y = 0,
/// where points on either side of the equator at equal latitudes lie, and the root is 0 inside
/// the unit interval.
@Suite struct GeodesicAstroidTests {
    @Test(arguments: [
        (0.5, 0.0, 0.0), (-0.9, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0),
        (2.0, 0.0, 1.0), (-1.5, 0.0, 0.5),
        (0.3, 0.2, 0.20648532792853116), (-1.2, 0.05, 0.2295274193950553),
        (-0.5, 1e-8, 1.1547005339348073e-08), (3.0, 2.0, 3.0120879049312084),
    ])
    func theAstroidsRootIsGeographicLibs(x: Double, y: Double, root: Double) {
        let found = Geodesic.astroid(x, y)
        #expect(abs(found - root) <= 1e-15 * max(1, abs(root)), "astroid(\(x), \(y)) = \(found), not \(root)")
    }
}
