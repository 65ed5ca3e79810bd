import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// No user text becomes a link when GitHub-flavoured Markdown's autolink extension is on, but for
/// email addresses, which GFM links whatever is escaped: those read as the address.
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

    @Test(
        .enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"),
        arguments: [false, true])
    func onlyEmailAddressesBecomeLinksAndEachReadsAsItsAddress(unsafe: Bool) throws {
        let markdown = try RenderFixture.render(Array(Self.trip.utf8), as: .markdown)
        #expect(!markdown.contains("<!--"), "\(markdown)")
        let html = try MarkdownCheck.gfm(markdown, unsafe: unsafe)
        let links = MarkdownCheck.links(in: html)
        #expect(links.allSatisfy { $0.isAllowed }, "\(links)")
        // The template's map links (the stay's coordinates, the located tasks' distances) aside.
        #expect(
            links.filter(\.isMapLink).map(\.text) == ["38.7223° N, 9.1393° W", "1.1 km straight", "1.4 km straight"])
        #expect(
            Set(links.filter(\.isAddress).map(\.text)) == [
                "ana@example.org", "a@b.co", "a.b+c@d-e.co.uk", "mailto:a@b.co", "xmpp:a@b.co/x", "b@c.co",
                "unknown.key@example.org",
            ])
        // No image, code or raw HTML: the only tags are the template's.
        let tags = Set(html.matches(of: /<\/?([a-z0-9]+)/).map { String($0.output.1) })
        #expect(
            tags.isSubset(of: [
                "h1", "h2", "h3", "h4", "p", "strong", "em", "table", "thead", "tbody", "tr", "th", "td", "br", "ul",
                "li", "hr", "a",
            ]),
            "\(tags)")
        // The text reads as it was written: with the links' tags taken away, nothing is added
        // that a reader would see.
        let visible = MarkdownCheck.unlinked(html)
        for text in [
            "Trip to www.example.org and https://x.org", "Traveler: ana@example.org", "a@b.co", "www.x.org",
            "mailto:a@b.co", "see http://x.org/a?b=c", "(www.x.org)", "xmpp:a@b.co/x", "ftp://x.org", "a@b@c.co",
            "_a@b.co_", "@b.co", "a.b+c@d-e.co.uk", "unknown.key@example.org",
        ] {
            #expect(visible.contains(text), "\(text) is not in \(visible)")
        }
    }

    @Test func aURLKeepsOneEscapeAndPlainTextIsReturnedAsItIs() {
        #expect(Escaping.markdown("ana@example.org", MarkdownContext()) == "ana@example.org")
        #expect(Escaping.markdown("www.x.org", MarkdownContext()) == "www\\.x.org")
        #expect(Escaping.markdown("https://x.org/a_b", MarkdownContext()) == "https\\://x.org/a_b")
        #expect(Escaping.markdown("Zürich Hauptbahnhof 12") == "Zürich Hauptbahnhof 12")
        #expect(Escaping.markdown("Köln – Bonn") == "Köln – Bonn")
        #expect(Escaping.markdown("a\u{2028}b") == "a b")
    }

    @Test(
        .enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func everySampleReportLinksNothingButEmailAddresses() throws {
        for name in Fixtures.sampleTrips() {
            let markdown = try RenderFixture.render(try Fixtures.sample(name), as: .markdown)
            let links = MarkdownCheck.links(in: try MarkdownCheck.gfm(markdown, unsafe: false))
            #expect(links.allSatisfy { $0.isAllowed }, "\(name): \(links)")
        }
    }
}
