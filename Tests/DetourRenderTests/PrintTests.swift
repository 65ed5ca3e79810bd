import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// The HTML reports printed by a real browser (headless Chromium, driven as `--format pdf` drives
/// it) on A4 and on Letter, and read back from the PDF with poppler: how many pages, and what
/// text each page holds.
@Suite struct PrintTests {
    /// A paper size the test chooses; the report itself fixes none.
    enum Paper: String, CaseIterable, Sendable {
        case a4 = "A4"
        case letter = "Letter"

        var paper: DetourJob.Paper { self == .a4 ? .a4 : .letter }
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

    /// The days a trip's report is printed as of in the tests.
    ///
    /// The day before the trip, each stay's arrival and departure, a day inside each stay, and the
    /// day after the trip: each moves stays between the sections (coming up, under way, done), and
    /// so moves the page breaks.
    static func days(of trip: Trip) -> [CalendarDay] {
        var days: Set<CalendarDay> = []
        for stay in trip.destinations {
            days.insert(stay.arrival)
            days.insert(stay.departure)
            if let inside = stay.arrival.adding(days: 1), inside < stay.departure { days.insert(inside) }
        }
        if let first = trip.destinations.map(\.arrival).min(), let before = first.adding(days: -1) {
            days.insert(before)
        }
        if let last = trip.destinations.map(\.departure).max(), let after = last.adding(days: 1) {
            days.insert(after)
        }
        return days.sorted()
    }

    @Test func theDaysCoverBeforeEachStayAndAfter() throws {
        let trip = try #require(TripLoader.load(try Fixtures.sample("scandinavia-rail.json"), format: .json).trip)
        let days = Self.days(of: trip).map(\.description)
        #expect(days.first == "2026-11-13")
        #expect(days.last == "2026-12-02")
        for expected in ["2026-11-14", "2026-11-15", "2026-11-18", "2026-11-27", "2026-11-28", "2026-12-01"] {
            #expect(days.contains(expected))
        }
        #expect(days == days.sorted() && Set(days).count == days.count)
    }

    @Test func aPageIsAsFullAsItsLowestWordAboveTheFooter() {
        let boxes = """
            <page width="612" height="792">
            <word xMin="40" yMin="40" xMax="90" yMax="52">Title</word>
            <word xMin="40" yMin="300" xMax="90" yMax="312">Middle</word>
            <word xMin="40" yMin="760" xMax="90" yMax="772">footer</word>
            </page>
            <page width="612" height="792">
            </page>
            """
        #expect(PrintedReport.lowestWords(inBoundingBoxes: boxes, above: 747) == [312, 0])
    }

    @Test(
        .enabled(if: needsTools, "needs chromium and poppler-utils (Debian: chromium poppler-utils)"), arguments: cases)
    func samplesPrintWithHeadingsKeptWithTheirDetoursAndCardsWhole(_ sample: String, _ paper: Paper) throws {
        let bytes = try Fixtures.sample(sample)
        let outcome = TripLoader.load(bytes, format: .json)
        let trip = try #require(outcome.trip)
        guard let chromium = Tool.path("chromium") else { throw PrintedReport.Failure(description: "no chromium") }
        // One browser prints every day's report, as one `--format pdf` batch would.
        let printer = try ChromiumPrinter(browser: chromium)
        defer { printer.end() }
        for day in Self.days(of: trip) {
            let model = ReportModel(plan: Planner.plan(trip, today: day), warnings: outcome.diagnostics.warnings)
            let html = try RenderFixture.render(bytes, as: .html, today: day)
            let printed = try PrintedReport(html: html, title: trip.title, paper: paper, printer: printer)
            try Self.checkPrintRules(printed, model: model, sample: sample, paper: paper, day: day)
        }
    }

    /// The print rules for one printed report: the footer on every page, the page limit, no
    /// heading alone at a page foot, no detour split, no page under a third full but the last,
    /// no empty section on paper, and maps at least 8 cm wide.
    static func checkPrintRules(
        _ printed: PrintedReport, model: ReportModel, sample: String, paper: Paper, day: CalendarDay
    ) throws {
        let at = "\(sample) on \(paper.rawValue) as of \(day)"
        // The footer: the title and "page N of M" on every page, after all else.
        let count = printed.pages.count
        #expect(
            printed.footers == (1...count).map { "\(PageReader.flatten(model.title)) page \($0) of \(count)" }, "\(at)")

        if let limit = maxPages[sample] {
            #expect(count <= limit, "\(at) takes \(count) pages")
        }
        for (index, fill) in printed.fills.enumerated().dropLast() {
            #expect(fill >= 1.0 / 3, "\(at): page \(index + 1) of \(count) is \(Int(fill * 100)) % full")
        }

