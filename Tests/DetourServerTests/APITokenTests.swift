import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// API and feed tokens on a server with accounts: made on the account's page, shown once, each
/// held to its scope, revocable, expiring.
@Suite struct APITokenTests: SiteDriving {
    /// Makes a token on the account page of the session `cookie`; returns its secret.
    func makeToken(
        _ site: AccountSite, cookie: String, scope: String, days: String = "", name: String = "script"
    ) async throws -> String? {
        let token = try await site.formToken(cookie)
        let page = body(
            try await site.send(
                .post, "/account/tokens", cookie: cookie,
                form: [("csrf", token), ("name", name), ("scope", scope), ("days", days)]))
        // The one whole token on the page: `dtr_` and 43 characters of base64url.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var rest = page[...]
        while let start = rest.range(of: "dtr_") {
            let candidate = rest[start.upperBound...].prefix(44)
            if candidate.prefix(43).count == 43, candidate.prefix(43).allSatisfy(alphabet.contains),
                candidate.dropFirst(43).first.map({ !alphabet.contains($0) }) ?? true
            {
                return "dtr_" + candidate.prefix(43)
            }
            rest = rest[start.upperBound...]
        }
        return nil
    }

    /// The answer to `method path` with `token` as a bearer token.
    func bearer(
        _ site: AccountSite, _ method: HTTPRequest.Method, _ path: String, token: String, body: String = "",
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        fields[.authorization] = "Bearer \(token)"
        return try await site.site.respond(
            to: request(method, path, headers: fields, body: Array(body.utf8)))
    }

    /// Ana, with the trip `nordic` in her folder, and Bo: their sessions.
    func anaWithATripAndBo(_ site: AccountSite) async throws -> (ana: String, bo: String) {
        let ana = try #require(try await site.register("ana@example.org"))
        let bo = try #require(try await site.register("bo@example.org"))
        let anas = try await site.tripsFolder("ana@example.org")
        try Self.trip.write(to: anas.appendingPathComponent("nordic.json"), atomically: true, encoding: .utf8)
        return (ana, bo)
    }

    static var trip: String {
        (try? String(
            contentsOf: Fixtures.repository.appendingPathComponent("samples/nordic-budget.json"), encoding: .utf8))
            ?? ""
    }

