import DetourCore
import Testing

/// A task far from its stay is warned about; swapped coordinates are named as such.
@Suite struct TaskDistanceRuleTests {
    static let stay = Coordinate(latitude: 0, longitude: 0)

    /// The point due north of the stay at `metres`, found by bisection on the ellipsoid.
    static func north(_ metres: Double) throws -> Coordinate {
        let stay = try #require(stay)
        var (low, high) = (0.0, 10.0)
        for _ in 0..<200 {
            let middle = (low + high) / 2
            let point = try #require(Coordinate(latitude: middle, longitude: 0))
            if Geodesy.distance(from: stay, to: point) < metres { low = middle } else { high = middle }
        }
        return try #require(Coordinate(latitude: high, longitude: 0))
    }

    @Test func atTheLimitNothingOnePastItAWarning() throws {
        let stay = try #require(Self.stay)
        let at = try Self.north(TaskDistanceRule.farMetres - 0.001)
        #expect(TaskDistanceRule.warning(task: at, stay: stay) == nil)
        let past = try Self.north(TaskDistanceRule.farMetres + 1)
        let warning = try #require(TaskDistanceRule.warning(task: past, stay: stay))
        #expect(warning == "the task is 500 km from its stay (more than 500 km); check its location")
    }

    @Test func romeWithItsCoordinatesSwapped() throws {
        let rome = try #require(Coordinate(latitude: 41.9028, longitude: 12.4964))
        let colosseum = try #require(Coordinate(latitude: 12.4922, longitude: 41.8902))
        #expect(
            TaskDistanceRule.warning(task: colosseum, stay: rome)
                == "the task is 4,327 km from its stay (more than 500 km); latitude and longitude swapped? lat 41.8902, lon 12.4922 is near it"
        )
        let oslo = try #require(Coordinate(latitude: 59.9, longitude: 10.7))
        #expect(TaskDistanceRule.warning(task: oslo, stay: rome)?.hasSuffix("; check its location") == true)
        #expect(TaskDistanceRule.warning(task: rome, stay: rome) == nil)
    }

    /// The swap is named only when the swapped point is within 50 km of the stay: at it, and past.
    @Test func theSwapLimit() throws {
        // A stay at (10, x): a task at (x, 10 ± d) swaps to (10 ± d, x).
        let stay = try #require(Coordinate(latitude: 20, longitude: 60))
        func task(_ offset: Double) throws -> Coordinate {
            try #require(Coordinate(latitude: 60, longitude: 20 + offset))
        }
        // 0.45° of latitude is about 49.9 km at 20° N; 0.46° about 51 km.
        let near = try #require(TaskDistanceRule.warning(task: try task(0.45), stay: stay))
        #expect(near.contains("latitude and longitude swapped?"), "\(near)")
        let far = try #require(TaskDistanceRule.warning(task: try task(0.46), stay: stay))
        #expect(far.hasSuffix("; check its location"), "\(far)")
    }

    @Test func groupedNumbers() {
        #expect(NumberText.grouped(0) == "0")
        #expect(NumberText.grouped(999) == "999")
        #expect(NumberText.grouped(1000) == "1,000")
        #expect(NumberText.grouped(4327) == "4,327")
        #expect(NumberText.grouped(-1_250_000) == "-1,250,000")
        #expect(NumberText.grouped(decimal: "1250.00") == "1,250.00")
        #expect(NumberText.grouped(decimal: "-999.5") == "-999.5")
        #expect(NumberText.grouped(decimal: "1000000") == "1,000,000")
    }
}
