import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// Sharing a trip with another account, as viewer or editor, enforced on the server for the
/// pages, the formats, the feeds and the API.
@Suite struct SharingTests: SiteDriving {
    static var trip: String {
        (try? String(
            contentsOf: Fixtures.repository.appendingPathComponent("samples/nordic-budget.json"), encoding: .utf8))
            ?? ""
    }

    /// Their session ids and Ana's id, where Ana owns `nordic` and Bo and Cy have accounts.
    func people(_ site: AccountSite) async throws -> (ana: String, bo: String, cy: String, anaID: String) {
        let ana = try #require(try await site.register("ana@example.org"))
        let bo = try #require(try await site.register("bo@example.org"))
        let cy = try #require(try await site.register("cy@example.org"))
        let folder = try await site.tripsFolder("ana@example.org")
        try Self.trip.write(to: folder.appendingPathComponent("nordic.json"), atomically: true, encoding: .utf8)
        let anaID = try #require(try await site.store.account(email: "ana@example.org")).id
        return (ana, bo, cy, anaID)
    }

    /// A `PUT` of `trip` to the owner's shared `nordic`, signed in by `cookie` with its form
    /// token, replacing the version `read` answered.
    func putShared(_ site: AccountSite, owner: String, cookie: String, replacing read: TestResponse, with trip: String)
        async throws -> TestResponse
    {
        let token = try await site.formToken(cookie)
        return try await site.site.respond(
            to: request(
                .put, "/api/v1/shared/\(owner)/trips/nordic",
                headers: [
                    .cookie: "\(site.service.cookieName)=\(cookie)", CSRFRule.header: token,
                    .origin: "http://localhost", .contentType: "application/json",
                    .ifMatch: read.headers[.eTag] ?? "",
                ], body: Array(trip.utf8)))
    }

    /// `PUT /api/v1/trips/nordic/members/EMAIL` as the owner.
    func share(_ site: AccountSite, _ cookie: String, _ email: String, _ role: String) async throws -> TestResponse {
        let token = try await site.formToken(cookie)
        return try await site.site.respond(
            to: request(
                .put, "/api/v1/trips/nordic/members/\(email)",
                headers: [
                    .cookie: "\(site.service.cookieName)=\(cookie)", CSRFRule.header: token,
                    .origin: "http://localhost",
                    .contentType: "application/json",
                ], body: Array("{\"role\": \"\(role)\"}".utf8)))
    }

