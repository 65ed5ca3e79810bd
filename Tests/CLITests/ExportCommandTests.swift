import DetourTestSupport
import Foundation
import Testing

/// `--format ics` and `--format geojson` on the real binary: to standard output, to `-o FILE`, and
/// into a folder with `-d`.
@Suite struct ExportCommandTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
    static let today = ["--today", "2026-11-22"]

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-export")
    }

    /// The golden file of the Lisbon sample in `format`, which the binary must write byte for byte.
    static func golden(_ fileExtension: String) throws -> Data {
        try Data(
            contentsOf: Fixtures.repository.appendingPathComponent(
                "Tests/DetourRenderTests/Goldens/lisbon-city-break.\(fileExtension)"))
    }

    @Test(arguments: ["ics", "geojson"])
    func theFormatOptionWritesTheExportToStandardOutput(_ format: String) throws {
        let result = try cli.run([sample, "--format", format] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.golden(format)))
    }

    @Test(arguments: ["ics", "geojson", "ICS", "GeoJSON"])
    func theOutputFilesExtensionChoosesTheExport(_ fileExtension: String) throws {
        let target = scratch.appendingPathComponent("plan.\(fileExtension)")
        let result = try cli.run([sample, "-o", target.path] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: target) == (try Self.golden(fileExtension.lowercased())))
    }

    /// The calendar's DTSTAMP is the plan's day, so SOURCE_DATE_EPOCH gives reproducible bytes.
    @Test func sourceDateEpochSetsTheCalendarsStamp() throws {
        // 2027-01-02T00:00:00Z.
        let result = try cli.run(
            [sample, "--format", "ics"], environment: ["SOURCE_DATE_EPOCH": "1798848000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("\r\nDTSTAMP:20270102T000000Z\r\n"))
    }

    @Test func aFolderRunWritesEveryExportAndTheIndexLinksThem() throws {
        let target = scratch.appendingPathComponent("out")
        let trips = Fixtures.sampleTrips().map { Fixtures.samples.appendingPathComponent($0).path }
        let result = try cli.run(trips + ["-d", target.path, "--format", "html,ics,geojson", "--quiet"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: target.path))
        for sample in Fixtures.sampleTrips() {
            let name = URL(fileURLWithPath: sample).deletingPathExtension().lastPathComponent
            for fileExtension in ["html", "ics", "geojson"] {
                #expect(written.contains("\(name).\(fileExtension)"), "\(name).\(fileExtension) missing")
            }
        }
        #expect(
            try Data(contentsOf: target.appendingPathComponent("lisbon-city-break.ics")) == (try Self.golden("ics")))
        let index = try String(contentsOf: target.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<a href="lisbon-city-break.ics">iCalendar</a>"#), "\(index)")
        #expect(index.contains(#"<a href="lisbon-city-break.geojson">GeoJSON</a>"#))
        #expect(!written.contains("index.md"), "an index in Markdown without Markdown reports")
    }

    /// The table of output formats in docs/commands.md has a row for every format `--format`
    /// accepts, and no other: the binary lists them when given one it does not know.
    @Test func theFormatTableListsEveryFormat() throws {
        let refused = try cli.run([sample, "--format", "docx"])
        #expect(refused.status == 64)
        let accepted = Set(
            refused.stderr.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) })
        #expect(
            accepted.isSuperset(of: ["html", "markdown", "json", "pdf", "gpx", "ics", "geojson"]), "\(refused.stderr)")
        let commands = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let section = try #require(commands.components(separatedBy: "### Output formats\n").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        // `| `markdown` (`md`) | …`: the first code span of the first cell.
        let listed = Set(rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) })
        #expect(listed == accepted)
    }

    @Test func versionPrintsTheOneVersion() throws {
        let result = try cli.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("detour-report 0.1.0 (libxml2 "), "\(result.output)")
    }

    /// Each shell's script offers the formats as values of --format, in that shell's syntax.
    @Test(arguments: [
        ("bash", #"'gpx'$'\n''ics'$'\n''geojson'"#),
        ("zsh", "___format=('html' 'markdown' 'json' 'pdf' 'gpx' 'ics' 'geojson')"),
        ("fish", "-l 'format' -d"), ("fish", "-rfka 'html markdown json pdf gpx ics geojson'"),
    ])
    func completionScriptsOfferTheFormats(_ shell: String, _ offer: String) throws {
        let result = try cli.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains(offer), "\(shell) does not offer \(offer)")
    }
}
