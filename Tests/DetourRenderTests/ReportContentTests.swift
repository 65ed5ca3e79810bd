import DetourIO
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// What each report must say, checked on a small trip built for the purpose.
@Suite struct ReportContentTests {
    static let trip = """
        {"title": "A <b>bold</b> & \\"quoted\\" trip", "traveler": "ana@example.org",
         "destinations": [
          {"name": "Lisbon | Baixa", "location": {"lat": 38.7223, "lon": -9.1393},
           "arrival": "2026-12-01", "departure": "2026-12-05",
           "detours": [
            {"tasks": [
              {"name": "Ride Tram 28", "duration": "PT1H30M", "cost": {"amount": 3.10, "currency": "EUR"},
               "location": {"lat": 38.7139, "lon": -9.1334}, "pros": ["Iconic"], "cons": ["Crowded", "Pickpockets"]},
              {"name": "Walk the Alfama", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
               "location": {"lat": 38.7118, "lon": -9.1300}, "pros": ["Free"], "cons": ["Steep"]}]},
            {"tasks": [{"name": "<script>alert(1)</script>", "duration": "1h", "cost": {"amount": 5, "currency": "USD"}}]}
           ]},
          {"name": "Porto", "location": {"lat": 41.1579, "lon": -8.6291},
           "arrival": "2026-11-01", "departure": "2026-11-04"}
         ]}
        """

    func render(_ format: ReportFormat) throws -> String {
        try RenderFixture.render(Array(Self.trip.utf8), as: format)
    }

    @Test func jsonFollowsTheContract() throws {
        let data = Data(try render(.json).utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["format"] as? String == "detour-report/1")
        #expect(root["today"] as? String == "2026-11-22")
        #expect(root["traveler"] as? String == "ana@example.org")
        let sections = try #require(root["sections"] as? [[String: Any]])
        #expect(sections.map { $0["name"] as? String } == ["future", "now", "past"])
        let future = try #require(sections[0]["destinations"] as? [[String: Any]])
        let detours = try #require(future.first?["detours"] as? [[String: Any]])
        let better = try #require(detours[0]["better"] as? [String: Any])
        #expect(better["duration"] as? Int == 0)
        #expect(better["cost"] as? Int == 1)
        #expect(better["distance"] as? Int == 0)
        let tasks = try #require(detours[0]["tasks"] as? [[String: Any]])
        #expect(tasks[0]["duration_minutes"] as? Int == 90)
        #expect((tasks[0]["cost"] as? [String: Any])?["currency"] as? String == "EUR")
        // Millimetres, as GeographicLib gives it: 1064.339 m.
        #expect((tasks[0]["distance_m"] as? NSNumber)?.doubleValue == 1064.339)
        // Travel: no path and the trip walks, so 1064 m × 1.3 there and back at 5 km/h is 34 minutes.
        #expect(tasks[0]["route_m"] is NSNull)
        #expect(tasks[0]["travel_mode"] as? String == "walk")
        #expect(tasks[0]["travel_minutes"] as? Int == 34)
        #expect(tasks[0]["total_minutes"] as? Int == 124)
        #expect(better["total_time"] as? Int == 0)
        #expect(detours[0]["recommended"] as? Int == 0)
        // 165 − 124 minutes.
        #expect(detours[0]["recommended_because"] as? String == "41 min less in all, travel included")
        #expect(detours[1]["recommended"] is NSNull)
        let travel = try #require(root["travel"] as? [String: Any])
        #expect(travel["default_mode"] as? String == "walk")
        #expect(travel["detour_factor"] as? Double == 1.3)
        let draftBetter = try #require(detours[1]["better"] as? [String: Any])
        #expect(draftBetter["cost"] is NSNull)
        let warnings = try #require(root["warnings"] as? [[String: Any]])
        #expect(warnings.compactMap { $0["path"] as? String }.contains("destinations[0].detours[1]"))
        let past = try #require(sections[2]["destinations"] as? [[String: Any]])
        #expect(past.first?["name"] as? String == "Porto")
    }

    @Test func jsonAmountsAreWrittenExactly() throws {
        #expect(try render(.json).contains("\"amount\": 3.10,"))
    }

