import DetourCore
import DetourIO
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// Each stay and each task with a location links to the place on OpenStreetMap, in the HTML and
/// in the Markdown; the links are the only ones, their text is what the report showed before
/// (the coordinates, the distance), and nothing is loaded.
@Suite struct MapLinkTests {
    static let prefix = "https://www.openstreetmap.org/?mlat="

    @Test(arguments: [
        (38.7223, -9.1393, "mlat=38.7223&mlon=-9.1393#map=16/38.7223/-9.1393"),
        (0, 0, "mlat=0&mlon=0#map=16/0/0"),
        (-16.500004, 179.999996, "mlat=-16.5&mlon=180#map=16/-16.5/180"),
        (59.123456, 10.98765, "mlat=59.12346&mlon=10.98765#map=16/59.12346/10.98765"),
    ])
    func aLinkMarksThePointAtStreetZoomToFiveDecimals(_ lat: Double, _ lon: Double, _ query: String) throws {
        let point = try #require(Coordinate(latitude: lat, longitude: lon))
        #expect(Formatting.mapLink(point) == "https://www.openstreetmap.org/?" + query)
    }

    /// Every located stay and task of a sample, with the link it should have and the text it
    /// should show.
    static func expected(_ sample: String) throws -> [(link: String, text: String)] {
        let (plan, _) = try RenderFixture.plan(try Fixtures.sample(sample))
        let model = ReportModel(plan: plan, warnings: [])
        var links: [(String, String)] = []
        for destination in model.sections.flatMap(\.destinations) {
            links.append(
                (Formatting.mapLink(try #require(destinationLocation(destination, plan))), destination.coordinate))
            for side in destination.detours.flatMap(\.sides) {
                if let location = side.location { links.append((Formatting.mapLink(location), side.distance)) }
            }
        }
        return links
    }

    static func destinationLocation(_ destination: DestinationModel, _ plan: Plan) -> Coordinate? {
        plan.sections.flatMap(\.destinations).first { $0.destination.name == destination.name }?.destination.location
    }

    /// `<a …href="…">text</a>` pairs of an HTML text, entities in the href decoded.
    static func anchors(_ html: String) -> [(href: String, text: String)] {
        html.components(separatedBy: "<a ").dropFirst().compactMap { part in
            guard let start = part.range(of: "href=\"")?.upperBound,
                let end = part[start...].firstIndex(of: "\""),
                let open = part[end...].firstIndex(of: ">"),
                let close = part.range(of: "</a>")
            else { return nil }
            let href = part[start..<end].replacingOccurrences(of: "&amp;", with: "&")
            return (href, String(part[part.index(after: open)..<close.lowerBound]))
        }
    }

    @Test(arguments: Fixtures.sampleTrips())
    func theHTMLLinksEveryStayAndLocatedTaskAndNothingElse(_ sample: String) throws {
        let html = try RenderFixture.render(try Fixtures.sample(sample), as: .html)
        let expected = try Self.expected(sample)
        let anchors = Self.anchors(html)
        #expect(anchors.map(\.href) == expected.map(\.link))
        #expect(anchors.map(\.text) == expected.map { Escaping.html($0.text) })
        #expect(html.components(separatedBy: "href=").count - 1 == expected.count)
        // Links are followed, never fetched: the page's policy loads nothing from anywhere.
        #expect(html.contains(#"content="default-src 'none'; style-src 'unsafe-inline'; img-src data:""#))
    }

    @Test(
        .enabled(if: CI.runs(whenAvailable: Tool.usable("cmark-gfm")), "needs cmark-gfm on PATH (Debian: cmark-gfm)"),
        arguments: Fixtures.sampleTrips())
    func theMarkdownHasTheSameLinksUnderGFM(_ sample: String) throws {
        let markdown = try RenderFixture.render(try Fixtures.sample(sample), as: .markdown)
        let html = try MarkdownCheck.gfm(markdown, unsafe: false)
        let anchors = Self.anchors(html).filter { $0.href.hasPrefix(Self.prefix) }
        let expected = try Self.expected(sample)
        #expect(anchors.map(\.href) == expected.map(\.link))
        #expect(anchors.map(\.text) == expected.map { Escaping.html($0.text) })
        #expect(MarkdownCheck.links(in: html).allSatisfy { $0.isAllowed })
        #expect(MarkdownCheck.links(in: html).filter(\.isMapLink).count == expected.count)
    }

    @Test func aTaskWithoutALocationHasNoLinkAndOnPaperLinksReadAsText() throws {
        let html = try RenderFixture.render(try Fixtures.sample("andes-drafts.json"), as: .html)
        let (plan, _) = try RenderFixture.plan(try Fixtures.sample("andes-drafts.json"))
        let unlocated = plan.sections.flatMap(\.destinations).flatMap(\.detours).flatMap(\.tasks)
            .filter { $0.task.location == nil }
        #expect(!unlocated.isEmpty)
        let printRules = try #require(html.components(separatedBy: "@media print").last)
        #expect(printRules.contains("a.map-link { text-decoration: none; }"))
    }
}
