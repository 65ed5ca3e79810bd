import DetourTestSupport
import Foundation
import Testing

/// On a phone (390 CSS px wide) no report scrolls sideways.
///
/// The overview's rows become cards and the detours' two sides stack. Measured in headless
/// Chromium: the document's scroll width is its client width.
@Suite struct PhoneWidthTests {
    static let needsChromium = CI.runs(whenAvailable: Tool.usable("chromium"))

    /// The report in a frame `width` px wide (a window cannot be that narrow).
    ///
    /// A script writes the frame's widths into the page's title; the report's policy, which
    /// forbids scripts, is taken out for the measurement alone.
    static func page(_ html: String, width: Int) -> String {
        let measured = html.replacingOccurrences(
            of:
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"#,
            with: ""
        ).replacingOccurrences(
            of: "</body>",
            with: """
                <script>parent.document.title = "W=" + document.documentElement.scrollWidth + "/" + \
                document.documentElement.clientWidth;</script></body>
                """)
        let escaped = measured.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "\"", with: "&quot;")
        return """
            <!DOCTYPE html><html><head><title>unmeasured</title></head><body style="margin:0">
            <iframe style="width:\(width)px;height:800px;border:0" srcdoc="\(escaped)"></iframe></body></html>
            """
    }

    /// `scrollWidth/clientWidth` of `html` at `width` CSS px.
    static func widths(_ html: String, width: Int) throws -> (scroll: Int, client: Int) {
        let folder = try ScratchFolder("detour-phone")
        let file = folder.url.appendingPathComponent("page.html")
        try Data(page(html, width: width).utf8).write(to: file)
        let chromium = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("chromium"))))
        let result = try chromium.run([
            "--headless", "--no-sandbox", "--disable-gpu", "--window-size=800,900", "--dump-dom", file.path,
        ])
        let title = result.output.components(separatedBy: "<title>W=").dropFirst().first?.prefix { $0 != "<" } ?? ""
        let parts = title.split(separator: "/").compactMap { Int($0) }
        try #require(parts.count == 2, "no measurement: \(result.output.prefix(300)) \(result.stderr.prefix(300))")
        return (parts[0], parts[1])
    }

    @Test(.enabled(if: needsChromium, "needs chromium"), arguments: Fixtures.sampleTrips())
    func nothingOverflowsAt390Pixels(_ sample: String) throws {
        let html = try RenderFixture.render(try Fixtures.sample(sample), as: .html)
        let (scroll, client) = try Self.widths(html, width: 390)
        #expect(scroll == client, "\(sample) is \(scroll) px wide in a \(client) px viewport")
    }

    /// The measurement can fail: a report with a wide table of its own does overflow.
    @Test(.enabled(if: needsChromium, "needs chromium"))
    func aWideReportIsMeasuredAsWide() throws {
        let html = try RenderFixture.render(try Fixtures.sample("lisbon-city-break.json"), as: .html)
        let wide = html.replacingOccurrences(of: "</main>", with: #"<div style="width:900px">wide</div></main>"#)
        let (scroll, client) = try Self.widths(wide, width: 390)
        #expect(scroll > client)
    }
}
