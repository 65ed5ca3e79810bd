import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// A JSON trip and the GPX file that means the same trip, mistakes included, are judged alike:
/// the same diagnostics, with the same severity, code and path, since one validator judges both.
@Suite struct TwinTests {
    static let folder = Fixtures.repository.appendingPathComponent("Tests/Twins")

    /// Every GPX twin in `Tests/Twins`, written by `make_gpx_twins.py` from its JSON trip.
    static let twins: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".gpx") }.sorted()
    }()

    /// Where the JSON trip of a twin is: beside it, or in the hostile corpus it was made from.
    static func jsonTrip(of twin: String) -> URL {
        let name = twin.replacingOccurrences(of: ".gpx", with: ".json")
        let beside = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: beside.path) { return beside }
        return Fixtures.corpus.appendingPathComponent("hostile").appendingPathComponent(name)
    }

    static func judged(_ url: URL, _ format: TripFormat) throws -> Set<String> {
        let outcome = TripLoader.load(Array(try Data(contentsOf: url)), format: format)
        return Set(outcome.diagnostics.map { "\($0.severity.rawValue) \($0.code.rawValue) \($0.path ?? "-")" })
    }

    @Test func everyTestTripHasATwin() throws {
        // The eight written for this test and the five hostile trips whose mistakes GPX can spell.
        #expect(Self.twins.count == 13)
        // All but the empty trip have something to say.
        let silent = try Self.twins.filter { try Self.judged(Self.folder.appendingPathComponent($0), .gpx).isEmpty }
        #expect(silent == ["empty-destinations.gpx"])
    }

    @Test(arguments: twins)
    func aTripAndItsGPXTwinGetTheSameDiagnostics(_ twin: String) throws {
        var fromJSON = try Self.judged(Self.jsonTrip(of: twin), .json)
        let fromGPX = try Self.judged(Self.folder.appendingPathComponent(twin), .gpx)
        // A GPX file without any of the mapping is another app's file, not a trip missing its
        // stays: it says so in its own words.
        if twin == "no-destinations.gpx", fromJSON == ["error missing-field destinations"] {
            fromJSON = ["error gpx-no-trip -"]
        }
        #expect(
            fromJSON == fromGPX,
            "only in JSON: \(fromJSON.subtracting(fromGPX)); only in GPX: \(fromGPX.subtracting(fromJSON))")
    }
}