    @Test func htmlEscapesUserTextAndIsSelfContained() throws {
        let html = try render(.html)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("A &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; trip"))
        #expect(html.contains("Content-Security-Policy"))
        // The only URLs are the SVG namespace name, which is never fetched, and the links to
        // OpenStreetMap, which are only followed (MapLinkTests).
        let urls = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
            .replacingOccurrences(of: "href=\"https://www.openstreetmap.org/?mlat=", with: "")
        #expect(!urls.contains("://"))
        #expect(!html.contains("<link"))
        #expect(html.contains("<svg"))
        #expect(html.contains("break-inside: avoid"))
    }

    @Test func htmlMarksTheBetterSidePerFigureAndShowsUndecidedSides() throws {
        let html = try render(.html)
        #expect(html.contains(#"<dt>Duration</dt><dd class="better">1 h 30 min</dd>"#))
        #expect(html.contains(#"<dt>Cost</dt><dd class="better">0.00 EUR</dd>"#))
        #expect(html.contains("Undecided"))
        #expect(html.contains("Plan as of <time datetime=\"2026-11-22\">Sun 22 Nov 2026</time>"))
    }

    @Test func markdownTablesHaveTheHeadersColumnCountOnEveryRow() throws {
        let markdown = try render(.markdown)
        // Tables are runs of lines starting with a pipe; every row has its header's columns.
        var tables: [[Substring]] = []
        var previousWasRow = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let isRow = line.hasPrefix("|")
            if isRow, previousWasRow { tables[tables.count - 1].append(line) } else if isRow { tables.append([line]) }
            previousWasRow = isRow
        }
        for table in tables {
            let columns = MarkdownCheck.unescapedPipes(String(table[0]))
            for row in table { #expect(MarkdownCheck.unescapedPipes(String(row)) == columns, "\(row)") }
        }
        // The overview (header, rule, one row per stay), then two detours: the first of nine
        // rows; the second, with no pro or con on either side, without those two rows.
        #expect(tables.map(\.count) == [2 + 2, 9, 7])
        #expect(tables[2].allSatisfy { !$0.hasPrefix("| Pros |") && !$0.hasPrefix("| Cons |") })
        #expect(tables.map { MarkdownCheck.unescapedPipes(String($0[0])) } == [7, 4, 4])
        #expect(markdown.contains("Lisbon \\| Baixa"))
        // A `<` that would open a tag is escaped, and only that: `&`, `"` and `>` are text here.
        #expect(markdown.hasPrefix("# A \\<b>bold\\</b> & \"quoted\" trip\n"))
        #expect(markdown.contains("\\<script>alert(1)\\</script>"))
        let unescaped = markdown.replacingOccurrences(of: "\\<", with: "")
        #expect(!unescaped.contains("<script") && !unescaped.contains("</script") && !unescaped.contains("<b>"))
    }

}

/// The overview lists stays by date, whatever order the file has them in.
@Suite struct OverviewOrderTests {
    @Test func staysAreListedByArrivalThenName() throws {
        let (plan, warnings) = try RenderFixture.plan(try Fixtures.sample("scandinavia-rail.json"))
        let names = ReportModel(plan: plan, warnings: warnings).overview.stays.map(\.name)
        // The file lists Bergen (27 Nov) first.
        #expect(names == ["Copenhagen", "Malmö", "Göteborg", "Oslo", "Bergen"])
        let markdown = try RenderFixture.render(try Fixtures.sample("scandinavia-rail.json"), as: .markdown)
        let rows = markdown.split(separator: "\n").filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| Stay") && !$0.hasPrefix("| ---")
        }
        #expect(
            rows.prefix(5).map { $0.dropFirst(2).prefix { $0 != " " } } == [
                "Copenhagen", "Malmö", "Göteborg", "Oslo", "Bergen",
            ])
    }

    @Test func aTieOnArrivalIsBrokenByName() throws {
        let trip = """
            {"title": "T", "destinations": [
             {"name": "Zagreb", "location": {"lat": 45.8, "lon": 16.0}, "arrival": "2026-05-01", "departure": "2026-05-02"},
             {"name": "Ljubljana", "location": {"lat": 46.05, "lon": 14.5}, "arrival": "2026-05-01", "departure": "2026-05-03"},
             {"name": "Graz", "location": {"lat": 47.07, "lon": 15.44}, "arrival": "2026-04-28", "departure": "2026-05-01"}]}
            """
        let (plan, warnings) = try RenderFixture.plan(Array(trip.utf8))
        #expect(
            ReportModel(plan: plan, warnings: warnings).overview.stays.map(\.name) == ["Graz", "Ljubljana", "Zagreb"])
    }
}
