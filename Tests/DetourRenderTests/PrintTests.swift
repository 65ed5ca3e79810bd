import DetourCore
import DetourIO
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// The HTML reports printed by a real browser (headless Chromium) on A4 and on Letter, and read
/// back from the PDF with poppler: how many pages, and what text each page holds.
@Suite struct PrintTests {
    /// A paper size the test chooses; the report itself fixes none.
    enum Paper: String, CaseIterable, Sendable {
        case a4 = "A4"
        case letter = "Letter"
    }

    /// The most pages a sample may print on, on either paper.
    static let maxPages = ["scandinavia-rail.json": 6]

    /// The narrowest a map may print: 8 cm, in PDF points.
    static let minMapWidth = 8 / 2.54 * 72

    static let cases: [(String, Paper)] = Fixtures.sampleTrips().flatMap { sample in Paper.allCases.map { (sample, $0) }
    }

    static let needsTools = Tool.usable("chromium") && Tool.usable("pdfinfo") && Tool.usable("pdftotext")

    @Test func theReportFixesNoPaperSize() throws {
        let report = try RenderFixture.render(Fixtures.sample("scandinavia-rail.json"), as: .html)
        let pageRules = report.components(separatedBy: "@page").dropFirst().map { $0.prefix { $0 != "}" } }
        #expect(!pageRules.isEmpty)
        #expect(pageRules.allSatisfy { !$0.contains("size") }, "\(pageRules)")
    }

    @Test(
        .enabled(if: needsTools, "needs chromium and poppler-utils (Debian: chromium poppler-utils)"), arguments: cases)
    func samplesPrintWithHeadingsKeptWithTheirDetoursAndCardsWhole(_ sample: String, _ paper: Paper) throws {
        let bytes = try Fixtures.sample(sample)
        let outcome = TripLoader.load(bytes, format: .json)
        let trip = try #require(outcome.trip)
        let model = ReportModel(
            plan: Planner.plan(trip, today: RenderFixture.today), warnings: outcome.diagnostics.warnings)
        let html = try RenderFixture.render(bytes, as: .html)
        let printed = try PrintedReport(html: html, paper: paper)

        if let limit = Self.maxPages[sample] {
            #expect(printed.pages.count <= limit, "\(sample) takes \(printed.pages.count) \(paper.rawValue) pages")
        }

        var reader = PageReader(pages: printed.pages)
        for destination in model.sections.flatMap(\.destinations) {
            let headingPage = reader.next(destination.name)
            let heading = try #require(headingPage, "heading \(destination.name)")
            #expect(
                printed.pages[heading].contains(PageReader.flatten(destination.map.scaleBarLabel)),
                "\(destination.name): the map's scale bar is not on its page")
            guard !destination.detours.isEmpty else {
                let notePage = reader.next("No detours planned here.")
                #expect(notePage == heading, "\(destination.name) ends a page alone")
                continue
            }
            for (index, detour) in destination.detours.enumerated() {
                let titlePage = reader.next(detour.title)
                let title = try #require(titlePage, "detour \(detour.title)")
                let last =
                    detour.recommended.isEmpty
                    ? "No pick: \(detour.recommendationReason)."
                    : "Pick \(detour.recommended): \(detour.recommendationReason)."
                let endPage = reader.next(last)
                let end = try #require(endPage, "the last row of \(detour.title)")
                if index == 0 {
                    #expect(title == heading, "\(destination.name) is the last text of page \(heading + 1)")
                }
                #expect(end == title, "\(detour.title) is split over pages \(title + 1) and \(end + 1)")
            }
        }

        let widths = printed.mapWidths
        #expect(widths.count == model.sections.flatMap(\.destinations).count)
        for width in widths {
            #expect(width >= Self.minMapWidth, "a map prints \(width) pt wide, under 8 cm")
        }
    }
}

/// Finds texts in page order, each after the one before, and says which page each is on.
struct PageReader {
    private let text: String
    private let pageEnds: [String.Index]
    private var cursor: String.Index

