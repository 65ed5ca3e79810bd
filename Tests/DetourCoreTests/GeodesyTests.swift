import DetourCore
import DetourTestSupport
import Testing

@Suite struct GeodesyTests {
    @Test func aKnownDistance() {
        // Lisbon to Madrid on the WGS84 mean sphere (R1 = 6371008.771 m).
        let lisbon = Build.point(38.7223, -9.1393)
        let madrid = Build.point(40.4168, -3.7038)
        let metres = Geodesy.distance(from: lisbon, to: madrid)
        #expect(abs(metres - 502_448) < 1)  // haversine on R1, computed independently
    }

    @Test func distanceIsSymmetricZeroForOnePointAndObeysTheTriangleInequality() {
        var random = SplitMix(seed: 7)
        func point() -> Coordinate {
            Build.point(Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
        }
        for _ in 0..<500 {
            let (a, b, c) = (point(), point(), point())
            let ab = Geodesy.distance(from: a, to: b)
            #expect(abs(ab - Geodesy.distance(from: b, to: a)) < 1e-6)
            #expect(Geodesy.distance(from: a, to: a) == 0)
            #expect(ab <= Geodesy.distance(from: a, to: c) + Geodesy.distance(from: c, to: b) + 1e-6)
            #expect(ab <= 20_015_115)  // never more than half the circumference
        }
    }

    @Test func crossesTheAntimeridianTheShortWay() {
        let west = Build.point(0, 179.9)
        let east = Build.point(0, -179.9)
        #expect(Geodesy.distance(from: west, to: east) < 23_000)
    }
}