        var reader = PageReader(pages: printed.pages)
        for section in model.sections {
            let text = PageReader.flatten(section.emptyText)
            #expect(
                !printed.pages.contains { $0.contains(text) }, "\(at): the empty section \(section.heading) is printed")
            guard let first = section.destinations.first else { continue }
            let headingPage = reader.next(section.heading.uppercased())
            let heading = try #require(headingPage, "\(at): section heading \(section.heading)")
            #expect(
                reader.peek(first.name) == heading,
                "\(at): the section \(section.heading) ends page \(heading + 1) alone")
            for destination in section.destinations {
                try checkDestination(destination, in: printed, reader: &reader, at: at)
            }
        }

        let widths = printed.mapWidths
        #expect(widths.count == model.sections.flatMap(\.destinations).count, "\(at)")
        for width in widths {
            #expect(width >= minMapWidth, "\(at): a map prints \(width) pt wide, under 8 cm")
        }
    }

    /// A destination's heading is on the page of its first detour (or its note), its map's scale
    /// bar too, and each detour card is on one page.
    static func checkDestination(
        _ destination: DestinationModel, in printed: PrintedReport, reader: inout PageReader, at: String
    ) throws {
        let headingPage = reader.next(destination.name)
        let heading = try #require(headingPage, "\(at): heading \(destination.name)")
        #expect(
            printed.pages[heading].contains(PageReader.flatten(destination.map.scaleBarLabel)),
            "\(at): \(destination.name): the map's scale bar is not on its page")
        guard !destination.detours.isEmpty else {
            let notePage = reader.next("No detours planned here.")
            #expect(notePage == heading, "\(at): \(destination.name) ends a page alone")
            return
        }
        for (index, detour) in destination.detours.enumerated() {
            let titlePage = reader.next(detour.title)
            let title = try #require(titlePage, "\(at): detour \(detour.title)")
            let last =
                detour.recommended.isEmpty
                ? "No pick: \(detour.recommendationReason)."
                : "Pick \(detour.recommended): \(detour.recommendationReason)."
            let endPage = reader.next(last)
            let end = try #require(endPage, "\(at): the last row of \(detour.title)")
            if index == 0 {
                #expect(title == heading, "\(at): \(destination.name) is the last text of page \(heading + 1)")
            }
            #expect(end == title, "\(at): \(detour.title) is split over pages \(title + 1) and \(end + 1)")
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

    /// The 0-based page on which `needle` next occurs after the last text found, without
    /// moving past it.
    func peek(_ needle: String) -> Int? {
        var copy = self
        return copy.next(needle)
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
    /// Each page's text, as `pdftotext -f N -l N` gives it, white space flattened, without the footer.
    var pages: [String]
    /// Each page's footer.
    var footers: [String]
    /// How wide each map printed, in points, in the order of the report.
    var mapWidths: [Double]
    /// How full each page is: how far down its last text reaches, as a share of the height
    /// between the page's top and bottom margins.
    var fills: [Double]

    /// Words the test adds at a map's left and right edges, to measure it on paper.
    static let leftEdge = "MAPLEFTEDGE"
    static let rightEdge = "MAPRIGHTEDGE"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(html: String, title: String, paper: PrintTests.Paper, printer: ChromiumPrinter) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detour-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pdf = scratch.appendingPathComponent("report.pdf")
        // Printed as `--format pdf` prints: the same browser driver, paper and footer.
        let page = PrintPage(
            html: Array(PrintedReport.marked(html).utf8), paper: paper.paper, footer: PrintPage.footer(title: title))
        try Data(try printer.print(page)).write(to: pdf)

        let info = try Poppler.info(pdf)
        guard let count = info["Pages"].flatMap({ Int($0) }) else {
            throw Failure(description: "pdfinfo gave no page count: \(info)")
        }
        // The footer is read apart, from the page's bottom margin (16 mm, the report's `@page`
        // rule), so the title in it is not taken for the report's own text.
        // `595.92 x 841.92 pts (A4)`.
        let size = info["Page size"]?.split(separator: " ") ?? []
        let height = Int(Double(size.dropFirst(2).first ?? "") ?? 842)
        let margin = Int(16 / 25.4 * 72)
        let topMargin = 14 / 25.4 * 72
        func text(_ number: Int, top: Int, height: Int) throws -> String {
            let crop = ["-x", "0", "-y", "\(top)", "-W", "2000", "-H", "\(height)"]
            let arguments = ["-f", "\(number)", "-l", "\(number)"] + crop + [pdf.path, "-"]
            return PageReader.flatten(try Poppler.run("pdftotext", arguments))
        }
        pages = try (1...count).map { try text($0, top: 0, height: height - margin) }
        footers = try (1...count).map { try text($0, top: height - margin, height: margin) }
        let boxes = try Poppler.run("pdftotext", ["-bbox", pdf.path, "-"])
        mapWidths = PrintedReport.mapWidths(inBoundingBoxes: boxes)
        let body = Double(height - margin) - topMargin
        fills = PrintedReport.lowestWords(inBoundingBoxes: boxes, above: Double(height - margin)).map {
            ($0 - topMargin) / body
        }
    }

    /// For each page of `pdftotext -bbox` output, how far down (in points) its lowest word above
    /// `limit` reaches; 0 for a page with none.
    static func lowestWords(inBoundingBoxes xhtml: String, above limit: Double) -> [Double] {
        var lowest: [Double] = []
        for line in xhtml.split(separator: "\n") {
            if line.contains("<page ") {
                lowest.append(0)
            } else if line.contains("<word "), let bottom = attribute("yMax", in: line), bottom <= limit,
                let last = lowest.indices.last
            {
                lowest[last] = max(lowest[last], bottom)
            }
        }
        return lowest
    }

    /// The report with every map marked at its edges.
    static func marked(_ html: String) -> String {
        let marks = """
            <text x="0" y="12" font-size="11">\(leftEdge)</text>\
            <text x="\(Int(MapModel.width))" y="12" font-size="11" text-anchor="end">\(rightEdge)</text>
            """
        return html.split(separator: "\n", omittingEmptySubsequences: false)
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
}
