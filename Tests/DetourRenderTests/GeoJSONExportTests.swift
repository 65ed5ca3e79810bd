import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

@testable import DetourRender

/// The map export: positions longitude first, few decimals, lines cut at the antimeridian.
@Suite struct GeoJSONExportTests {
    typealias Position = GeoJSONExport.Position

    static func position(_ longitude: Double, _ latitude: Double) -> Position {
        Position(longitude: longitude, latitude: latitude)
    }

    static func features(_ sample: String) throws -> [[String: Any]] {
        let text = try RenderFixture.export(Fixtures.sample(sample), as: .geojson)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "FeatureCollection")
        return object?["features"] as? [[String: Any]] ?? []
    }

    static func coordinates(_ feature: [String: Any]) -> Any? {
        (feature["geometry"] as? [String: Any])?["coordinates"]
    }

    static func properties(_ feature: [String: Any]) -> [String: Any] {
        feature["properties"] as? [String: Any] ?? [:]
    }

    /// RFC 7946 §3.1.9's own example: 170°E to 170°W is cut at 180.
    @Test func aLineEastOverTheAntimeridianIsCutAt180() {
        let parts = GeoJSONExport.Antimeridian.split([Self.position(170, 45), Self.position(-170, 45)])
        #expect(
            parts == [
                [Self.position(170, 45), Self.position(180, 45)], [Self.position(-180, 45), Self.position(-170, 45)],
            ])
    }

    @Test func aLineWestOverTheAntimeridianIsCutAtMinus180WithTheLatitudeBetween() {
        let parts = GeoJSONExport.Antimeridian.split([Self.position(-179, 10), Self.position(177, 20)])
        #expect(parts.count == 2)
        #expect(parts.first?.last == Self.position(-180, 12.5))
        #expect(parts.last?.first == Self.position(180, 12.5))
    }

    /// A step of exactly 180° of longitude is the same length either way round: it is drawn as
    /// written, not cut; a step a hair longer goes the short way, over the antimeridian.
    @Test func aStepOfExactly180DegreesIsNotCutAndOneLongerIs() {
        let half = [Self.position(-90, 10), Self.position(90, 20)]
        #expect(GeoJSONExport.Antimeridian.split(half) == [half])
        let back = [Self.position(90, 20), Self.position(-90, 10)]
        #expect(GeoJSONExport.Antimeridian.split(back) == [back])
        let edges = [Self.position(-180, 0), Self.position(0, 0), Self.position(180, 0)]
        #expect(GeoJSONExport.Antimeridian.split(edges) == [edges])
        let longer = GeoJSONExport.Antimeridian.split([Self.position(-90, 10), Self.position(90.5, 20)])
        #expect(longer.count == 2)
        #expect(longer.first?.last?.longitude == -180)
        #expect(longer.last?.first?.longitude == 180)
    }

    @Test func aLineThatStaysOnOneSideIsOnePart() {
        let line = [Self.position(-9.1, 38.7), Self.position(10, 45), Self.position(179, -16)]
        #expect(GeoJSONExport.Antimeridian.split(line) == [line])
    }

    @Test func aLineStartingOnTheAntimeridianLeavesNoOnePointPart() {
        let parts = GeoJSONExport.Antimeridian.split([Self.position(180, 5), Self.position(-179, 5)])
        #expect(parts == [[Self.position(-180, 5), Self.position(-179, 5)]])
    }

    /// Whatever the path: no part crosses the antimeridian, every part can be drawn (two
    /// positions or more), and every point of the path is kept, in order.
    @Test func splittingKeepsEveryPointAndLeavesNoCrossing() {
        var random = SplitMix(seed: 7946)
        for _ in 0..<2000 {
            let count = Int.random(in: 2...12, using: &random)
            let line = (0..<count).map { _ in
                Self.position(
                    Double(Int.random(in: -1800...1800, using: &random)) / 10,
                    Double(Int.random(in: -900...900, using: &random)) / 10)
            }
            let parts = GeoJSONExport.Antimeridian.split(line)
            for part in parts {
                #expect(part.count >= 2)
                for (a, b) in zip(part, part.dropFirst()) {
                    #expect(abs(b.longitude - a.longitude) <= 180, "\(line)")
                }
                #expect(part.allSatisfy { (-90...90).contains($0.latitude) && (-180...180).contains($0.longitude) })
            }
            let kept = parts.flatMap { $0 }
            var next = kept.startIndex
            for (index, point) in line.enumerated() {
                // A point on ±180 may stand as its twin on ∓180.
                let twin = Self.position(-point.longitude, point.latitude)
                if let found = kept[next...].firstIndex(where: {
                    $0 == point || (abs(point.longitude) == 180 && $0 == twin)
                }) {
                    next = found
                } else {
                    // Only a point repeating the one before may go.
                    #expect(index > 0 && line[index - 1] == point, "\(point) lost from \(line)")
                }
            }
        }
    }

    /// Every stay is a Point at `[lon, lat]`: in the Fiji sample, longitudes near ±180 could never
    /// pass for latitudes, so a swap would show.
    @Test func theFijiStaysArePointsLongitudeFirst() throws {
        let stays = try Self.features("fiji-date-line.json").filter {
            Self.properties($0)["kind"] as? String == "destination"
        }
        #expect(stays.count == 2)
        #expect(Self.coordinates(stays[0]) as? [Double] == [179.3316, -16.7786])
        #expect(Self.coordinates(stays[1]) as? [Double] == [-179.877, -16.6906])
        #expect(Self.properties(stays[0])["name"] as? String == "Savusavu, Vanua Levu")
        #expect(Self.properties(stays[0])["arrival"] as? String == "2027-03-10")
        #expect(Self.properties(stays[0])["departure"] as? String == "2027-03-13")
        #expect(Self.properties(stays[0])["nights"] as? Int == 3)
    }

    @Test func theFijiPathsAcrossTheDateLineAreMultiLineStrings() throws {
        let paths = try Self.features("fiji-date-line.json").filter { Self.properties($0)["kind"] as? String == "path" }
        #expect(paths.count == 2)
        for path in paths {
            #expect((path["geometry"] as? [String: Any])?["type"] as? String == "MultiLineString")
            let parts = Self.coordinates(path) as? [[[Double]]] ?? []
            #expect(parts.count == 2)
            // The first part ends on one side of the antimeridian and the second starts on the other.
            #expect(abs(parts.first?.last?.first ?? 0) == 180)
            #expect(parts.first?.last?.first == -(parts.last?.first?.first ?? 0))
            #expect(parts.first?.last?.last == parts.last?.first?.last)
        }
    }

    @Test func aTaskPointCarriesItsFigures() throws {
        let tasks = try Self.features("lisbon-city-break.json").filter {
            Self.properties($0)["kind"] as? String == "task"
        }
        #expect(tasks.count == 6)
        let tram = Self.properties(tasks[0])
        #expect(Self.coordinates(tasks[0]) as? [Double] == [-9.1334, 38.7139])
        #expect(tram["name"] as? String == "Ride Tram 28")
        #expect(tram["detour"] as? String == "Ride Tram 28 or Walk the Alfama")
        #expect(tram["side"] as? Int == 0)
        #expect(tram["chosen"] as? Bool == true)
        #expect(tram["duration_minutes"] as? Int == 90)
        #expect((tram["cost"] as? NSNumber)?.decimalValue == Decimal(string: "3.1"))
        #expect(tram["currency"] as? String == "EUR")
        #expect(tram["distance_m"] is Double)
        #expect(Self.properties(tasks[1])["chosen"] as? Bool == false)
    }

    /// At most seven decimals in every coordinate of every sample's map.
    @Test(arguments: Fixtures.sampleTrips())
    func coordinatesHaveAtMostSevenDecimals(_ sample: String) throws {
        let text = try RenderFixture.export(Fixtures.sample(sample), as: .geojson)
        let positions = try NSRegularExpression(pattern: #"\[(-?[0-9.]+), (-?[0-9.]+)\]"#)
        let matches = positions.matches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(!matches.isEmpty)
        for match in matches {
            for group in 1...2 {
                guard let range = Range(match.range(at: group), in: text) else { continue }
                let number = text[range]
                let decimals = number.split(separator: ".").dropFirst().first?.count ?? 0
                #expect(decimals <= 7, "\(number)")
                #expect(!number.contains("e"))
            }
        }
    }

    @Test(arguments: [(38.72231234567, "38.7223123"), (-9.1393, "-9.1393"), (0, "0"), (-0.00000001, "0"), (180, "180")])
    func degreesAreWrittenPlainWithoutTrailingZeros(_ value: Double, _ text: String) {
        #expect(Formatting.degrees(value, digits: 7) == text)
    }
}
