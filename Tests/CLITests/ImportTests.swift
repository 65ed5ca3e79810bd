import DetourTestSupport
import Foundation
import Testing

/// `detour-report import`: the places map apps export, made into draft trips that validate.
@Suite struct ImportTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-import")
    }

    /// Every real-world file imports into a trip `validate` accepts, or says in one line why
    /// there is nothing to import; none is read as a trip of its own.
    @Test func everyFileOfTheCorpusImportsOrSaysWhyNot() throws {
        var imported = 0
        for path in GPXCorpusTests.realWorld {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let trip = scratch.appendingPathComponent("\(name).json").path
            let result = try cli.run(["import", path, "-o", trip])
            if result.status == 0 {
                imported += 1
                let check = try cli.run(["validate", trip])
                #expect(check.status == 0, "\(name): \(check.stderr)")
                #expect(!check.stderr.contains(": error: "), "\(name): \(check.stderr)")
                #expect(result.stderr.contains("[import-draft]"))
            } else {
                #expect(result.status == 65, "\(name): \(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(
                    lines.count == 1 && lines[0].hasPrefix(path) && lines[0].contains(": error: "),
                    "\(name): \(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: trip))
            }
            // As a trip, another app's file is one line that says how to import it.
            let asTrip = try cli.run(["validate", path])
            if asTrip.stderr.contains("[gpx-no-trip]") {
                #expect(asTrip.stderr.contains("\"detour-report import \(path)\" makes a draft trip of its places"))
                #expect(asTrip.stderr.split(separator: "\n").count == 1, "\(asTrip.stderr)")
            }
        }
        #expect(imported == 44, "\(imported) of \(GPXCorpusTests.realWorld.count) files imported")
    }

    @Test func geoJSONPointsAndLinesMakeAStayPerClusterAndTasksWithPaths() throws {
        let geoJSON = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Belém Tower", "description": "Manueline", "url": "https://example.org/belem"},
               "geometry": {"type": "Point", "coordinates": [-9.2160, 38.6916]}},
              {"type": "Feature", "properties": {"name": "Ribeira"}, "geometry": {"type": "Point", "coordinates": [-8.6140, 41.1400]}},
              {"type": "Feature", "properties": {"name": "Tram 28"},
               "geometry": {"type": "LineString", "coordinates": [[-9.1393, 38.7223], [-9.1334, 38.7139]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": []}}
            ]}
            """
        let input = scratch.appendingPathComponent("places.geojson")
        try Data(geoJSON.utf8).write(to: input)
        let trip = scratch.appendingPathComponent("trip.json")
        let result = try cli.run(["import", input.path, "-o", trip.path, "--today", "2026-11-27"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "imported 3 places into 2 stays; check it with 'detour-report validate \(trip.path)'\n"))
        let json = try cli.run([trip.path, "--format", "json", "--today", "2026-11-27"])
        #expect(json.status == 0, "\(json.stderr)")
        let text = try String(contentsOf: trip, encoding: .utf8)
        #expect(text.contains(#""name": "Stay 1 near Belém Tower""#), "\(text)")
        #expect(text.contains(#""name": "Stay 2 near Ribeira""#))
        #expect(text.contains(#""pros": ["#) && text.contains("https://example.org/belem"))
        #expect(text.contains(#""path": ["#))
        #expect(text.contains(#""arrival": "2026-12-11""#) && text.contains(#""arrival": "2026-12-12""#))
        // The same file again: never over the trip written.
        let again = try cli.run(["import", input.path, "-o", trip.path])
        #expect(again.status == 73)
    }

    @Test func aFileWithoutPlacesSaysSo() throws {
        let input = scratch.appendingPathComponent("empty.geojson")
        try Data(#"{"type": "FeatureCollection", "features": []}"#.utf8).write(to: input)
        let result = try cli.run(["import", input.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "\(input.path): error: the file holds no point or line: nothing to import [nothing-to-import]\n")
    }
}
