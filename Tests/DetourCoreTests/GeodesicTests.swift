import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// Karney's geodesic against GeographicLib's own figures, and the laws a distance obeys.
@Suite struct GeodesicTests {
    struct Reference: Sendable, CustomTestStringConvertible {
        var kind: String
        var lat1, lon1, lat2, lon2, metres, azimuth1, azimuth2: Double
        var testDescription: String { "\(kind) (\(lat1), \(lon1)) → (\(lat2), \(lon2))" }
    }

    static let table: [Reference] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Data/geodesic-reference.csv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst(2).compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 8, let lat1 = Double(fields[1]), let lon1 = Double(fields[2]),
                let lat2 = Double(fields[3]), let lon2 = Double(fields[4]), let metres = Double(fields[5]),
                let azimuth1 = Double(fields[6]), let azimuth2 = Double(fields[7])
            else { return nil }
            return Reference(
                kind: fields[0], lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2, metres: metres,
                azimuth1: azimuth1, azimuth2: azimuth2)
        }
    }()

    @Test func theReferenceTableCoversEveryCase() {
        let kinds = Dictionary(grouping: Self.table, by: \.kind).mapValues(\.count)
        #expect(Self.table.count >= 400)
        #expect(kinds["random"] ?? 0 >= 200)
        #expect(kinds["short"] ?? 0 >= 100)
        #expect(kinds["antipodal"] ?? 0 >= 40)
        #expect(kinds["special"] ?? 0 >= 30)
    }

    @Test(arguments: table)
    func agreesWithGeographicLibToAMillimetre(_ reference: Reference) {
        let metres = Geodesic.wgs84.inverse(reference.lat1, reference.lon1, reference.lat2, reference.lon2)
        #expect(abs(metres - reference.metres) < 0.001, "got \(metres), GeographicLib \(reference.metres)")
    }

    /// The difference between two directions in degrees, the short way round.
    static func angleApart(_ a: Double, _ b: Double) -> Double {
        abs((a - b).remainder(dividingBy: 360))
    }

    @Test(arguments: table)
    func azimuthsAgreeWithGeographicLib(_ reference: Reference) throws {
        let first = try #require(Coordinate(latitude: reference.lat1, longitude: reference.lon1))
        let second = try #require(Coordinate(latitude: reference.lat2, longitude: reference.lon2))
        let line = Geodesic.wgs84.line(from: first, to: second)
        #expect(abs(line.distance - reference.metres) < 0.001)
        // On a line of a few metres the azimuth is ill-conditioned: there, ask that the direction
        // miss the far end by under a micrometre instead.
        let tolerance = max(1e-9, 1e-6 / max(reference.metres, 1e-3) * 180 / .pi)
        #expect(Self.angleApart(line.initialAzimuth, reference.azimuth1) < tolerance, "got \(line.initialAzimuth)")
        #expect(Self.angleApart(line.finalAzimuth, reference.azimuth2) < tolerance, "got \(line.finalAzimuth)")
    }

    @Test func azimuthsPointTheWayOneExpectsOnAGlobe() throws {
        func azimuth(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) throws -> Double {
            let a = try #require(Coordinate(latitude: lat1, longitude: lon1))
            let b = try #require(Coordinate(latitude: lat2, longitude: lon2))
            return Geodesy.line(from: a, to: b).initialAzimuth
        }
        #expect(try azimuth(10, 20, 11, 20) == 0)  // due north
        #expect(try azimuth(10, 20, 9, 20) == 180)  // due south
        #expect(try azimuth(0, 20, 0, 21) == 90)  // east along the equator
        #expect(try azimuth(0, 179.5, 0, -179.5) == 90)  // east across the antimeridian
        #expect(try azimuth(0, -179.5, 0, 179.5) == -90)  // west across it
        #expect(try azimuth(89.9, 0, 89.9, 180) == 0)  // over the pole: north first
    }

    @Test func theWorstErrorOverTheTableIsFarBelowAMillimetre() {
        let worst =
            Self.table.map {
                abs(Geodesic.wgs84.inverse($0.lat1, $0.lon1, $0.lat2, $0.lon2) - $0.metres)
            }.max() ?? .infinity
        #expect(worst < 1e-6, "worst error \(worst) m")
    }

    func randomPoint(_ random: inout SplitMix) -> Coordinate {
        let lat = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
        return Build.point(lat, Double.random(in: -180...180, using: &random))
    }

    @Test func distanceIsSymmetricAndZeroForOnePoint() {
        var random = SplitMix(seed: 11)
        for _ in 0..<2000 {
            let a = randomPoint(&random)
            let b = randomPoint(&random)
            let ab = Geodesic.wgs84.distance(from: a, to: b)
            #expect(abs(ab - Geodesic.wgs84.distance(from: b, to: a)) < 1e-6)
            #expect(Geodesic.wgs84.distance(from: a, to: a) == 0)
            #expect(ab >= 0 && ab <= 20_003_931.46)  // half the meridian: the longest geodesic
        }
    }

    @Test func distanceObeysTheTriangleInequality() {
        var random = SplitMix(seed: 12)
        for _ in 0..<2000 {
            let (a, b, c) = (randomPoint(&random), randomPoint(&random), randomPoint(&random))
            let direct = Geodesic.wgs84.distance(from: a, to: b)
            let via = Geodesic.wgs84.distance(from: a, to: c) + Geodesic.wgs84.distance(from: c, to: b)
            #expect(direct <= via + 1e-6)
        }
    }

    @Test func nearlyAntipodalPointsConvergeWhereVincentyWouldNot() {
        // The classic failure case for Vincenty's iteration.
        let metres = Geodesic.wgs84.inverse(0, 0, 0.5, 179.7)
        #expect(abs(metres - 19_944_127.420_750) < 0.001)  // GeographicLib's figure
    }
}