    init(pages: [String]) {
        var text = ""
        var ends: [String.Index] = []
        for page in pages {
            text += PageReader.flatten(page) + " "
            ends.append(text.endIndex)
        }
        self.text = text
        pageEnds = ends
        cursor = text.startIndex
    }

    /// Text with every run of white space (line ends included) made one space.
    static func flatten(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The 0-based page on which `needle` next occurs after the last text found, or `nil`.
    mutating func next(_ needle: String) -> Int? {
        guard let found = text.range(of: PageReader.flatten(needle), range: cursor..<text.endIndex) else { return nil }
        cursor = found.upperBound
        return pageEnds.firstIndex { found.lowerBound < $0 }
    }
}

/// An HTML report printed to PDF by headless Chromium on a chosen paper, read back with poppler.
struct PrintedReport {
    /// Each page's text, as `pdftotext -f N -l N` gives it.
    var pages: [String]
    /// How wide each map printed, in points, in the order of the report.
    var mapWidths: [Double]

    /// Words the test adds at a map's left and right edges, to measure it on paper.
    static let leftEdge = "MAPLEFTEDGE"
    static let rightEdge = "MAPRIGHTEDGE"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(html: String, paper: PrintTests.Paper) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detour-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let page = scratch.appendingPathComponent("report.html")
        let pdf = scratch.appendingPathComponent("report.pdf")
        try Data(PrintedReport.prepare(html, paper: paper).utf8).write(to: page)

        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--user-data-dir=\(scratch.path)/profile",
            "--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", page.absoluteString,
        ]
        // Chromium refuses to start as root with its sandbox on (CI containers run as root).
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
        let printed = try PrintedReport.run("chromium", arguments)
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            throw Failure(description: "chromium printed nothing: \(printed.stderr)")
        }

        let info = try PrintedReport.run("pdfinfo", [pdf.path]).output
        let pagesLine = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
        guard let count = pagesLine.flatMap({ Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) })
        else {
            throw Failure(description: "pdfinfo gave no page count: \(info)")
        }
        pages = try (1...count).map { number in
            try PrintedReport.run("pdftotext", ["-f", "\(number)", "-l", "\(number)", pdf.path, "-"]).output
        }
        let boxes = try PrintedReport.run("pdftotext", ["-bbox", pdf.path, "-"]).output
        mapWidths = PrintedReport.mapWidths(inBoundingBoxes: boxes)
    }

    /// The report with the paper chosen and every map marked at its edges.
    static func prepare(_ html: String, paper: PrintTests.Paper) -> String {
        let marks = """
            <text x="0" y="12" font-size="11">\(leftEdge)</text>\
            <text x="\(Int(MapModel.width))" y="12" font-size="11" text-anchor="end">\(rightEdge)</text>
            """
        return html.replacingOccurrences(
            of: "</head>", with: "<style>@page { size: \(paper.rawValue); }</style></head>"
        )
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.hasPrefix("<svg ") ? $0 + "\n" + marks : String($0) }
        .joined(separator: "\n")
    }

    /// The distance from each left edge mark to the right edge mark that follows it.
    static func mapWidths(inBoundingBoxes xhtml: String) -> [Double] {
        var widths: [Double] = []
        var left: Double?
        for line in xhtml.split(separator: "\n") where line.contains("<word ") {
            if line.contains(">\(leftEdge)<") {
                left = attribute("xMin", in: line)
            } else if line.contains(">\(rightEdge)<"), let start = left, let end = attribute("xMax", in: line) {
                widths.append(end - start)
                left = nil
            }
        }
        return widths
    }

    /// A number attribute of one `<word>` line of `pdftotext -bbox`.
    static func attribute(_ name: String, in line: Substring) -> Double? {
        guard let start = line.range(of: "\(name)=\"") else { return nil }
        return Double(line[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Runs a command found on `PATH`, failing when it is missing or fails.
    static func run(_ command: String, _ arguments: [String]) throws -> CommandRunner.Result {
        guard let path = Tool.path(command) else { throw Failure(description: "\(command) is not installed") }
        let result = try CommandRunner(executable: URL(fileURLWithPath: path)).run(arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(command) failed (\(result.status)): \(result.stderr)")
        }
        return result
    }
}
