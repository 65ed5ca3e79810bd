import DetourCore
import Testing

@Suite struct GeodesyTests {
    @Test func aKnownDistance() {
        // Lisbon to Madrid on the WGS84 ellipsoid, as GeographicLib gives it.
        let metres = Geodesy.distance(from: Build.point(38.7223, -9.1393), to: Build.point(40.4168, -3.7038))
        #expect(abs(metres - 503_412.580_995) < 0.001)
    }

    @Test func crossesTheAntimeridianTheShortWay() {
        let west = Build.point(0, 179.9)
        let east = Build.point(0, -179.9)
        #expect(Geodesy.distance(from: west, to: east) < 23_000)
    }
}
