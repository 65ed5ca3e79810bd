import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// The `cmark-gfm` command (Debian's `cmark-gfm` package), or `nil` when it is not installed.
private let cmarkGFM: URL? = Tool.path("cmark-gfm").map { URL(fileURLWithPath: $0) }

/// No user text becomes a link when GitHub-flavoured Markdown's autolink extension is on.
@Suite struct MarkdownAutolinkTests {
    /// Text that GFM's autolink extension turns into links when left alone: `www.`, URLs with a
    /// scheme, email addresses (with `mailto:` and `xmpp:` too), in every place user text goes.
    static let trip = """
        {"title": "Trip to www.example.org and https://x.org", "traveler": "ana@example.org",
         "unknown.key@example.org": 1,
         "destinations": [
          {"name": "a@b.co", "location": {"lat": 38.7223, "lon": -9.1393},
           "arrival": "2026-12-01", "departure": "2026-12-05",
           "detours": [
            {"tasks": [
              {"name": "www.x.org", "duration": "1h", "cost": {"amount": 1, "currency": "EUR"},
               "location": {"lat": 38.7139, "lon": -9.1334},
               "pros": ["mailto:a@b.co", "x.org", "see http://x.org/a?b=c", "(www.x.org)"],
               "cons": ["xmpp:a@b.co/x", "ftp://x.org", "WWW.X.ORG", "a@b@c.co", "_a@b.co_", "@b.co"]},
              {"name": "a.b+c@d-e.co.uk", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
               "location": {"lat": 38.7118, "lon": -9.1300}}]}]}]}
        """

    /// The HTML cmark-gfm makes of `markdown`, with the table, autolink and strikethrough extensions on.
    static func gfm(_ markdown: String, unsafe: Bool) throws -> String {
        let tool = try #require(cmarkGFM, "cmark-gfm is not installed (apt-get install cmark-gfm)")
        let process = Process()
        process.executableURL = tool
        process.arguments = ["-e", "table", "-e", "autolink", "-e", "strikethrough"] + (unsafe ? ["--unsafe"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        .enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"),
        arguments: [false, true])
    func noUserTextBecomesALinkUnderGFMAutolink(unsafe: Bool) throws {
        let markdown = try RenderFixture.render(Array(Self.trip.utf8), as: .markdown)
        let html = try Self.gfm(markdown, unsafe: unsafe)
        #expect(!html.contains("<a "), "\(html)")
        // The text reads as it was written: nothing is added that a reader would see.
        let visible = html.replacingOccurrences(of: "<!-- raw HTML omitted -->", with: "")
            .replacingOccurrences(of: "<!-- -->", with: "")
        for text in [
            "Trip to www.example.org and https://x.org", "Traveler: ana@example.org", "a@b.co", "www.x.org",
            "mailto:a@b.co", "see http://x.org/a?b=c", "(www.x.org)", "xmpp:a@b.co/x", "ftp://x.org", "a@b@c.co",
            "_a@b.co_", "@b.co", "a.b+c@d-e.co.uk", "unknown.key@example.org",
        ] {
            #expect(visible.contains(text), "\(text) is not in \(visible)")
        }
    }

    @Test func anAtSignIsPrecededByAnEmptyCommentAndPlainTextIsReturnedAsItIs() {
        #expect(Escaping.markdown("ana@example.org") == "ana<!-- -->\\@example\\.org")
        #expect(Escaping.markdown("www.x.org") == "www\\.x\\.org")
        #expect(Escaping.markdown("Zürich Hauptbahnhof 12") == "Zürich Hauptbahnhof 12")
        #expect(Escaping.markdown("Köln – Bonn") == "Köln – Bonn")
        #expect(Escaping.markdown("a\u{2028}b") == "a b")
    }

    @Test(
        .enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func everySampleReportIsFreeOfLinks() throws {
        for name in Fixtures.sampleTrips() {
            let markdown = try RenderFixture.render(try Fixtures.sample(name), as: .markdown)
            #expect(!(try Self.gfm(markdown, unsafe: false)).contains("<a "), "\(name)")
        }
    }
}
