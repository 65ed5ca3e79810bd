import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

@testable import DetourRender

/// The destination maps: true distance and direction from the stay anywhere on Earth, and labels
/// that never cover each other or a pin.
@Suite struct MapModelTests {
    /// A task location and what GeographicLib says of the geodesic from the stay to it.
    struct Expected {
        var lat, lon, metres, azimuth: Double
    }

    /// A one-destination trip staying at (`lat`, `lon`), with one task per detour at `tasks`.
    static func trip(stayingAt lat: Double, _ lon: Double, tasks: [(Double, Double)]) -> [UInt8] {
        let detours = tasks.enumerated().map { index, point in
            """
            {"tasks": [{"name": "Task \(index + 1)", "duration": "1h", "cost": {"amount": 1, "currency": "EUR"},
              "location": {"lat": \(point.0), "lon": \(point.1)}}]}
            """
        }
        return Array(
            """
            {"title": "Map", "destinations": [{"name": "Stay", "location": {"lat": \(lat), "lon": \(lon)},
             "arrival": "2026-12-01", "departure": "2026-12-05", "detours": [\(detours.joined(separator: ","))]}]}
            """.utf8)
    }

    /// The map of ``trip(stayingAt:_:tasks:)``.
    static func map(stayingAt lat: Double, _ lon: Double, tasks: [(Double, Double)]) throws -> MapModel {
        let outcome = TripLoader.load(trip(stayingAt: lat, lon, tasks: tasks), format: .json)
        let loaded = try #require(outcome.trip, "\(outcome.diagnostics)")
        let model = ReportModel(plan: Planner.plan(loaded, today: RenderFixture.today), warnings: [])
        return try #require(model.sections.flatMap(\.destinations).first?.map)
    }

    /// Twelve tasks within a few metres of one another in Lisbon, and one far off that sets the scale.
    static let crowd: [(Double, Double)] = (0..<13).map { index -> (Double, Double) in
        guard index < 12 else { return (38.80, -9.20) }
        let row = Double(index % 4)
        let column = Double(index / 4)
        return (38.7139 + row * 0.00002, -9.1334 + column * 0.00002)
    }

    /// Each mark's bearing (degrees from north) and distance (metres) from the stay, read off the map.
    static func bearingsAndDistances(_ map: MapModel) throws -> [(bearing: Double, metres: Double)] {
        let cx = try #require(Double(map.center.x))
        let cy = try #require(Double(map.center.y))
        return try map.marks.map { mark in
            let dx = try #require(Double(mark.x)) - cx
            let dy = cy - (try #require(Double(mark.y)))
            return (atan2(dx, dy) * 180 / .pi, hypot(dx, dy) / map.unitsPerMetre)
        }
    }

    static func checkPlacement(_ expected: [Expected], stayingAt lat: Double, _ lon: Double) throws {
        let map = try map(stayingAt: lat, lon, tasks: expected.map { ($0.lat, $0.lon) })
        let found = try bearingsAndDistances(map)
        try #require(found.count == expected.count)
        let stay = try #require(Coordinate(latitude: lat, longitude: lon))
        for (task, (bearing, metres)) in zip(expected, found) {
            // Read off the drawing, to its 0.1-unit rounding: a fraction of a degree and a percent.
            #expect(
                abs((bearing - task.azimuth).remainder(dividingBy: 360)) < 0.3,
                "bearing \(bearing), want \(task.azimuth)")
            #expect(abs(metres - task.metres) < task.metres * 0.01, "\(metres) m, want \(task.metres)")
            // The projection itself is exact.
            let point = try #require(Coordinate(latitude: task.lat, longitude: task.lon))
            let (east, north) = MapModel.project(point, around: stay)
            #expect(abs(hypot(east, north) - task.metres) < 0.001)
            #expect(abs((atan2(east, north) * 180 / .pi - task.azimuth).remainder(dividingBy: 360)) < 1e-6)
        }
    }

    @Test func aStayNearAPoleHasItsTasksAtTheirTrueBearingAndDistance() throws {
        // GeographicLib's figures. The first task is across the pole: due north, not east.
        try Self.checkPlacement(
            [
                Expected(lat: 89.9, lon: 180, metres: 22_338.796, azimuth: 0),
                Expected(lat: 89.95, lon: -90, metres: 12_487.765, azimuth: -26.565069),
                Expected(lat: 89.5, lon: 45, metres: 48_595.108, azimuth: 125.646692),
            ], stayingAt: 89.9, 0)
    }

    @Test func aStayOnTheAntimeridianHasItsTasksAtTheirTrueBearingAndDistance() throws {
        try Self.checkPlacement(
            [
                Expected(lat: -16.8, lon: -179.95, metres: 10_659.813, azimuth: 90.014452),
                Expected(lat: -16.7, lon: -179.9, metres: 19_449.309, azimuth: 55.34112),
                Expected(lat: -16.9, lon: 179.8, metres: 19_442.485, azimuth: -124.716537),
            ], stayingAt: -16.8, 179.95)
    }

