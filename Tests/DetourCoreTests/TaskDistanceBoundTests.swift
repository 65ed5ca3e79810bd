import DetourTestSupport
import Testing

@testable import DetourCore

/// The bound that spares most tasks the geodesic is never below it.
@Suite struct TaskDistanceBoundTests {
    @Test func theBoundIsNeverShorterThanTheGeodesic() throws {
        var random = SplitMix(seed: 500)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() % 1_000_000_001) / 1e9 * (range.upperBound - range.lowerBound)
        }
        var near = 0
        for round in 0..<20_000 {
            let stay = try #require(Coordinate(latitude: uniform(-90...90), longitude: uniform(-180...180)))
            // Near tasks (as trips have them), tasks around the limit, and anywhere, poles and the
            // antimeridian included.
            let reach = [0.05, 5.0, 180.0][round % 3]
            let latitude = min(90, max(-90, stay.latitude + uniform(-reach...reach)))
            var longitude = stay.longitude + uniform(-reach...reach)
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let task = try #require(Coordinate(latitude: latitude, longitude: longitude))
            let bound = TaskDistanceRule.upperBound(from: stay, to: task)
            let geodesic = Geodesy.distance(from: stay, to: task)
            #expect(bound >= geodesic - 1e-6, "\(stay) to \(task): bound \(bound), geodesic \(geodesic)")
            if bound < TaskDistanceRule.farMetres { near += 1 }
        }
        #expect(near > 5_000)
    }
}
