import DetourIO
import DetourRender
import Foundation
import Testing

/// The JSON report's rarer members: sides the days cannot hold, a budget no rate can judge, and
/// a warning about no one field.
@Suite struct JSONReportEdgeTests {
    func report(_ text: String, format: TripFormat = .json) throws -> [String: Any] {
        let json = try RenderFixture.render(Array(text.utf8), format: format, as: .json)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func firstStay(_ report: [String: Any]) throws -> [String: Any] {
        let sections = try #require(report["sections"] as? [[String: Any]])
        let stays = sections.flatMap { ($0["destinations"] as? [[String: Any]]) ?? [] }
        return try #require(stays.first)
    }

    /// A side longer than the stay's days is listed by its detour and task, not dropped.
    @Test func sidesTheDaysCannotHoldAreListedByDetourAndTask() throws {
        let trip = """
            {"title": "T", "destinations": [{"name": "S", "location": {"lat": 0, "lon": 0},
              "arrival": "2026-12-01", "departure": "2026-12-02", "day_hours": 2, "detours": [
              {"tasks": [{"name": "Long", "duration": "3h", "cost": {"amount": 0, "currency": "EUR"},
                          "location": {"lat": 0, "lon": 0.001}},
                         {"name": "Longer", "duration": "4h", "cost": {"amount": 0, "currency": "EUR"},
                          "location": {"lat": 0, "lon": 0.001}}]}]}]}
            """
        let stay = try firstStay(try report(trip))
        let unscheduled = try #require(stay["unscheduled"] as? [[String: Any]])
        #expect(unscheduled.count == 1)
        #expect(unscheduled.first?["detour"] as? Int == 0)
        #expect(unscheduled.first?["task"] as? Int == 0)
    }

    /// A budget no declared rate can judge says so: spent `null`, not within, not optimal.
    @Test func aBudgetNoRateJudgesHasNoSpending() throws {
        let trip = """
            {"title": "T", "budget": {"amount": 100, "currency": "USD"}, "destinations": [
             {"name": "S", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01", "departure": "2026-12-05",
              "detours": [{"tasks": [
               {"name": "A", "duration": "1h", "cost": {"amount": 25.70, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}},
               {"name": "B", "duration": "2h", "cost": {"amount": 30, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}}]}]}]}
            """
        let budget = try #require(try report(trip)["budget"] as? [String: Any])
        #expect(budget["spent"] is NSNull)
        #expect(budget["within"] as? Bool == false)
        #expect(budget["optimal"] as? Bool == false)
    }

    /// A warning about the file as a whole (plain waypoints in a GPX trip) has an empty path.
    @Test func aWarningAboutNoFieldHasAnEmptyPath() throws {
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1">
            <metadata><name>T</name></metadata>
            <wpt lat="0" lon="0"><name>S</name><extensions><dr:stay id="s" arrival="2026-12-01" departure="2026-12-02"/></extensions></wpt>
            <wpt lat="1" lon="1"><name>Cafe</name></wpt>
            </gpx>
            """
        let warnings = try #require(try report(gpx, format: .gpx)["warnings"] as? [[String: Any]])
        let plain = try #require(warnings.first { $0["code"] as? String == "gpx-plain-waypoints" })
        #expect(plain["path"] as? String == "")
        #expect(plain["line"] as? Int == 5)
        // The HTML report lists it too, with no field before its message.
        let html = try RenderFixture.render(Array(gpx.utf8), format: .gpx, as: .html)
        #expect(html.contains("1 waypoint has neither dr:stay nor dr:task and was read past; it is on line 5"))
    }
}
