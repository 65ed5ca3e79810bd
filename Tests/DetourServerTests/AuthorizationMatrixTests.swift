import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DetourServer

/// Every route of a server with accounts, asked by everyone who could ask it.
///
/// Each answer is held to the status it must be. The routes come from the router itself: a route added without a row here fails
/// the test, so no route is left out of the table by accident.
@Suite struct AuthorizationMatrixTests: SiteDriving {
    /// Who asks: nobody; the trip's owner; another account; the accounts the trip is shared with,
    /// as viewer and as editor; the owner's read, write and feed tokens, and a revoked one; and a
    /// session of the owner's that has expired.
    enum Asker: String, CaseIterable {
        case nobody, owner, another, viewer, editor, readToken, writeToken, feedToken, revokedToken, expiredSession
    }

    /// What each asker gets from one route, in `Asker`'s order.
    struct Row {
        let method: HTTPRequest.Method
        let path: String
        let statuses: [Asker: Int]
    }

    /// The expected status of each route for each asker.
    ///
    /// The owner has the trip `nordic`, shared with the viewer and the editor; the other accounts
    /// have no trip of their own. `{owner}` is the owner's id. Writes carry `If-Match: "stale"`, so
    /// that none changes anything: where the trip is, its precondition refuses it (412), where it
    /// is missing it is 404. 0: a live-reload stream, which does not end, is not asked.
    static let rows: [Row] = {
        func row(_ method: HTTPRequest.Method, _ path: String, _ statuses: [Int]) -> Row {
            Row(
                method: method, path: path,
                statuses: Dictionary(uniqueKeysWithValues: zip(Asker.allCases, statuses)))
        }
        // swift-format-ignore
        return [
            //                                                  nobody owner another viewer editor read write feed revoked expired
            row(.get, "/", [303, 200, 200, 200, 200, 200, 200, 403, 401, 303]),
            row(.get, "/trips", [303, 200, 200, 200, 200, 200, 200, 403, 401, 303]),
            row(.post, "/trips", [303, 422, 422, 422, 422, 403, 422, 403, 401, 303]),
            row(.get, "/new-trip", [303, 200, 200, 200, 200, 200, 200, 403, 401, 303]),
            row(.get, "/trips/nordic/destinations/1", [303, 200, 404, 404, 404, 200, 200, 403, 401, 303]),
            row(.get, "/destinations/new", [303, 200, 200, 200, 200, 200, 200, 403, 401, 303]),
            row(.post, "/destinations", [303, 422, 422, 422, 422, 403, 422, 403, 401, 303]),
            row(.get, "/trips/nordic/destinations/1/delete", [303, 200, 404, 404, 404, 403, 200, 403, 401, 303]),
            row(.post, "/trips/nordic/destinations/1/delete", [303, 412, 404, 404, 404, 403, 412, 403, 401, 303]),
            row(.post, "/trips/nordic/destinations/1/detours", [303, 412, 404, 404, 404, 403, 412, 403, 401, 303]),
            row(.get, "/trips/nordic/destinations/1/detours/1", [303, 200, 404, 404, 404, 200, 200, 403, 401, 303]),
            row(.get, "/trips/nordic/destinations/1/detours/1/delete", [303, 200, 404, 404, 404, 403, 200, 403, 401, 303]),
            row(.post, "/trips/nordic/destinations/1/detours/1/delete", [303, 412, 404, 404, 404, 403, 412, 403, 401, 303]),
            row(.post, "/trips/nordic/destinations/1/detours/1/tasks", [303, 412, 404, 404, 404, 403, 412, 403, 401, 303]),
            row(.post, "/trips/nordic/destinations/1/detours/1/tasks/1", [303, 422, 404, 404, 404, 403, 422, 403, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic/destinations/1/delete", [303, 404, 404, 403, 200, 403, 404, 403, 401, 303]),
            row(.post, "/shared/{owner}/trips/nordic/destinations/1/delete", [303, 404, 404, 403, 412, 403, 404, 403, 401, 303]),
            row(.post, "/shared/{owner}/trips/nordic/destinations/1/detours", [303, 404, 404, 403, 412, 403, 404, 403, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic/destinations/1/detours/1", [303, 404, 404, 200, 200, 404, 404, 403, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic/destinations/1/detours/1/delete", [303, 404, 404, 403, 200, 403, 404, 403, 401, 303]),
            row(.post, "/shared/{owner}/trips/nordic/destinations/1/detours/1/delete", [303, 404, 404, 403, 412, 403, 404, 403, 401, 303]),
            row(.post, "/shared/{owner}/trips/nordic/destinations/1/detours/1/tasks", [303, 404, 404, 403, 412, 403, 404, 403, 401, 303]),
            row(.post, "/shared/{owner}/trips/nordic/destinations/1/detours/1/tasks/1", [303, 404, 404, 403, 422, 403, 404, 403, 401, 303]),
            row(.get, "/calendar.ics", [303, 200, 200, 200, 200, 200, 200, 200, 401, 303]),
            row(.get, "/trips/nordic", [303, 200, 404, 404, 404, 200, 200, 403, 401, 303]),
            row(.get, "/trips/nordic.ics", [303, 200, 404, 404, 404, 200, 200, 200, 401, 303]),
            row(.get, "/trips/nordic.html", [303, 200, 404, 404, 404, 200, 200, 403, 401, 303]),
            row(.get, "/trips/nordic/events", [303, 0, 0, 0, 0, 0, 0, 403, 401, 303]),
            row(.post, "/trips/nordic/members", [303, 422, 404, 404, 404, 403, 422, 403, 401, 303]),
            row(.get, "/docs/diagnostics/usage", [200, 200, 200, 200, 200, 200, 200, 403, 401, 200]),
            row(.get, "/assets/leaflet-1.7.1.js", [200, 200, 200, 200, 200, 200, 200, 403, 401, 200]),
            row(.get, "/assets/leaflet-1.7.1.css", [200, 200, 200, 200, 200, 200, 200, 403, 401, 200]),
            row(.get, "/assets/countries.geojson", [200, 200, 200, 200, 200, 200, 200, 403, 401, 200]),
            row(.get, "/assets/map.js", [200, 200, 200, 200, 200, 200, 200, 403, 401, 200]),
            row(.get, "/places", [303, 200, 200, 200, 200, 200, 200, 403, 401, 303]),
            row(.get, "/places/nearest", [303, 422, 422, 422, 422, 422, 422, 403, 401, 303]),
            row(.get, "/api/v1/trips", [401, 200, 200, 200, 200, 200, 200, 403, 401, 401]),
            row(.get, "/api/v1/trips/nordic", [401, 200, 404, 404, 404, 200, 200, 403, 401, 401]),
            row(.put, "/api/v1/trips/nordic", [401, 412, 412, 412, 412, 403, 412, 403, 401, 401]),
            row(.delete, "/api/v1/trips/nordic", [401, 412, 404, 404, 404, 403, 412, 403, 401, 401]),
            row(.get, "/api/v1/trips/nordic/members", [401, 200, 404, 404, 404, 200, 200, 403, 401, 401]),
            row(.put, "/api/v1/trips/nordic/members/zed@example.org", [401, 422, 404, 404, 404, 403, 422, 403, 401, 401]),
            row(.delete, "/api/v1/trips/nordic/members/zed@example.org", [401, 404, 404, 404, 404, 403, 404, 403, 401, 401]),
            row(.get, "/shared/{owner}/trips/nordic", [303, 404, 404, 200, 200, 404, 404, 403, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic.ics", [303, 404, 404, 200, 200, 404, 404, 404, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic/destinations/1", [303, 404, 404, 200, 200, 404, 404, 403, 401, 303]),
            row(.get, "/shared/{owner}/trips/nordic/events", [303, 404, 404, 0, 0, 404, 404, 403, 401, 303]),
            row(.get, "/api/v1/shared/{owner}/trips/nordic", [401, 404, 404, 200, 200, 404, 404, 403, 401, 401]),
            row(.put, "/api/v1/shared/{owner}/trips/nordic", [401, 404, 404, 403, 412, 403, 404, 403, 401, 401]),
            row(.delete, "/api/v1/shared/{owner}/trips/nordic", [401, 404, 404, 403, 403, 403, 404, 403, 401, 401]),
            row(.get, "/login", [200, 303, 303, 303, 303, 403, 403, 403, 401, 200]),
            row(.post, "/login", [401, 401, 401, 401, 401, 403, 403, 403, 401, 401]),
            row(.get, "/register", [200, 303, 303, 303, 303, 403, 403, 403, 401, 200]),
            row(.post, "/register", [422, 422, 422, 422, 422, 403, 403, 403, 401, 422]),
            row(.post, "/logout", [303, 303, 303, 303, 303, 403, 403, 403, 401, 303]),
            row(.get, "/account", [303, 200, 200, 200, 200, 403, 403, 403, 401, 303]),
            row(.post, "/account/password", [303, 422, 422, 422, 422, 403, 403, 403, 401, 303]),
            row(.post, "/account/sessions", [303, 303, 303, 303, 303, 403, 403, 403, 401, 303]),
            row(.post, "/account/invites", [303, 404, 404, 404, 404, 403, 403, 403, 401, 303]),
            row(.post, "/account/tokens", [303, 422, 422, 422, 422, 403, 403, 403, 401, 303]),
            row(.post, "/account/tokens/revoke", [303, 303, 303, 303, 303, 403, 403, 403, 401, 303]),
        ]
    }()

    @Test(arguments: AccountSite.Backing.all) func everyRouteAnswersEveryAskerAsTheTableSays(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in try await expectTheTable(site) }
    }

    func expectTheTable(_ site: AccountSite) async throws {
        let fixture = try await Fixture.make(site)
        var mismatches: [String] = []
        for row in Self.rows {
            for asker in Asker.allCases {
                guard let expected = row.statuses[asker], expected != 0 else { continue }
                let path = row.path.replacingOccurrences(of: "{owner}", with: fixture.ownerID)
                let response = try await fixture.ask(row.method, path, as: asker)
                if Int(response.status.code) != expected {
                    mismatches.append("\(row.method) \(row.path) as \(asker): \(response.status.code), not \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// A route the router has is in the table, or answers its owner 405: it takes no such method.
    @Test(arguments: AccountSite.Backing.all) func everyRouteOfTheRouterHasARow(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let fixture = try await Fixture.make(site)
            let table = Routes.table(
                workspace: site.site.workspace, settings: site.site.settings, boundHost: "127.0.0.1",
                accounts: site.service)
            #expect(table.undeclared().isEmpty, "routes without a policy: \(table.undeclared())")
            let router = table.router
            let known = Set(Self.rows.map { "\($0.method) \($0.path)" })
            var missing: [String] = []
            for route in router.routes {
                let path = route.path.description.replacingOccurrences(of: "{name}", with: "nordic")
                    .replacingOccurrences(of: "{code}", with: "usage").replacingOccurrences(
                        of: "{email}", with: "zed@example.org"
                    ).replacingOccurrences(of: "{number}", with: "1")
                    .replacingOccurrences(of: "{detour}", with: "1").replacingOccurrences(of: "{side}", with: "1")
                let key = "\(route.method == .head ? .get : route.method) \(path.isEmpty ? "/" : path)"
                if known.contains(key) { continue }
                // The shared routes' 405 is past the share: an editor reaches it.
                let asker: Asker = path.contains("{owner}") ? .editor : .owner
                let concrete = path.replacingOccurrences(of: "{owner}", with: fixture.ownerID)
                let response = try await fixture.ask(route.method, concrete.isEmpty ? "/" : concrete, as: asker)
                if response.status != .methodNotAllowed {
                    missing.append("\(route.method) \(path): \(response.status)")
                }
            }
            #expect(missing.isEmpty, "routes without a row: \(missing)")
            #expect(router.routes.count > Self.rows.count)
        }
    }

    /// A route added to the router past the route table declares no policy, and is found.
    @Test func aRouteWithoutAPolicyIsFound() throws {
        let site = try site(FakeTripStore())
        let table = Routes.table(
            workspace: site.workspace, settings: site.settings, boundHost: "127.0.0.1", accounts: nil)
        #expect(table.undeclared().isEmpty)
        table.router.get("stray") { _, _ in "open to anyone" }
        table.router.on("/trips/:name/stray", method: .post) { _, _ in "open to anyone" }
        #expect(table.undeclared() == ["GET /stray", "POST /trips/{name}/stray"])
    }

    /// The accounts, sessions and tokens the askers use.
    struct Fixture {
        let site: AccountSite
        let ownerID: String
        let accounts: [Asker: String]
        let tokens: [Asker: String]
        let expired: String

        static func make(_ site: AccountSite) async throws -> Fixture {
            let hash = try await site.service.hasher.hash("correct horse battery")
            let owner = try await site.store.addAccount(email: "ana@example.org", passwordHash: hash)
            var accounts: [Asker: String] = [.owner: owner.id]
            for (asker, email) in [
                (Asker.another, "bo@example.org"), (.viewer, "cy@example.org"), (.editor, "di@example.org"),
            ] {
                accounts[asker] = try await site.store.addAccount(email: email, passwordHash: hash).id
            }
            for (asker, role) in [(Asker.viewer, ShareRole.viewer), (.editor, .editor)] {
                try await site.store.share(
                    ownerID: owner.id, trip: "nordic", memberID: accounts[asker] ?? "", role: role)
            }
            let folder = try AccountsFolder.makeTrips(in: site.folder.url.path, accountID: owner.id)
            try FileManager.default.copyItem(
                at: Fixtures.repository.appendingPathComponent("samples/nordic-budget.json"),
                to: URL(fileURLWithPath: folder).appendingPathComponent("nordic.json"))
            var tokens: [Asker: String] = [:]
            for (asker, scope) in [(Asker.readToken, TokenScope.read), (.writeToken, .write), (.feedToken, .feed)] {
                tokens[asker] = try await site.store.makeToken(
                    accountID: owner.id, name: asker.rawValue, scope: scope, expiresAt: nil
                ).0.text
            }
            let (revoked, made) = try await site.store.makeToken(
                accountID: owner.id, name: "revoked", scope: .write, expiresAt: nil)
            _ = try await site.store.revokeToken(accountID: owner.id, id: made.id)
            tokens[.revokedToken] = revoked.text
            // A session begun long ago, expired by now.
            let (old, _) = try await site.store.beginSession(accountID: owner.id, client: nil)
            site.clock.advance(SessionLifetime.idle)
            return Fixture(site: site, ownerID: owner.id, accounts: accounts, tokens: tokens, expired: old.text)
        }

        /// `method path` as `asker` asks it: a session's write with its form token, from the
        /// server's origin; a write with a trip's body and a stale precondition.
        func ask(_ method: HTTPRequest.Method, _ path: String, as asker: Asker) async throws -> TestResponse {
            var headers: HTTPFields = [.origin: "http://localhost"]
            var target = path
            switch asker {
            case .nobody: break
            case .owner, .another, .viewer, .editor:
                let (session, record) = try await site.store.beginSession(accountID: accounts[asker] ?? "", client: nil)
                headers[.cookie] = "\(site.service.cookieName)=\(session.text)"
                headers[CSRFRule.header] = record.formToken
            case .expiredSession:
                headers[.cookie] = "\(site.service.cookieName)=\(expired)"
            case .feedToken where path.hasSuffix(".ics"):
                target += "?feed=\(tokens[asker] ?? "")"
            case .readToken, .writeToken, .feedToken, .revokedToken:
                headers[.authorization] = "Bearer \(tokens[asker] ?? "")"
            }
            var body: [UInt8] = []
            if method == .put || method == .delete {
                headers[.ifMatch] = "\"stale\""
            }
            if method == .put {
                headers[.contentType] = "application/json"
                body = Array(
                    try Data(contentsOf: Fixtures.repository.appendingPathComponent("samples/nordic-budget.json")))
            }
            if method == .post {
                headers[.contentType] = "application/x-www-form-urlencoded"
                body = Array("x=y".utf8)
            }
            return try await site.site.respond(
                to: DrivenSite.Request(method: method, path: target, headers: headers, body: body))
        }
    }
}
