import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// The app's screens on the server: the destination list at `/`, the index of trip files at
/// `/trips`, and each destination's page, for the folder's trips and those shared with an account.
@Suite struct AppPagesTests: SiteDriving {
    /// A trip with a stay that has ended and one under way on ``SiteDriving/today`` (24 Nov 2026).
    static let autumn = """
        {"title": "Autumn", "destinations": [
          {"name": "Seville", "location": {"lat": 37.39, "lon": -5.98}, "arrival": "2026-11-01", "departure": "2026-11-05"},
          {"name": "Granada", "location": {"lat": 37.18, "lon": -3.6}, "arrival": "2026-11-22", "departure": "2026-11-26"}
        ]}
        """

    func store() throws -> FakeTripStore {
        FakeTripStore([
            "nordic.json": try Fixtures.sample("nordic-budget.json"),
            "lisbon.json": try Fixtures.sample("lisbon-city-break.json"), "autumn.json": Array(Self.autumn.utf8),
            "broken.json": Array("{}".utf8),
        ])
    }

    /// The text of each section of a list page, in the page's order.
    static func sections(_ page: String) -> [String] {
        page.components(separatedBy: "<section class=\"").dropFirst().map {
            $0.components(separatedBy: "</section>")[0]
        }
    }

    /// The destination names a section lists, in order.
    static func names(_ section: String) -> [String] {
        section.components(separatedBy: "<li><a href=\"").dropFirst().map {
            String($0.split(separator: ">", maxSplits: 1)[1].prefix { $0 != "<" })
        }
    }