    @Test func crowdedLabelsNeverOverlapEachOtherOrPinsAndTheRestAreNumberedAndListed() throws {
        let map = try Self.map(stayingAt: 38.7223, -9.1393, tasks: Self.crowd)
        let pins =
            try map.marks.map { MapBox.around(try #require(Double($0.x)), try #require(Double($0.y)), radius: 7.5) }
            + [MapBox.around(MapModel.width / 2, MapModel.height / 2, radius: 5)]
        let labels = map.marks.compactMap(\.labelBox)
        let bounds = MapBox(x: 0, y: 0, width: MapModel.width, height: MapModel.height)

        #expect(!labels.isEmpty)
        for (index, label) in labels.enumerated() {
            #expect(bounds.contains(label))
            #expect(!pins.contains { $0.overlaps(label) }, "label \(index) covers a pin")
            #expect(!labels[(index + 1)...].contains { $0.overlaps(label) }, "label \(index) covers another")
        }
        // Every mark is labelled or numbered, never both; the numbered ones are listed, 1, 2, 3…
        #expect(map.marks.allSatisfy { ($0.labelBox == nil) == !$0.pin.isEmpty })
        #expect(map.listed.map(\.pin) == map.listed.indices.map { "\($0 + 1)" })
        #expect(map.listed.map(\.label) == map.marks.filter { $0.labelBox == nil }.map(\.label))
        #expect(map.listed.count >= 4, "twelve pins on one spot cannot all be labelled")
    }

    @Test func numberedPinsAreDrawnWithTheirNumberAndListedUnderTheMap() throws {
        let map = try Self.map(stayingAt: 38.7223, -9.1393, tasks: Self.crowd)
        let html = try RenderFixture.render(Self.trip(stayingAt: 38.7223, -9.1393, tasks: Self.crowd), as: .html)
        let first = try #require(map.listed.first)
        #expect(html.contains("Numbered pins: <span class=\"pin-key\"><b>1</b> \(first.label)</span>"))
        #expect(html.contains("dominant-baseline=\"central\">1</text>"))
    }
}

/// A pin's label names its task: the whole name where it fits, else its first word, ellipsised.
@Suite struct PinNameTests {
    @Test(arguments: [
        ("Tram 28", "Tram 28"), ("MUNCH museum", "MUNCH museum"), ("Vigeland Sculpture Park", "Vigeland…"),
        ("Holmenkollen ski jump and museum", "Holmenkollen…"), ("Rijksmuseumkwartier-wandeling", "Rijksmuseumkw…"),
        ("Exactly14chars", "Exactly14chars"),
    ])
    func shortNames(_ name: String, _ short: String) {
        #expect(MapModel.shortName(name) == short)
        #expect(MapModel.shortName(name).count <= MapModel.shortNameLength)
    }

    /// On a map with room, a long name is shown whole; two pins side by side keep both names
    /// only where they fit, the second cut shorter rather than numbered while a cut fits.
    @Test func aNameIsCutOnlyWhereItWouldCollide() throws {
        func trip(_ tasks: [(String, Double, Double)]) -> [UInt8] {
            let detours = tasks.map { name, lat, lon in
                """
                {"tasks": [{"name": "\(name)", "duration": "1h", "cost": {"amount": 1, "currency": "EUR"},
                  "location": {"lat": \(lat), "lon": \(lon)}}]}
                """
            }
            return Array(
                """
                {"title": "Map", "destinations": [{"name": "Rome", "location": {"lat": 41.9028, "lon": 12.4964},
                 "arrival": "2026-12-01", "departure": "2026-12-05", "detours": [\(detours.joined(separator: ","))]}]}
                """.utf8)
        }
        func labels(_ tasks: [(String, Double, Double)]) throws -> [String] {
            let outcome = TripLoader.load(trip(tasks), format: .json)
            let loaded = try #require(outcome.trip, "\(outcome.diagnostics)")
            let model = ReportModel(plan: Planner.plan(loaded, today: RenderFixture.today), warnings: [])
            let map = try #require(model.sections.flatMap(\.destinations).first?.map)
            return map.marks.map { $0.labelBox == nil ? "#" + $0.pin : $0.label }
        }
        // One pin north of the stay, alone: on the old rule, "1A Vatican…".
        #expect(try labels([("Vatican Museums at dawn", 41.9128, 12.4964)]) == ["1A Vatican Museums at dawn"])
        // Two pins a few metres apart with long names: the one placed second has less room.
        let crowded = try labels([
            ("Vatican Museums at dawn", 41.9128, 12.4964),
            ("Vatican Gardens guided walk with lunch", 41.91281, 12.49641),
            ("Castel Sant'Angelo by night", 41.91282, 12.49642),
        ])
        #expect(crowded[0] == "1A Vatican Museums at dawn", "\(crowded)")
        #expect(
            crowded.dropFirst().allSatisfy { $0.hasPrefix("#") || $0.hasSuffix("…") || $0.count < 40 }, "\(crowded)")
    }

    @Test func eachPinIsLabelledWithItsSideAndName() throws {
        let (plan, _) = try RenderFixture.plan(try Fixtures.sample("lisbon-city-break.json"))
        let stay = try #require(plan.sections.flatMap(\.destinations).first)
        let labels = MapModel(center: stay.destination.location, detours: stay.detours).marks.map(\.label)
        #expect(labels.contains("1A Ride Tram 28"), "\(labels)")
        #expect(labels.allSatisfy { $0.split(separator: " ").count >= 2 })
    }
}
