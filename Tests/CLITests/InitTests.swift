import DetourTestSupport
import Foundation
import Testing

/// `detour-report init`: a starter trip that is valid, shows every field, and replaces nothing.
@Suite struct InitTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-init")
    }

    @Test func theStarterIsValidWithoutAWarningAndRenders() throws {
        let trip = scratch.appendingPathComponent("trip.json").path
        let written = try cli.run(["init", trip, "--today", "2026-11-27"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        #expect(written.stderr.contains("wrote \(trip)"))
        let check = try cli.run(["validate", trip])
        #expect(check.output == "\(trip): valid trip: 1 destination, 1 detour, 0 warnings\n", "\(check.stderr)")
        #expect(check.stderr.isEmpty)
        let report = try cli.run([trip, "--today", "2026-11-27", "--format", "markdown"])
        #expect(report.status == 0)
        #expect(report.output.contains("Traveler: Ana Silva"))
        // Two weeks ahead: coming up.
        #expect(report.output.contains("Fri 11 Dec 2026"), "\(report.output)")
    }

    @Test func everyKeyOfTheFormatIsShownOnce() throws {
        let text = try cli.run(["init", "--today", "2026-11-27"]).output
        let keys = [
            "title", "traveler", "travel", "currency", "rates", "budget", "day_hours", "destinations", "name",
            "location", "lat", "lon", "arrival", "departure", "detours", "tasks", "duration", "cost", "amount", "pros",
            "cons", "path",
        ]
        for key in keys {
            #expect(text.contains("\"\(key)\":"), "the starter lacks \(key)")
        }
        let schema = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.repository.appendingPathComponent("docs/trip.schema.json")))
        let properties = try #require((schema as? [String: Any])?["properties"] as? [String: Any])
        for key in properties.keys where key != "$schema" {
            #expect(text.contains("\"\(key)\":"), "the starter lacks the schema's \(key)")
        }
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let trip = scratch.appendingPathComponent("mine.json")
        try Data("mine".utf8).write(to: trip)
        let result = try cli.run(["init", trip.path])
        #expect(result.status == 73)
        #expect(
            result.stderr
                == "\(trip.path): error: the file exists; give another name, or remove it first to start again [cannot-create-output]\n"
        )
        #expect(try Data(contentsOf: trip) == Data("mine".utf8))
    }

    @Test func theDayComesFromTheClockAsRenderReadsIt() throws {
        let pinned = try cli.run(["init"]).output
        let given = try cli.run(["init", "--today", "2026-11-22"]).output
        #expect(pinned == given, "SOURCE_DATE_EPOCH, pinned by the tests, is 2026-11-22")
        #expect(given.contains("\"arrival\": \"2026-12-06\""))
        #expect(try cli.run(["init", "--today", "2026-02-30"]).status == 64)
    }
}