    /// `/` lists every destination of the folder's trips in the three sections and their order;
    /// a trip with errors is linked, not listed; the index of files is at `/trips`.
    @Test func theHomePageIsTheDestinationListAndTheIndexMovesToTrips() async throws {
        let site = try site(try store())
        let response = try await site.respond(to: request(.get, "/"))
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        let page = body(response)
        let sections = Self.sections(page)
        #expect(sections.count == 3)
        #expect(
            sections.map { $0.hasPrefix("future") || $0.hasPrefix("now") || $0.hasPrefix("past") } == [
                true, true, true,
            ])
        #expect(sections.map(Self.names) == [["Lisbon", "Stockholm", "Oslo"], ["Granada"], ["Seville"]])
        #expect(page.contains("<h2 id=\"section-future\">Coming up</h2>"))
        #expect(page.contains("<h2 id=\"section-now\">Under way</h2>"))
        #expect(page.contains("<h2 id=\"section-past\">Done</h2>"))
        #expect(page.contains("<a href=\"/trips/lisbon/destinations/1\">Lisbon</a>"))
        #expect(page.contains("<span class=\"dates\">Tue 1 Dec 2026 – Sat 5 Dec 2026</span>"))
        #expect(page.contains("<span class=\"trip\">Lisbon in December</span>"))
        #expect(page.contains("<a href=\"/trips/broken\">broken.json</a>"), "a trip with errors is linked")
        #expect(page.contains("<a href=\"/trips\">"), "the list links the index")
        let index = body(try await site.respond(to: request(.get, "/trips")))
        #expect(index.contains("href=\"trips/lisbon.html\""), "the index is at /trips, its links as before")
    }

    /// A destination's page: its name as the title, its days, its detours by their titles, each
    /// linked, and the trip's reports.
    @Test func aDestinationsPageShowsItsDaysDetoursAndReports() async throws {
        let site = try site(try store())
        let response = try await site.respond(to: request(.get, "/trips/nordic/destinations/2"))
        #expect(response.status == .ok)
        let page = body(response)
        #expect(page.contains("<title>Oslo</title>"))
        #expect(page.contains("<h1>Oslo</h1>"))
        #expect(page.contains("<p class=\"dates\">Fri 4 Dec 2026 – Mon 7 Dec 2026 · 3 nights</p>"))
        #expect(page.contains("Trip: <a href=\"/trips/nordic\">Stockholm and Oslo on a budget</a>"))
        #expect(page.contains("<li><a href=\"/trips/nordic/destinations/2/detours/1\">"))
        #expect(page.contains("<a href=\"/trips/nordic.html\">HTML</a>"))
        #expect(page.contains("<a href=\"/trips/nordic.ics\">iCalendar</a>"))
        let empty = body(try await site.respond(to: request(.get, "/trips/autumn/destinations/1")))
        #expect(empty.contains("<p class=\"empty\">No detours yet.</p>"))
    }

    /// A number that is no destination's is 404; a trip with errors leads to its preview, which
    /// shows them.
    @Test(arguments: ["0", "3", "-1", "x", "99999999999999999999"])
    func aNumberOutsideTheTripIsNotFound(number: String) async throws {
        let site = try site(try store())
        #expect(try await site.respond(to: request(.get, "/trips/nordic/destinations/\(number)")).status == .notFound)
    }

    @Test func aTripWithErrorsLeadsToItsPreview() async throws {
        let site = try site(try store())
        let response = try await site.respond(to: request(.get, "/trips/broken/destinations/1"))
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/trips/broken")
        #expect(try await site.respond(to: request(.get, "/trips/gone/destinations/1")).status == .notFound)
    }

    /// Ana's `nordic` shared with Bo as `role`, by Ana's session `ana`.
    func share(_ site: AccountSite, by ana: String, as role: String) async throws -> TestResponse {
        let token = try await site.formToken(ana)
        return try await site.site.respond(
            to: request(
                .put, "/api/v1/trips/nordic/members/bo@example.org",
                headers: [
                    .cookie: "\(site.service.cookieName)=\(ana)", CSRFRule.header: token,
                    .origin: "http://localhost", .contentType: "application/json",
                ], body: Array("{\"role\": \"\(role)\"}".utf8)))
    }

    /// A trip shared with an account is in its list, with who shared it, its pages under the share;
    /// an account's own trips are in no one else's list.
    @Test(arguments: AccountSite.Backing.all) func aSharedTripsDestinationsAreInTheList(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let ana = try #require(try await site.register("ana@example.org"))
            let bo = try #require(try await site.register("bo@example.org"))
            let cy = try #require(try await site.register("cy@example.org"))
            let anas = try await site.tripsFolder("ana@example.org")
            try Data(Fixtures.sample("nordic-budget.json")).write(to: anas.appendingPathComponent("nordic.json"))
            try Data(Self.autumn.utf8).write(
                to: try await site.tripsFolder("bo@example.org").appendingPathComponent("autumn.json"))
            let anaID = try #require(try await site.store.account(email: "ana@example.org")).id
            #expect(try await share(site, by: ana, as: "viewer").status == .ok)
            let list = body(try await site.send(.get, "/", cookie: bo))
            #expect(list.contains("Signed in as <strong>bo@example.org</strong>"))
            #expect(Self.sections(list).map(Self.names) == [["Stockholm", "Oslo"], ["Granada"], ["Seville"]])
            #expect(
                list.contains(
                    "<a href=\"/shared/\(anaID)/trips/nordic/destinations/1\">Stockholm</a> <span class=\"dates\">Tue 1 Dec 2026 – Fri 4 Dec 2026</span> <span class=\"trip\">Stockholm and Oslo on a budget, shared by ana@example.org</span>"
                ))
            #expect(list.contains("<span class=\"trip\">Autumn</span>"), "Bo's own trip says no one shared it")
            let page = try await site.send(.get, "/shared/\(anaID)/trips/nordic/destinations/1", cookie: bo)
            #expect(page.status == .ok)
            #expect(body(page).contains("Trip: <a href=\"/shared/\(anaID)/trips/nordic\">"))
            #expect(body(page).contains("<a href=\"/shared/\(anaID)/trips/nordic.html\">HTML</a>"))
            // A viewer sees no control; an editor sees them all but deleting the trip.
            let detour = "/shared/\(anaID)/trips/nordic/destinations/1/detours/1"
            let viewed = body(try await site.send(.get, detour, cookie: bo))
            #expect(viewed.contains("<h1>"), "\(viewed)")
            #expect(!viewed.contains("<form method=\"post\" action=\"/shared/"), "a viewer sees no form")
            #expect(!body(page).contains("Add detour") && !body(page).contains("Delete this destination"))
            #expect(try await share(site, by: ana, as: "editor").status == .ok)
            let edited = body(try await site.send(.get, detour, cookie: bo))
            #expect(edited.contains("<form method=\"post\" action=\"\(detour)/tasks/1\">"))
            #expect(
                body(try await site.send(.get, "/shared/\(anaID)/trips/nordic/destinations/1", cookie: bo)).contains(
                    "Add detour"))
            let others = Self.sections(body(try await site.send(.get, "/", cookie: cy))).map(Self.names)
            #expect(others == [[], [], []], "nothing of Ana's or Bo's is in Cy's list")
            // A shared trip with errors is linked, not listed; one that has gone is neither.
            try Data("{}".utf8).write(to: anas.appendingPathComponent("nordic.json"))
            let broken = body(try await site.send(.get, "/", cookie: bo))
            #expect(Self.sections(broken).map(Self.names) == [[], ["Granada"], ["Seville"]])
            #expect(broken.contains("<a href=\"/shared/\(anaID)/trips/nordic\">nordic, shared by ana@example.org</a>"))
            try FileManager.default.removeItem(at: anas.appendingPathComponent("nordic.json"))
            let after = body(try await site.send(.get, "/", cookie: bo))
            #expect(Self.sections(after).map(Self.names) == [[], ["Granada"], ["Seville"]])
        }
    }
}