    @Test(arguments: AccountSite.Backing.all) func aViewerReadsEveryFormatAndWritesNothing(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo, _, anaID) = try await people(site)
            let shared = try await share(site, ana, "bo@example.org", "viewer")
            #expect(shared.status == .ok, "\(body(shared))")
            #expect(body(shared) == "{\"email\":\"bo@example.org\",\"role\":\"viewer\"}\n")
            let index = body(try await site.send(.get, "/trips", cookie: bo))
            #expect(
                index.contains(
                    "<a href=\"/shared/\(anaID)/trips/nordic\">nordic</a>, shared by ana@example.org (viewer)"))
            let preview = try await site.send(.get, "/shared/\(anaID)/trips/nordic", cookie: bo)
            #expect(preview.status == .ok)
            #expect(body(preview).contains("/shared/\(anaID)/trips/nordic/events"))
            #expect(body(preview).contains("href=\"/shared/\(anaID)/trips/nordic.md\""))
            #expect(!body(preview).contains("share-panel"))
            for ext in ["html", "md", "json", "ics", "geojson", "gpx"] {
                let format = try await site.send(.get, "/shared/\(anaID)/trips/nordic.\(ext)", cookie: bo)
                #expect(format.status == .ok, "\(ext)")
            }
            let read = try await site.send(.get, "/api/v1/shared/\(anaID)/trips/nordic", cookie: bo)
            #expect(read.status == .ok)
            let put = try await putShared(site, owner: anaID, cookie: bo, replacing: read, with: Self.trip)
            #expect(put.status == .forbidden)
            #expect(body(put).contains("\"share-read-only\""))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func anEditorSavesTheOwnersFileAndNobodyButTheOwnerDeletes(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let (ana, _, cy, anaID) = try await people(site)
            #expect(try await share(site, ana, "cy@example.org", "editor").status == .ok)
            let read = try await site.send(.get, "/api/v1/shared/\(anaID)/trips/nordic", cookie: cy)
            let edited = Self.trip.replacingOccurrences(of: "Stockholm and Oslo on a budget", with: "Edited by Cy")
            let put = try await putShared(site, owner: anaID, cookie: cy, replacing: read, with: edited)
            #expect(put.status == .ok, "\(body(put))")
            let file = try await site.tripsFolder("ana@example.org").appendingPathComponent("nordic.json")
            #expect(try String(contentsOf: file, encoding: .utf8).contains("Edited by Cy"))
            let token = try await site.formToken(cy)
            let delete = try await site.send(
                .delete, "/api/v1/shared/\(anaID)/trips/nordic", cookie: cy,
                headers: [CSRFRule.header: token, .ifMatch: "*"])
            #expect(delete.status == .forbidden)
            #expect(body(delete).contains("\"share-owner-only\""))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func theOwnerListsChangesAndEndsSharing(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo, cy, anaID) = try await people(site)
            #expect(try await share(site, ana, "bo@example.org", "viewer").status == .ok)
            #expect(try await share(site, ana, "cy@example.org", "viewer").status == .ok)
            #expect(try await share(site, ana, "cy@example.org", "editor").status == .ok)
            let members = try await site.send(.get, "/api/v1/trips/nordic/members", cookie: ana)
            #expect(
                body(members)
                    == "{\"members\":[{\"email\":\"bo@example.org\",\"role\":\"viewer\"},{\"email\":\"cy@example.org\",\"role\":\"editor\"}]}\n"
            )
            let token = try await site.formToken(ana)
            let ended = try await site.send(
                .delete, "/api/v1/trips/nordic/members/bo@example.org", cookie: ana, headers: [CSRFRule.header: token])
            #expect(ended.status == .noContent)
            #expect(try await site.send(.get, "/shared/\(anaID)/trips/nordic", cookie: bo).status == .notFound)
            #expect(try await site.send(.get, "/shared/\(anaID)/trips/nordic", cookie: cy).status == .ok)
            let again = try await site.send(
                .delete, "/api/v1/trips/nordic/members/bo@example.org", cookie: ana, headers: [CSRFRule.header: token])
            #expect(again.status == .notFound)
            let events = try await site.store.audit(email: "ana@example.org").map(\.event)
            #expect(
                events.filter { $0.hasPrefix("trip-") } == [
                    "trip-shared", "trip-shared", "trip-shared", "trip-unshared",
                ])
        }
    }

    @Test(arguments: AccountSite.Backing.all) func sharingIsRefusedForNoAccountTheOwnerAndABadRole(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo, _, _) = try await people(site)
            let unknown = try await share(site, ana, "zed@example.org", "viewer")
            #expect(unknown.status == .unprocessableContent)
            #expect(body(unknown).contains("\"unknown-account\""))
            #expect(body(try await share(site, ana, "ana@example.org", "viewer")).contains("\"own-trip\""))
            #expect(body(try await share(site, ana, "bo@example.org", "owner")).contains("\"bad-role\""))
            #expect(body(try await share(site, ana, "not-an-address", "viewer")).contains("\"invalid-email\""))
            // Only the trip's owner shares it: Bo has no trip of that name.
            #expect(try await share(site, bo, "ana@example.org", "viewer").status == .notFound)
        }
    }

    /// The owner's preview has the form; sharing and ending it through it lands back on the preview.
    @Test(arguments: AccountSite.Backing.all) func thePreviewsFormSharesAndStopsSharing(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo, _, anaID) = try await people(site)
            let preview = body(try await site.send(.get, "/trips/nordic", cookie: ana))
            #expect(preview.contains("Shared with: no one"))
            #expect(preview.contains("<form method=\"post\" action=\"/trips/nordic/members\""))
            let token = try await site.formToken(ana)
            let shared = try await site.send(
                .post, "/trips/nordic/members", cookie: ana,
                form: [("csrf", token), ("email", "bo@example.org"), ("role", "viewer")])
            #expect(shared.status == .seeOther)
            #expect(shared.headers[.location] == "/trips/nordic")
            #expect(body(try await site.send(.get, "/trips/nordic", cookie: ana)).contains("bo@example.org (viewer)"))
            #expect(try await site.send(.get, "/shared/\(anaID)/trips/nordic", cookie: bo).status == .ok)
            let removed = try await site.send(
                .post, "/trips/nordic/members", cookie: ana, form: [("csrf", token), ("remove", "bo@example.org")])
            #expect(removed.status == .seeOther)
            #expect(try await site.send(.get, "/shared/\(anaID)/trips/nordic", cookie: bo).status == .notFound)
        }
    }

    /// A share the preview's form asks for and the server refuses comes back as the preview, the
    /// address as typed and the reason next to it: a browser never gets the API's JSON.
    @Test(arguments: AccountSite.Backing.all) func aRefusedShareFormComesBackAsThePageWithTheReason(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let (ana, _, _, _) = try await people(site)
            let token = try await site.formToken(ana)
            for (email, role, reason) in [
                ("zed@example.org", "viewer", "no account has the address zed@example.org"),
                ("ana@example.org", "viewer", "the trip is yours already"),
                ("bo@example.org", "owner", "choose viewer or editor"),
            ] {
                let refused = try await site.send(
                    .post, "/trips/nordic/members", cookie: ana,
                    form: [("csrf", token), ("email", email), ("role", role)])
                #expect(refused.status == .unprocessableContent)
                #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
                let page = body(refused)
                #expect(page.contains("value=\"\(email)\" aria-invalid=\"true\""), "\(page)")
                #expect(page.contains("<span class=\"problem\" id=\"share-email-problem\">\(reason)</span>"))
                #expect(!page.contains("\"error\":"))
            }
        }
    }
}
