import DetourIO
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// Every sample trip in every format, reports and exports, compared with the golden files in
/// `Goldens/`.
///
/// Run with `DETOUR_RECORD_GOLDENS=1 swift test` to accept new output.
@Suite struct GoldenReportTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static let cases: [(String, ReportFormat)] = Fixtures.sampleTrips().flatMap { sample in
        ReportFormat.allCases.map { (sample, $0) }
    }

    static let exportCases: [(String, ExportFormat)] = Fixtures.sampleTrips().flatMap { sample in
        ExportFormat.allCases.map { (sample, $0) }
    }

    static func goldenName(_ sample: String, _ fileExtension: String) -> String {
        sample.replacingOccurrences(of: ".json", with: "") + "." + fileExtension
    }

    @Test func thereAreSamplesToCompare() {
        #expect(Fixtures.sampleTrips().count >= 3)
    }

    /// The golden file every HTML report's stylesheet is compared with: the same in every report,
    /// so a change of style re-records this one file, not every report.
    static let stylesheet = "report.css"

    /// Where an HTML golden file holds its stylesheet.
    static let stylesheetMark = "/* Goldens/report.css */\n"

    /// Compares `report` with the golden file `name`; an HTML report's stylesheet is compared with
    /// ``stylesheet`` instead, and its golden file holds ``stylesheetMark`` in its place.
    static func check(_ report: String, format: ReportFormat, against name: String) -> [String] {
        let url = goldens.appendingPathComponent(name)
        guard format == .html, let open = report.range(of: "<style>\n"),
            let close = report.range(of: "</style>", range: open.upperBound..<report.endIndex)
        else {
            return Golden.check(report, against: url).map { [$0] } ?? []
        }
        let css = String(report[open.upperBound..<close.lowerBound])
        let page = report.replacingCharacters(in: open.upperBound..<close.lowerBound, with: stylesheetMark)
        return [
            Golden.check(css, against: goldens.appendingPathComponent(stylesheet)),
            Golden.check(page, against: url),
        ].compactMap { $0 }
    }

    @Test(arguments: cases)
    func sampleMatchesItsGoldenFile(_ sample: String, _ format: ReportFormat) throws {
        let report = try RenderFixture.render(Fixtures.sample(sample), as: format)
        for failure in Self.check(report, format: format, against: Self.goldenName(sample, format.goldenExtension)) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// The stylesheet has a golden file of its own, and each HTML golden file marks its place.
    @Test func everyHTMLGoldenFileLeavesItsStylesheetToOne() throws {
        let css = try String(contentsOf: Self.goldens.appendingPathComponent(Self.stylesheet), encoding: .utf8)
        #expect(css.contains(":root {"))
        for sample in Fixtures.sampleTrips() {
            let name = Self.goldenName(sample, ReportFormat.html.goldenExtension)
            let page = try String(contentsOf: Self.goldens.appendingPathComponent(name), encoding: .utf8)
            #expect(page.contains("<style>\n" + Self.stylesheetMark + "</style>"), "\(name)")
            #expect(!page.contains(":root {"), "\(name)")
        }
    }

    /// The template engine renders the built-in HTML template to the same bytes as its compiled
    /// form, so `--templates` with a copy changes nothing, and the compiler is held to the engine's
    /// rules (standalone lines, escaping, lookups up the context stack).
    @Test(arguments: Fixtures.sampleTrips())
    func theTemplateEngineMatchesTheCompiledTemplates(_ sample: String) throws {
        let compiled = try RenderFixture.render(Fixtures.sample(sample), as: .html, engine: .compiled)
        let interpreted = try RenderFixture.render(Fixtures.sample(sample), as: .html, engine: .interpreted)
        #expect(compiled == interpreted)
        let name = Self.goldenName(sample, ReportFormat.html.goldenExtension)
        for failure in Self.check(interpreted, format: .html, against: name) {
            Issue.record(Comment(rawValue: "through the template engine: " + failure))
        }
    }

    /// Through the template engine Markdown is escaped for a place that may be anything (the
    /// engine does not say where a value stands), so it may hold more escapes than the compiled
    /// form: the text is the same once escapes are read, and GFM makes the same HTML of both.
    @Test(arguments: Fixtures.sampleTrips())
    func theTemplateEngineMarkdownReadsAsTheCompiledMarkdown(_ sample: String) throws {
        let compiled = try RenderFixture.render(Fixtures.sample(sample), as: .markdown, engine: .compiled)
        let interpreted = try RenderFixture.render(Fixtures.sample(sample), as: .markdown, engine: .interpreted)
        try EscapingTests.expectSameReading(compiled, interpreted)
    }

    /// The calendar and the map of every sample: the bytes a calendar or map program gets.
    @Test(arguments: exportCases)
    func sampleExportMatchesItsGoldenFile(_ sample: String, _ format: ExportFormat) throws {
        let export = try RenderFixture.export(Fixtures.sample(sample), as: format)
        let url = Self.goldens.appendingPathComponent(Self.goldenName(sample, format.fileExtension))
        if let failure = Golden.check(export, against: url) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test func everyGoldenFileBelongsToASample() throws {
        let expected = Set(
            Self.cases.map { Self.goldenName($0.0, $0.1.goldenExtension) }
                + Self.exportCases.map { Self.goldenName($0.0, $0.1.fileExtension) }
                + Fixtures.sampleTrips().map { Self.goldenName($0, "model.txt") } + [
                    "index.model.txt", Self.stylesheet,
                ])
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.goldens.path))
        #expect(present.subtracting(expected).isEmpty, "stale golden files: \(present.subtracting(expected).sorted())")
    }

    /// The rendered reports kept in `samples/` for readers who do not build; they must stay current.
    @Test(arguments: [ReportFormat.html, .markdown])
    func theShowcaseReportsInSamplesAreCurrent(_ format: ReportFormat) throws {
        let report = try RenderFixture.render(Fixtures.sample("lisbon-city-break.json"), as: format)
        let url = Fixtures.samples.appendingPathComponent("lisbon-city-break.report.\(format.goldenExtension)")
        if let failure = Golden.check(report, against: url) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Every GPX sample has a JSON twin, and both render to the same bytes in every format.
    @Test(arguments: Fixtures.sampleTrips(extension: "gpx"))
    func aGPXSampleRendersExactlyLikeItsJSONTwin(_ sample: String) throws {
        let twin = sample.replacingOccurrences(of: ".gpx", with: ".json")
        for format in ReportFormat.allCases {
            let fromGPX = try RenderFixture.render(Fixtures.sample(sample), format: .gpx, as: format)
            let fromJSON = try RenderFixture.render(Fixtures.sample(twin), format: .json, as: format)
            #expect(fromGPX == fromJSON, "\(sample) and \(twin) differ as \(format)")
        }
        for format in ExportFormat.allCases {
            let fromGPX = try RenderFixture.export(Fixtures.sample(sample), format: .gpx, as: format)
            let fromJSON = try RenderFixture.export(Fixtures.sample(twin), format: .json, as: format)
            #expect(fromGPX == fromJSON, "\(sample) and \(twin) differ as \(format)")
        }
    }

    @Test func thereAreGPXTwins() {
        #expect(Fixtures.sampleTrips(extension: "gpx").count >= 2)
    }

    @Test(arguments: Fixtures.sampleTrips())
    func renderingTwiceGivesTheSameBytes(_ sample: String) throws {
        for format in ReportFormat.allCases {
            let first = try RenderFixture.render(Fixtures.sample(sample), as: format)
            let second = try RenderFixture.render(Fixtures.sample(sample), as: format)
            #expect(first == second)
        }
        for format in ExportFormat.allCases {
            let first = try RenderFixture.export(Fixtures.sample(sample), as: format)
            let second = try RenderFixture.export(Fixtures.sample(sample), as: format)
            #expect(first == second)
        }
    }
}
