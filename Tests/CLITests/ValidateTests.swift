import DetourTestSupport
import Foundation
import Testing

/// `detour-report validate` over several trips and folders: a line a trip, the worst status.
@Suite struct ValidateTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-validate")
    }

    static let invalid = """
        {"title": "Broken", "destinations": [{"name": "L", "location": {"lat": 91, "lon": 0},
         "arrival": "2026-12-01", "departure": "2026-12-03"}]}
        """

    /// A folder of trips: a valid one, an invalid one, a file that is no trip, and a folder
    /// inside with one more valid trip.
    func trips() throws -> URL {
        let trips = scratch.appendingPathComponent("trips")
        let inner = trips.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.sampleURL("lisbon-city-break.json"), to: trips.appendingPathComponent("lisbon.json"))
        try Data(Self.invalid.utf8).write(to: trips.appendingPathComponent("broken.json"))
        try Data("notes".utf8).write(to: trips.appendingPathComponent("notes.txt"))
        try FileManager.default.copyItem(
            at: Fixtures.gpxSamples.appendingPathComponent("nordic-budget.gpx"),
            to: inner.appendingPathComponent("nordic.gpx"))
        return trips
    }

    @Test func everyTripNamedIsCheckedAndTheWorstStatusWins() throws {
        let lisbon = Fixtures.sampleURL("lisbon-city-break.json").path
        let gpx = Fixtures.gpxSamples.appendingPathComponent("fiji-date-line.gpx").path
        let good = try cli.run(["validate", lisbon, gpx])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(
            good.output == """
                \(lisbon): valid trip: 1 destination, 3 detours, 0 warnings
                \(gpx): valid trip: 2 destinations, 3 detours, 0 warnings

                """)

        let trips = try trips()
        let broken = trips.appendingPathComponent("broken.json").path
        let invalid = try cli.run(["validate", lisbon, broken, gpx])
        #expect(invalid.status == 65)
        #expect(invalid.output.split(separator: "\n").count == 3)
        #expect(invalid.output.contains("\(broken): invalid trip: 1 error, 0 warnings\n"))
        #expect(invalid.stderr.contains("\(broken):1:"), "\(invalid.stderr)")

        let missing = scratch.appendingPathComponent("missing.json").path
        let unreadable = try cli.run(["validate", missing, broken, lisbon])
        #expect(unreadable.status == 66, "66 (unreadable) is worse than 65 (invalid)")
        #expect(unreadable.output.contains("\(missing): unreadable\n"))
        #expect(unreadable.output.split(separator: "\n").count == 3)
    }

    @Test func aFolderIsCheckedAsRenderReadsIt() throws {
        let trips = try trips()
        let flat = try cli.run(["validate", trips.path + "/"])
        #expect(flat.status == 65)
        #expect(
            flat.output.split(separator: "\n").map { String($0.prefix { $0 != ":" }) } == [
                trips.appendingPathComponent("broken.json").path, trips.appendingPathComponent("lisbon.json").path,
            ])
        let deep = try cli.run(["validate", trips.path, "-r"])
        #expect(deep.status == 65)
        #expect(deep.output.contains("inner/nordic.gpx: valid trip: 2 destinations, 6 detours, 0 warnings\n"))
        #expect(deep.output.split(separator: "\n").count == 3)

        // A trip named twice, once in its folder, is checked once.
        let twice = try cli.run(["validate", trips.path, trips.appendingPathComponent("lisbon.json").path])
        #expect(twice.output.split(separator: "\n").count == 2)
    }

    @Test func aFolderWithoutTripsIsAProblemNotASuccess() throws {
        let empty = scratch.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try cli.run(["validate", empty.path])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "\(empty.path): error: the folder holds no trip file (*.json, *.gpx); -r looks in its folders [read-failed]\n"
        )
    }

    @Test func jsonDiagnosticsNameTheFileOfEach() throws {
        let trips = try trips()
        let result = try cli.run(["validate", trips.path, "-r", "--diagnostics", "json", "--all-warnings"])
        let objects = try result.stderr.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { ($0["file"] as? String) == trips.appendingPathComponent("broken.json").path })
    }

    @Test func theHelpSpeaksOfValidateAlone() throws {
        let help = try cli.run(["validate", "--help"])
        #expect(help.status == 0)
        let words = help.output.split(whereSeparator: \.isWhitespace)
        #expect(!words.contains { $0 == "-d" || $0.hasPrefix("-d,") || $0 == "DIR" }, "\(help.output)")
        #expect(help.output.contains("--recursive"))
    }
}
