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
    ///
    /// What each file gave (its places, stays and points skipped) is kept in
    /// `Goldens/corpus-imports.tsv`, a golden file like the reports'.
    @Test func everyFileOfTheCorpusImportsOrSaysWhyNot() throws {
        var imported = 0
        var counts = "file\tplaces\tstays\tskipped\n"
        for path in GPXCorpusTests.realWorld {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let trip = scratch.appendingPathComponent("\(name).json").path
            let result = try cli.run(["import", path, "-o", trip])
            counts += URL(fileURLWithPath: path).lastPathComponent + "\t" + Self.counts(result.stderr) + "\n"
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
        let golden = Fixtures.repository.appendingPathComponent("Tests/CLITests/Goldens/corpus-imports.tsv")
        if let failure = Golden.check(counts, against: golden) { Issue.record("\(failure)") }
    }

    /// `places<TAB>stays<TAB>skipped` from import's last line, or `-` three times for a file
    /// that gave nothing.
    static func counts(_ stderr: String) -> String {
        let pattern = /imported (\d+) places? into (\d+) stays?(?:, (\d+) points? skipped)?/
        guard let match = stderr.firstMatch(of: pattern) else { return "-\t-\t-" }
        return "\(match.1)\t\(match.2)\t\(match.3 ?? "0")"
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
        // Each stay is named after the city at its centre.
        #expect(text.contains(#""name": "Lisbon""#), "\(text)")
        #expect(text.contains(#""name": "Porto""#))
        #expect(text.contains(#""pros": ["#) && text.contains("https://example.org/belem"))
        #expect(text.contains(#""path": ["#))
        #expect(text.contains(#""arrival": "2026-12-11""#) && text.contains(#""arrival": "2026-12-12""#))
        // The same file again: never over the trip written.
        let again = try cli.run(["import", input.path, "-o", trip.path])
        #expect(again.status == 73)
    }

    /// The exports of the map apps people use, written for the tests with made-up places: each
    /// imports into a trip that validates, with its stays, tasks and skipped points counted.
    @Test(
        arguments: [
            // File, stays (their names), tasks, points left out, title, a pro one task has. (No
            // argument is named "skipped": CI reads that word after "Test" as a skipped test.)
            (
                "google-takeout-saved-places.json", ["Rome", "Florence"], 5, 2,
                "Places from google-takeout-saved-places.json", "Piazza di Trevi, 00187 Roma RM, Italia"
            ),
            ("google-my-maps.kml", ["Rome", "Florence", "Venice"], 6, 1, "Italy in ten days", "Listed under Florence"),
            ("organic-maps.kmz", ["Venice"], 4, 0, "Venice and the lagoon", "Books in bathtubs & gondolas"),
            ("umap.geojson", ["Rome"], 3, 0, "Roman walks", "https://example.org/aventine"),
        ] as [(String, [String], Int, Int, String, String)])
    func aMapAppsExportImportsIntoATripThatValidates(
        _ file: String, _ stays: [String], _ tasks: Int, _ leftOut: Int, _ title: String, _ pro: String
    ) throws {
        let input = Fixtures.corpus.appendingPathComponent("map-apps/\(file)")
        let trip = scratch.appendingPathComponent("trip.json")
        let result = try cli.run(["import", input.path, "-o", trip.path, "--today", "2026-11-29"])
        #expect(result.status == 0, "\(result.stderr)")
        let counts = "imported \(tasks) places into \(stays.count) \(stays.count == 1 ? "stay" : "stays")"
        #expect(result.stderr.contains(counts + (leftOut > 0 ? ", \(leftOut) point" : ";")), "\(result.stderr)")
        let check = try cli.run(["validate", trip.path])
        #expect(check.status == 0 && !check.stderr.contains(": error: "), "\(check.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: trip)) as? [String: Any])
        let destinations = try #require(json["destinations"] as? [[String: Any]])
        #expect(destinations.compactMap { $0["name"] as? String } == stays)
        #expect(json["title"] as? String == title)
        let allPros = destinations.flatMap { ($0["detours"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["tasks"] as? [[String: Any]]) ?? [] }.flatMap { ($0["pros"] as? [String]) ?? [] }
        #expect(allPros.contains(pro), "\(allPros)")
    }

    /// Google Takeout: names from `location.name` (and `Title` in older exports), comments,
    /// addresses and links as pros, and the places without a position (at 0, 0, or with no
    /// geometry) skipped and named, not put in the Gulf of Guinea.
    @Test func aTakeoutExportKeepsItsNamesAndSkipsPlacesWithoutAPosition() throws {
        let input = Fixtures.corpus.appendingPathComponent("map-apps/google-takeout-saved-places.json")
        let result = try cli.run(["import", input.path, "--today", "2026-11-29"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "warning: 2 points skipped, with no position (no geometry, or 0, 0): \"Trattoria da Enzo\" and \"Forno della Luna\" [import-skipped]"
            ), "\(result.stderr)")
        for name in [
            "Colosseo", "Fontana di Trevi", "Osteria del Vicolo Nascosto", "Cattedrale di Santa Maria del Fiore",
        ] {
            #expect(result.output.contains("\"name\": \"\(name)\""), "\(name)")
        }
        #expect(!result.output.contains("Place 1"))
        #expect(result.output.contains("Go before 8 to have it almost to yourself"))
        #expect(result.output.contains("http://maps.google.com/?cid=1000000000000000005"))
        #expect(!result.output.contains("\"lat\": 0, \"lon\": 0"))
    }

    /// A file whose every point is skipped says so, naming them, instead of saying it holds none.
    @Test func aFileWhoseEveryPointIsSkippedSaysSo() throws {
        let input = scratch.appendingPathComponent("nowhere.gpx")
        try Data(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="undefined" lon="12.5"><name>Trattoria da Enzo</name></wpt>
            <wpt lat="0" lon="0"><name>Caffè</name></wpt>
            <wpt lon="3"/>
            </gpx>
            """.utf8
        ).write(to: input)
        let result = try cli.run(["import", input.path])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "\(input.path): error: every point of the file was skipped, so nothing is imported: "
                + "2 points skipped, with no position (no geometry, or 0, 0): \"Caffè\" and 1 without a name; "
                + "1 point skipped, with coordinates that are not numbers in range: \"Trattoria da Enzo\" [nothing-to-import]\n"
        )
    }

    /// Points at the same place are one task; `--stay-radius` splits stays; `--from` and
    /// `--days` spread the nights over the stays by their places.
    @Test func samePlacePointsMergeAndStaysFollowTheOptions() throws {
        let input = Fixtures.corpus.appendingPathComponent("map-apps/organic-maps.kmz")
        let merged = try cli.run(["import", input.path, "--today", "2026-11-29"])
        #expect(
            merged.stderr.contains(
                "warning: 1 point was at the place of another, and made one task with it: \"Cicchetti bar\" [import-draft]"
            ))
        #expect(merged.output.components(separatedBy: "\"name\": \"Cicchetti bar\"").count == 2)

        let kml = Fixtures.corpus.appendingPathComponent("map-apps/google-my-maps.kml")
        let spread = try cli.run(["import", kml.path, "--from", "2027-04-10", "--days", "9"])
        #expect(spread.status == 0, "\(spread.stderr)")
        let days = spread.output.split(separator: "\n").filter {
            $0.contains("\"arrival\"") || $0.contains("\"departure\"")
        }
        .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            days == [
                #""arrival": "2027-04-10","#, #""departure": "2027-04-14","#, #""arrival": "2027-04-14","#,
                #""departure": "2027-04-17","#, #""arrival": "2027-04-17","#, #""departure": "2027-04-19","#,
            ], "\(days)")
        #expect(spread.stderr.contains("placeholders (9 nights from 2027-04-10, by their places)"), "\(spread.stderr)")
        // Within 300 km, Rome and Florence share a stay; Venice is 240 km from Florence too.
        let wide = try cli.run(["import", kml.path, "--stay-radius", "300"])
        #expect(wide.stderr.contains("into 1 stay"), "\(wide.stderr)")
        for (option, value) in [("--stay-radius", "0"), ("--days", "0"), ("--from", "10/04/2027")] {
            let refused = try cli.run(["import", kml.path, option, value])
            #expect(refused.status == 64, "\(option) \(value): \(refused.stderr)")
        }
    }

    /// A KMZ that is no zip, holds no KML, or unpacks past the input limit is refused, located
    /// at the file, before anything is written.
    @Test func aKMZThatIsNoneOrTooLargeIsRefused() throws {
        let notZip = scratch.appendingPathComponent("not.kmz")
        try Data("<kml/>".utf8).write(to: notZip)
        let refused = try cli.run(["import", notZip.path])
        #expect(refused.status == 65 || refused.status == 66, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("\(notZip.path): error: not a KMZ file: it is no zip archive"), "\(refused.stderr)")

        // 65 MiB of spaces in doc.kml: a few hundred kilobytes zipped.
        let bomb = scratch.appendingPathComponent("bomb.kmz")
        let script = """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("doc.kml", b"<kml>" + b" " * (65 << 20) + b"</kml>")
            """
        let python = try Tool.path("python3").orThrow("python3 is not installed")
        let made = try CommandRunner(executable: URL(fileURLWithPath: python)).run(["-c", script, bomb.path])
        try #require(made.status == 0, "\(made.stderr)")
        let big = try cli.run(["import", bomb.path])
        #expect(big.status == 65, "\(big.stderr)")
        #expect(
            big.stderr
                == "\(bomb.path): error: the KMZ's \"doc.kml\" unpacks to more than 64 MiB: not read [file-too-large]\n"
        )
    }

    /// A `.kml` that is no KML, or carries a DOCTYPE, is refused as a GPX file would be.
    @Test(arguments: [
        (#"<?xml version="1.0"?><gpx version="1.1" creator="t"></gpx>"#, "the root element is <gpx>, not <kml>"),
        (
            #"<?xml version="1.0"?><!DOCTYPE kml><kml xmlns="http://www.opengis.net/kml/2.2"></kml>"#,
            "a DOCTYPE is not allowed in a KML file"
        ),
    ])
    func aKMLThatIsNoneIsRefused(_ text: String, _ message: String) throws {
        let input = scratch.appendingPathComponent("map.kml")
        try Data(text.utf8).write(to: input)
        let result = try cli.run(["import", input.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(input.path): error: \(message)"), "\(result.stderr)")
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
