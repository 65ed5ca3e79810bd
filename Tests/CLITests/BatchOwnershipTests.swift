import DetourTestSupport
import Foundation
import Testing

/// A batch run owns what its index lists: the next run into the folder removes the reports it
/// no longer writes, `--check` agrees, nothing else is touched, and no run reads a run's
/// outputs as trips.
@Suite struct BatchOwnershipTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    var out: URL { scratch.appendingPathComponent("out") }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-owned")
    }

    /// A folder holding a copy of the JSON samples.
    func trips() throws -> URL {
        let trips = scratch.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: trips, withIntermediateDirectories: true)
        for name in Fixtures.sampleTrips() {
            try FileManager.default.copyItem(at: Fixtures.sampleURL(name), to: trips.appendingPathComponent(name))
        }
        return trips
    }

    func render(_ inputs: [String], _ extra: [String] = []) throws -> CommandRunner.Result {
        try cli.run(inputs + ["-d", out.path, "--quiet"] + extra)
    }

    func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aFormatDroppedFromTheListTakesItsReportsAndCheckAgrees() throws {
        let trips = try trips().path
        #expect(try render([trips], ["--format", "html,markdown"]).status == 0)
        try Data("mine".utf8).write(to: out.appendingPathComponent("README.md"))
        // Before the run, --check names the reports the run would remove, and only those.
        let check = try render([trips], ["--check"])
        #expect(check.status == 1)
        let extra = check.stderr.split(separator: "\n").filter {
            $0.hasSuffix(": error: no trip writes this report now: its format is no longer asked for [report-differs]")
        }
        // Each trip's Markdown report, and the Markdown index.
        let count = Fixtures.sampleTrips().count
        #expect(extra.count == count + 1, "\(check.stderr)")
        #expect(!check.stderr.contains("README.md"))
        #expect(check.stderr.contains("index.md: error: no trip writes this report"))
        // The reports counted, not the lines: the HTML reports up to date, the two indexes
        // (which listed the Markdown) differing, and what the run would remove.
        #expect(
            check.stderr.hasSuffix(
                "\(count) reports up to date, 2 differ, \(count + 1) would be removed: formats no longer asked for\n"
            ),
            "\(check.stderr)")

        // The run says what it removed, and why.
        let run = try cli.run([trips, "-d", out.path])
        #expect(run.status == 0)
        #expect(
            run.stderr.hasSuffix(
                "\(count) written, 0 invalid, 0 unreadable; \(count + 1) removed: formats no longer asked for\n"),
            "\(run.stderr)")
        #expect(try names(out).filter { $0.hasSuffix(".md") } == ["README.md"])
        let again = try render([trips], ["--check"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aTripRemovedRenamedOrNowInvalidTakesItsReports() throws {
        let trips = try trips()
        #expect(try render([trips.path], ["--format", "html,json"]).status == 0)
        let fm = FileManager.default
        try fm.removeItem(at: trips.appendingPathComponent("andes-drafts.json"))
        try fm.moveItem(
            at: trips.appendingPathComponent("fiji-date-line.json"), to: trips.appendingPathComponent("fiji.json"))
        try Data("{\"title\": 3}".utf8).write(to: trips.appendingPathComponent("nordic-budget.json"))
        let before = try cli.run([trips.path, "-d", out.path, "--format", "html,json", "--check"])
        #expect(
            before.stderr.contains(
                "andes-drafts.html: error: no trip writes this report now: its trip was removed or renamed"))
        #expect(
            before.stderr.contains(
                "nordic-budget.json: error: no trip writes this report now: its trip is now invalid or unreadable"))
        let second = try cli.run([trips.path, "-d", out.path, "--format", "html,json"])
        #expect(second.status == 65)
        #expect(
            second.stderr.hasSuffix(
                "3 written, 1 invalid, 0 unreadable; 6 removed: 4 for trips removed or renamed, 2 for trips now invalid or unreadable\n"
            ), "\(second.stderr)")
        #expect(
            try names(out) == [
                "fiji.html", "fiji.json", "index.html", "index.json", "lisbon-city-break.html",
                "lisbon-city-break.json", "scandinavia-rail.html", "scandinavia-rail.json",
            ])
        let check = try render([trips.path], ["--format", "html,json", "--check"])
        #expect(check.status == 65, "the invalid trip is the worse news")
        #expect(!check.stderr.contains("[report-differs]"), "\(check.stderr)")
    }

    @Test func aFileTheIndexListsIsRemovedOnlyWhereTheRunPutIt() throws {
        let trips = try trips()
        #expect(try render([trips.path], ["--format", "html,markdown"]).status == 0)
        let fm = FileManager.default
        // A report replaced by a link, and one replaced by a folder: neither is the run's now.
        let elsewhere = scratch.appendingPathComponent("elsewhere.md")
        try Data("not the run's".utf8).write(to: elsewhere)
        try fm.removeItem(at: out.appendingPathComponent("lisbon-city-break.md"))
        try fm.createSymbolicLink(at: out.appendingPathComponent("lisbon-city-break.md"), withDestinationURL: elsewhere)
        try fm.removeItem(at: out.appendingPathComponent("nordic-budget.md"))
        try fm.createDirectory(at: out.appendingPathComponent("nordic-budget.md"), withIntermediateDirectories: true)
        // An index that is not detour-report's claims nothing.
        #expect(try render([trips.path]).status == 0)
        #expect(fm.fileExists(atPath: elsewhere.path))
        #expect(
            (try? fm.destinationOfSymbolicLink(atPath: out.appendingPathComponent("lisbon-city-break.md").path)) != nil)
        #expect(fm.fileExists(atPath: out.appendingPathComponent("nordic-budget.md").path))
        #expect(!fm.fileExists(atPath: out.appendingPathComponent("andes-drafts.md").path))

        let other = scratch.appendingPathComponent("other")
        try fm.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("{\"format\": \"something-else\", \"trips\": []}".utf8).write(
            to: other.appendingPathComponent("index.json"))
        try Data("mine".utf8).write(to: other.appendingPathComponent("mine.html"))
        let into = try cli.run([trips.path, "-d", other.path, "--quiet"])
        #expect(into.status == 0, "\(into.stderr)")
        #expect(fm.fileExists(atPath: other.appendingPathComponent("mine.html").path))
    }

    /// The case: JSON reports of GPX trips written beside them, twice.
    @Test func aRunNeverReadsARunsReportsAsTrips() throws {
        let gpx = scratch.appendingPathComponent("gpx")
        try FileManager.default.copyItem(at: Fixtures.gpxSamples, to: gpx)
        let count = Fixtures.sampleTrips(extension: "gpx").count
        for run in 1...2 {
            let result = try cli.run([gpx.path, "-d", gpx.path, "--format", "json"])
            #expect(result.status == 0, "run \(run): \(result.stderr)")
            #expect(result.stderr.contains("\(count) written, 0 invalid, 0 unreadable"), "run \(run): \(result.stderr)")
        }
        // Copied elsewhere without their index, the reports are still no trips; nor is an index.
        let copies = scratch.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        for name in try names(gpx) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(
                at: gpx.appendingPathComponent(name), to: copies.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: Fixtures.sampleURL("lisbon-city-break.json"), to: copies.appendingPathComponent("trip.json"))
        let copied = try cli.run([copies.path, "-d", out.path])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.contains("1 written, 0 invalid, 0 unreadable"), "\(copied.stderr)")
        // GPX reports beside the trips they were made from are listed by the index: no clash.
        let json = try trips()
        for run in 1...2 {
            let result = try cli.run([json.path, "-d", json.path, "--format", "gpx", "--quiet"])
            #expect(result.status == 0, "run \(run): \(result.stderr)")
        }
    }
}