    @Test(arguments: AccountSite.Backing.all) func aReadTokenReadsAndWritesNothing(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try #require(try await makeToken(site, cookie: cookie, scope: "read"))
            #expect(try await bearer(site, .get, "/api/v1/trips", token: token).status == .ok)
            #expect(try await bearer(site, .get, "/", token: token).status == .ok)
            let put = try await bearer(
                site, .put, "/api/v1/trips/nordic", token: token, body: Self.trip,
                headers: [.contentType: "application/json", .ifNoneMatch: "*"])
            #expect(put.status == .forbidden)
            #expect(body(put).contains("\"token-scope\""))
            #expect(try await bearer(site, .get, "/account", token: token).status == .forbidden)
            let listed = body(try await site.send(.get, "/account", cookie: cookie))
            #expect(listed.contains("<td>script</td><td>read</td>"))
            #expect(!listed.contains(token))
        }
    }

    /// A write token saves through the API without a form token: no browser sends it by itself.
    @Test(arguments: AccountSite.Backing.all) func aWriteTokenSavesWithoutAFormToken(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try #require(try await makeToken(site, cookie: cookie, scope: "write"))
            let put = try await bearer(
                site, .put, "/api/v1/trips/nordic", token: token, body: Self.trip,
                headers: [.contentType: "application/json", .ifNoneMatch: "*"])
            #expect(put.status == .created, "\(body(put))")
            let folder = try await site.tripsFolder("ana@example.org")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nordic.json").path))
            #expect(try await bearer(site, .post, "/logout", token: token).status == .forbidden)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aFeedTokenOpensTheCalendarsAndNothingElse(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try #require(try await makeToken(site, cookie: cookie, scope: "feed"))
            let folder = try await site.tripsFolder("ana@example.org")
            try Self.trip.write(to: folder.appendingPathComponent("nordic.json"), atomically: true, encoding: .utf8)
            let calendar = try await site.send(.get, "/calendar.ics?feed=\(token)")
            #expect(calendar.status == .ok)
            #expect(body(calendar).hasPrefix("BEGIN:VCALENDAR"))
            #expect(try await site.send(.get, "/trips/nordic.ics?feed=\(token)").status == .ok)
            #expect(try await site.send(.get, "/trips/nordic.html?feed=\(token)").status == .forbidden)
            #expect(try await site.send(.get, "/?feed=\(token)").status == .forbidden)
            #expect(try await bearer(site, .get, "/api/v1/trips", token: token).status == .forbidden)
            #expect(try await site.send(.get, "/calendar.ics").status == .seeOther)
        }
    }

    /// An address lands in logs and histories: only a feed token may stand in one, never a token
    /// that reads the API or writes.
    @Test(arguments: AccountSite.Backing.all) func onlyAFeedTokenIsTakenFromAnAddress(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            for scope in ["read", "write"] {
                let token = try #require(try await makeToken(site, cookie: cookie, scope: scope, name: scope))
                let refused = try await site.send(.get, "/calendar.ics?feed=\(token)")
                #expect(refused.status == .forbidden, "\(scope)")
                #expect(body(refused).contains("only a feed token may stand in an address"), "\(scope)")
                #expect(try await bearer(site, .get, "/calendar.ics", token: token).status == .ok, "\(scope)")
            }
        }
    }

    /// Whoever took an account over may have made a token: a new password, set on the account's
    /// page, ends every one of them with the other sessions.
    @Test(arguments: AccountSite.Backing.all) func aNewPasswordEndsEveryToken(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            var tokens: [String] = []
            for scope in ["read", "write", "feed"] {
                tokens.append(try #require(try await makeToken(site, cookie: cookie, scope: scope, name: scope)))
            }
            #expect(try await bearer(site, .get, "/calendar.ics", token: tokens[0]).status == .ok)
            let form = try await site.formToken(cookie)
            let changed = try await site.send(
                .post, "/account/password", cookie: cookie,
                form: [
                    ("csrf", form), ("current", "correct horse battery"), ("password", "new long one"),
                    ("confirm", "new long one"),
                ])
            #expect(body(changed).contains("0 other sessions and 3 tokens ended."))
            for token in tokens {
                #expect(try await bearer(site, .get, "/calendar.ics", token: token).status == .unauthorized)
            }
            #expect(try await site.send(.get, "/calendar.ics?feed=\(tokens[2])").status == .unauthorized)
            let account = try #require(try await site.store.account(email: "ana@example.org"))
            #expect(try await site.store.tokens(accountID: account.id).isEmpty)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aRevokedTokenAndAnExpiredOneAreRefused(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let revoked = try #require(try await makeToken(site, cookie: cookie, scope: "read", name: "old"))
            let expiring = try #require(try await makeToken(site, cookie: cookie, scope: "read", days: "1"))
            let account = try #require(try await site.store.account(email: "ana@example.org"))
            let old = try #require(try await site.store.tokens(accountID: account.id).first { $0.name == "old" })
            let form = try await site.formToken(cookie)
            let revoke = try await site.send(
                .post, "/account/tokens/revoke", cookie: cookie, form: [("csrf", form), ("id", old.id)])
            #expect(revoke.status == .seeOther)
            let refused = try await bearer(site, .get, "/api/v1/trips", token: revoked)
            #expect(refused.status == .unauthorized)
            #expect(body(refused).contains("\"token-invalid\""))
            site.clock.advance(86400 - 1)
            #expect(try await bearer(site, .get, "/api/v1/trips", token: expiring).status == .ok)
            site.clock.advance(1)
            #expect(try await bearer(site, .get, "/api/v1/trips", token: expiring).status == .unauthorized)
            #expect(try await bearer(site, .get, "/api/v1/trips", token: "not-a-token").status == .unauthorized)
            let basic = try await site.site.respond(
                to: request(.get, "/api/v1/trips", headers: [.authorization: "Basic YTpi"]))
            #expect(basic.status == .unauthorized)
            let events = try await site.store.audit(email: "ana@example.org").map(\.event)
            #expect(events.filter { $0.hasPrefix("token-") } == ["token-made", "token-made", "token-revoked"])
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aTokensLastUseIsRecordedAndItsFormIsChecked(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try #require(try await makeToken(site, cookie: cookie, scope: "read"))
            _ = try await bearer(site, .get, "/api/v1/trips", token: token)
            let account = try #require(try await site.store.account(email: "ana@example.org"))
            #expect(try await site.store.tokens(accountID: account.id).first?.usedAt == site.clock.now())
            #expect(try await makeToken(site, cookie: cookie, scope: "read", name: "") == nil)
            #expect(try await makeToken(site, cookie: cookie, scope: "read", days: "0") == nil)
            #expect(try await makeToken(site, cookie: cookie, scope: "read", days: "3651") == nil)
            #expect(try await makeToken(site, cookie: cookie, scope: "read", days: "3650") != nil)
            #expect(try await makeToken(site, cookie: cookie, scope: "admin") == nil)
            let long = String(repeating: "n", count: APIToken.longestName)
            #expect(try await makeToken(site, cookie: cookie, scope: "read", name: long) != nil)
            #expect(try await makeToken(site, cookie: cookie, scope: "read", name: long + "n") == nil)
        }
    }

    /// One account's token reaches that account's trips only.
    @Test(arguments: AccountSite.Backing.all) func aTokenReachesItsOwnAccountsTripsOnly(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo) = try await anaWithATripAndBo(site)
            let bos = try #require(try await makeToken(site, cookie: bo, scope: "write"))
            #expect(try await bearer(site, .get, "/api/v1/trips/nordic", token: bos).status == .notFound)
            let delete = try await bearer(site, .delete, "/api/v1/trips/nordic", token: bos, headers: [.ifMatch: "*"])
            #expect(delete.status == .notFound)
            #expect(try await site.send(.get, "/trips/nordic", cookie: ana).status == .ok)
        }
    }

    /// A feed token in the address counts before the session cookie, whether or not the session
    /// was checked within the second: Bo's feed token opens Bo's calendars, never Ana's.
    @Test(arguments: AccountSite.Backing.all) func aFeedTokenCountsBeforeTheSessionCookie(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let (ana, bo) = try await anaWithATripAndBo(site)
            let feed = try #require(try await makeToken(site, cookie: bo, scope: "feed"))
            #expect(try await site.send(.get, "/trips/nordic.ics?feed=\(feed)", cookie: ana).status == .notFound)
            // Ana's session is now checked and kept; the feed token still counts first.
            #expect(try await site.send(.get, "/trips/nordic.ics", cookie: ana).status == .ok)
            #expect(try await site.send(.get, "/trips/nordic.ics?feed=\(feed)", cookie: ana).status == .notFound)
        }
    }
}
