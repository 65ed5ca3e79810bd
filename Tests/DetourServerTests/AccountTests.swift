import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// `serve --accounts`, in process: the original app's launch rule, registration and login, the
/// session cookie, CSRF, throttling and each account's own trips.
@Suite struct AccountTests: SiteDriving {
    @Test(arguments: AccountSite.Backing.all) func withoutASessionPagesGoToTheLoginPageAndTheAPIAsksForOne(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            for path in ["/", "/trips/lisbon", "/trips/lisbon.html", "/calendar.ics", "/account"] {
                let response = try await site.send(.get, path)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/login", "\(path)")
            }
            let api = try await site.send(.get, "/api/v1/trips")
            #expect(api.status == .unauthorized)
            #expect(api.headers[.wwwAuthenticate] == "Bearer realm=\"detour-report\"")
            #expect(body(api).contains("\"sign-in-required\""))
            #expect(try await site.send(.get, "/docs/diagnostics/usage").status == .ok)
            let login = try await site.send(.get, "/login")
            #expect(login.status == .ok)
            #expect(body(login).contains("<a href=\"/register\">Create one</a>"))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func registeringSignsInAndEveryPageShowsTheAddress(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let register = try await site.send(.get, "/register")
            #expect(body(register).contains("<a href=\"/login\">Log in</a>"))
            let response = try await site.send(
                .post, "/register",
                form: [
                    ("email", "Ana@Example.org"), ("password", "correct horse battery"),
                    ("confirm", "correct horse battery"),
                ])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
            #expect(
                response.headers[.setCookie]?.hasSuffix("; Path=/; HttpOnly; SameSite=Lax") == true,
                "\(response.headers[.setCookie] ?? "")")
            let cookie = try #require(site.sessionSet(by: response))
            #expect(cookie.count == 43)
            for path in ["/", "/account", "/docs/diagnostics/usage"] {
                let page = body(try await site.send(.get, path, cookie: cookie))
                #expect(page.contains("Signed in as <strong>Ana@Example.org</strong>"), "\(path)")
                #expect(page.contains("<form method=\"post\" action=\"/logout\""), "\(path)")
            }
            // A refusal shown to a browser is a page of the site like the others, bar included.
            let browser: HTTPFields = [.accept: "text/html"]
            for path in ["/trips/missing", "/trips/missing.html", "/nowhere"] {
                let refused = try await site.send(.get, path, cookie: cookie, headers: browser)
                #expect(refused.status == .notFound, "\(path)")
                #expect(body(refused).contains("Signed in as <strong>Ana@Example.org</strong>"), "\(path)")
            }
            let anonymous = try await site.send(.get, "/docs/diagnostics/no-such-code", headers: browser)
            #expect(anonymous.status == .notFound && !body(anonymous).contains("Signed in as"))
            #expect(try await site.send(.get, "/login", cookie: cookie).headers[.location] == "/")
            let events = try await site.store.audit(email: "ana@example.org").map(\.event)
            #expect(events == ["register"])
        }
    }

    @Test(arguments: AccountSite.Backing.all) func eachBrokenRuleIsShownNextToItsField(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let response = try await site.send(
                .post, "/register", form: [("email", "ab@.c"), ("password", "1234567"), ("confirm", "1234568")])
            #expect(response.status == .unprocessableContent)
            let page = body(response)
            #expect(page.contains("<span class=\"problem\" id=\"email-problem\">Enter an e-mail address"))
            #expect(
                page.contains(
                    "<span class=\"problem\" id=\"password-problem\">Password must be at least 8 characters.</span>"))
            #expect(page.contains("<span class=\"problem\" id=\"confirm-problem\">Passwords do not match.</span>"))
            // The address typed is shown again; a password never is.
            #expect(page.contains("value=\"ab@.c\""))
            #expect(!page.contains("1234567"))
            #expect(site.sessionSet(by: response) == nil)
            let common = try await site.send(
                .post, "/register", form: [("email", "a@b.c"), ("password", "Password1"), ("confirm", "Password1")])
            #expect(body(common).contains("one of the 10,000 most common"))
            #expect(try await site.store.accounts().isEmpty)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aPasswordOfTheMinimumIsTakenAndOneShorterIsNot(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database, minimum: 10) { site in
            let short = try await site.register("a@b.c", password: "q7#q7#q7#")
            let enough = try await site.register("a@b.c", password: "q7#q7#q7#q")
            #expect(short == nil)
            #expect(enough != nil)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func anAddressRegisteredAlreadyIsRefused(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            #expect(try await site.register("ana@example.org") != nil)
            let again = try await site.send(
                .post, "/register",
                form: [("email", "ANA@example.org"), ("password", "another good one"), ("confirm", "another good one")])
            #expect(again.status == .unprocessableContent)
            #expect(body(again).contains("An account with this address exists already."))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func closedRegistrationShowsNoForm(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database, registration: .closed) { site in
            let page = try await site.send(.get, "/register")
            #expect(page.status == .forbidden)
            #expect(!body(page).contains("<form"))
            #expect(try await site.register("ana@example.org") == nil)
            #expect(try await site.store.accounts().isEmpty)
            #expect(!body(try await site.send(.get, "/login")).contains("/register"))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func anInvitationCodeOpensRegistrationOnce(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database, registration: .invite) { site in
            let hash = try await site.service.hasher.hash("correct horse battery")
            let ana = try await site.store.addAccount(email: "ana@example.org", passwordHash: hash)
            let code = try await site.store.makeInvite(accountID: ana.id).text
            // The link an account holder hands on fills the code in.
            let linked = body(try await site.send(.get, "/register?invite=\(code)"))
            #expect(linked.contains("name=\"invite\" type=\"text\" value=\"\(code)\""))
            let password = "another good one"
            let without = try await site.send(
                .post, "/register", form: [("email", "bo@example.org"), ("password", password), ("confirm", password)])
            #expect(body(without).contains("Enter the invitation code you were given."))
            let wrong = try await site.send(
                .post, "/register",
                form: [("email", "bo@example.org"), ("password", password), ("confirm", password), ("invite", "inv_x")])
            #expect(body(wrong).contains("This invitation code is not valid"))
            let right = try await site.send(
                .post, "/register",
                form: [("email", "bo@example.org"), ("password", password), ("confirm", password), ("invite", code)])
            #expect(right.status == .seeOther)
            let reused = try await site.send(
                .post, "/register",
                form: [("email", "cy@example.org"), ("password", password), ("confirm", password), ("invite", code)])
            #expect(body(reused).contains("This invitation code is not valid"))
            #expect(try await site.store.accounts().map(\.email) == ["ana@example.org", "bo@example.org"])
        }
    }

    /// An unknown address and a wrong password get the same answer, and a login always begins a
    /// new session (the id the browser had is ended: no session fixation).
    @Test(arguments: AccountSite.Backing.all) func loginFailuresSayOneThingAndALoginIsANewSession(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let first = try #require(try await site.register("ana@example.org"))
            let unknown = try await site.login("nobody@example.org")
            let wrong = try await site.login("ana@example.org", password: "wrong password!")
            for failed in [unknown, wrong] {
                #expect(failed.status == .unauthorized)
                #expect(body(failed).contains("The e-mail address or password is incorrect."))
                #expect(site.sessionSet(by: failed) == nil)
            }
            let success = try await site.login("ANA@example.org", cookie: first)
            #expect(success.status == .seeOther)
            let second = try #require(site.sessionSet(by: success))
            #expect(second != first)
            #expect(try await site.send(.get, "/", cookie: first).status == .seeOther)
            #expect(try await site.send(.get, "/", cookie: second).status == .ok)
            let events = try await site.store.audit(email: "ana@example.org").map(\.event)
            #expect(events == ["register", "login-failed", "login"])
        }
    }

    /// Ten failures are answered; the eleventh attempt waits a minute, even with the right
    /// password; one more failure after the wait doubles it; after 15 minutes nothing is left.
    @Test(arguments: AccountSite.Backing.all) func theEleventhAttemptWaitsAndTheWaitDoubles(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            _ = try await site.register("ana@example.org")
            for attempt in 1...10 {
                #expect(try await site.login("ana@example.org", password: "wrong \(attempt)").status == .unauthorized)
            }
            let refused = try await site.login("ana@example.org")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "60")
            #expect(body(refused).contains("Try again in 1 minute."))
            site.clock.advance(60)
            #expect(try await site.login("ana@example.org", password: "wrong 11").status == .unauthorized)
            #expect(try await site.login("ana@example.org").headers[.retryAfter] == "120")
            site.clock.advance(LoginThrottle.window)
            #expect(try await site.login("ana@example.org").status == .seeOther)
        }
    }

    /// The current password asked by the account page is throttled as the login is, against the
    /// same address: a stolen session guesses it no faster, and its failures slow logins too.
    @Test(arguments: AccountSite.Backing.all) func theCurrentPasswordIsThrottledAsTheLoginIs(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try await site.formToken(cookie)
            func change(current: String) async throws -> TestResponse {
                try await site.send(
                    .post, "/account/password", cookie: cookie,
                    form: [
                        ("csrf", token), ("current", current), ("password", "a new long passphrase"),
                        ("confirm", "a new long passphrase"),
                    ])
            }
            for attempt in 1...10 {
                #expect(try await change(current: "wrong \(attempt)").status == .unprocessableContent)
            }
            let refused = try await change(current: "correct horse battery")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "60")
            #expect(body(refused).contains("Too many failed attempts. Try again in 1 minute."))
            #expect(try await site.login("ana@example.org").status == .tooManyRequests)
            site.clock.advance(60)
            #expect(try await change(current: "correct horse battery").status == .ok)
            let events = try await site.store.audit(email: "ana@example.org").map(\.event)
            #expect(events.filter { $0 == "password-change-failed" }.count == 10)
            #expect(events.last == "password-changed")
        }
    }

    @Test func theThrottleRuleAtItsEdges() {
        let now: Int64 = 10_000
        let nine = (0..<9).map { now - Int64($0) }
        #expect(LoginThrottle.wait(failures: nine, now: now) == nil)
        #expect(LoginThrottle.wait(failures: nine + [now], now: now) == 60)
        #expect(LoginThrottle.wait(failures: nine + [now, now], now: now) == 120)
        #expect(LoginThrottle.wait(failures: Array(repeating: now, count: 40), now: now) == 900)
        // A failure exactly 15 minutes old no longer counts.
        #expect(LoginThrottle.wait(failures: nine + [now - LoginThrottle.window], now: now) == nil)
        #expect(LoginThrottle.wait(failures: nine + [now - 100], now: now + 60) == nil)
    }

    /// A look-alike of an address, or one holding what does not show, makes no account; one
    /// typed in other forms of the same letters is the account that exists.
    @Test(arguments: AccountSite.Backing.all) func anAddressIsCheckedAndNormalizedAtRegistration(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            #expect(try await site.register("alice@example.org") != nil)
            for lookAlike in ["alice@ex\u{0430}mple.org", "alice\u{200B}@example.org", "esc\u{1B}[31mred@evil.co"] {
                let refused = try await site.send(
                    .post, "/register",
                    form: [
                        ("email", lookAlike), ("password", "correct horse battery"),
                        ("confirm", "correct horse battery"),
                    ])
                #expect(refused.status == .unprocessableContent, "\(lookAlike)")
                #expect(body(refused).contains("aria-describedby=\"email-problem\""), "\(lookAlike)")
            }
            let fullWidth = try await site.send(
                .post, "/register",
                form: [
                    ("email", "\u{FF41}lice@example.org"), ("password", "correct horse battery"),
                    ("confirm", "correct horse battery"),
                ])
            #expect(body(fullWidth).contains("An account with this address exists already."))
            #expect(try await site.login("\u{FF41}LICE@example.org").status == .seeOther, "the same account")
            #expect(try await site.store.accounts().map(\.email) == ["alice@example.org"])
        }
    }

    /// A form past its limit is too large (413), not a fault, and one of the limit is read.
    @Test(arguments: AccountSite.Backing.all) func aFormPastItsLimitIsTooLarge(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let padding = String(repeating: "x", count: Form.limit)
            let large = try await site.send(.post, "/login", form: [("email", "a@b.c"), ("password", padding)])
            #expect(large.status == .contentTooLarge)
            #expect(body(large).contains("\"body-too-large\""))
            let atLimit = try await site.send(
                .post, "/login",
                form: [
                    ("email", "a@b.c"),
                    ("password", String(padding.prefix(Form.limit - "email=a%40b.c&password=".count))),
                ])
            #expect(atLimit.status == .unauthorized, "a form of 64 KiB is read")
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aChangeSignedInByCookieNeedsTheFormTokenAndTheServersOrigin(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let token = try await site.formToken(cookie)
            #expect(token.count == 43)
            let withoutToken = try await site.send(.post, "/logout", cookie: cookie, form: [("x", "y")])
            #expect(withoutToken.status == .forbidden)
            #expect(body(withoutToken).contains("\"csrf-refused\""))
            let foreign = try await site.send(
                .post, "/logout", cookie: cookie, form: [("csrf", token)], origin: "https://evil.example")
            #expect(foreign.status == .forbidden)
            let crossSite = try await site.send(
                .post, "/logout", cookie: cookie, form: [("csrf", token)], origin: nil,
                headers: [.known("Sec-Fetch-Site"): "cross-site"])
            #expect(crossSite.status == .forbidden)
            let wrong = try await site.send(.post, "/logout", cookie: cookie, form: [("csrf", token + "x")])
            #expect(wrong.status == .forbidden)
            #expect(try await site.send(.get, "/", cookie: cookie).status == .ok)
            let own = try await site.send(.post, "/logout", cookie: cookie, form: [("csrf", token)])
            #expect(own.status == .seeOther)
            #expect(own.headers[.location] == "/login")
            #expect(own.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await site.send(.get, "/", cookie: cookie).status == .seeOther)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aSessionEndsAfterTwelveHoursIdle(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            site.clock.advance(SessionLifetime.idle - 1)
            #expect(try await site.send(.get, "/", cookie: cookie).status == .ok)
            site.clock.advance(SessionLifetime.idle)
            let expired = try await site.send(.get, "/", cookie: cookie)
            #expect(expired.status == .seeOther)
            #expect(expired.headers[.location] == "/login")
        }
    }

    /// Another account's trip is not found: 404, as a name no one has, never 403.
    @Test(arguments: AccountSite.Backing.all) func anotherAccountsTripsAreNotFound(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let ana = try #require(try await site.register("ana@example.org"))
            let bo = try #require(try await site.register("bo@example.org"))
            let anas = try await site.tripsFolder("ana@example.org")
            let sample = Fixtures.repository.appendingPathComponent("samples/lisbon-city-break.json")
            try FileManager.default.copyItem(at: sample, to: anas.appendingPathComponent("lisbon.json"))
            #expect(try await site.send(.get, "/trips/lisbon", cookie: ana).status == .ok)
            #expect(try await site.send(.get, "/api/v1/trips/lisbon", cookie: ana).status == .ok)
            for path in ["/trips/lisbon", "/trips/lisbon.html", "/api/v1/trips/lisbon", "/trips/lisbon.ics"] {
                let response = try await site.send(.get, path, cookie: bo)
                #expect(response.status == .notFound, "\(path)")
            }
            #expect(!body(try await site.send(.get, "/", cookie: bo)).contains("lisbon"))
            #expect(!body(try await site.send(.get, "/api/v1/trips", cookie: bo)).contains("lisbon"))
            #expect(body(try await site.send(.get, "/", cookie: ana)).contains("lisbon"))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aPasswordChangeEndsEveryOtherSession(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let first = try #require(try await site.register("ana@example.org"))
            let second = try #require(site.sessionSet(by: try await site.login("ana@example.org")))
            let token = try await site.formToken(first)
            let wrong = try await site.send(
                .post, "/account/password", cookie: first,
                form: [
                    ("csrf", token), ("current", "nope nope"), ("password", "new long one"),
                    ("confirm", "new long one"),
                ])
            #expect(wrong.status == .unprocessableContent)
            #expect(body(wrong).contains("This is not your current password."))
            let changed = try await site.send(
                .post, "/account/password", cookie: first,
                form: [
                    ("csrf", token), ("current", "correct horse battery"), ("password", "new long one"),
                    ("confirm", "new long one"),
                ])
            #expect(changed.status == .ok)
            #expect(body(changed).contains("Your password is changed. 1 other session and 0 tokens ended."))
            #expect(try await site.send(.get, "/", cookie: first).status == .ok)
            #expect(try await site.send(.get, "/", cookie: second).status == .seeOther)
            #expect(try await site.login("ana@example.org").status == .unauthorized)
            #expect(try await site.login("ana@example.org", password: "new long one").status == .seeOther)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func anotherSessionIsEndedFromTheAccountPage(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let first = try #require(try await site.register("ana@example.org"))
            let second = try #require(site.sessionSet(by: try await site.login("ana@example.org")))
            let page = body(try await site.send(.get, "/account", cookie: first))
            #expect(page.contains("this session"))
            let handle = try #require(
                page.range(of: "name=\"session\" value=\"").map { String(page[$0.upperBound...].prefix(12)) })
            let token = try await site.formToken(first)
            let ended = try await site.send(
                .post, "/account/sessions", cookie: first, form: [("csrf", token), ("session", handle)])
            #expect(ended.status == .seeOther)
            #expect(try await site.send(.get, "/", cookie: second).status == .seeOther)
            #expect(try await site.send(.get, "/", cookie: first).status == .ok)
        }
    }

    @Test(arguments: AccountSite.Backing.all) func overHTTPSTheCookieIsSecureAndHostPrefixed(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database, publicURL: "https://trips.example.org") { site in
            let response = try await site.send(
                .post, "/register",
                form: [
                    ("email", "a@b.c"), ("password", "correct horse battery"), ("confirm", "correct horse battery"),
                ],
                origin: "https://trips.example.org")
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("__Host-detour_session="))
            #expect(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Lax; Secure"))
        }
    }

    @Test(arguments: AccountSite.Backing.all) func aHashOfALowerCostIsMadeAgainAtLogin(_ database: AccountSite.Backing)
        async throws
    {
        let raised = try #require(HashCost(passes: 3, memoryBytes: 19 << 20))
        try await AccountSite.with(database: database, cost: raised) { site in
            let old = try await PasswordHasher(width: 1).hash("correct horse battery")
            _ = try await site.store.addAccount(email: "ana@example.org", passwordHash: old)
            #expect(try await site.login("ana@example.org").status == .seeOther)
            let stored = try await site.store.account(email: "ana@example.org")?.passwordHash
            #expect(stored?.contains("t=3") == true)
        }
    }

    /// A session ended elsewhere (another server, `detour-report user end-sessions`) is still
    /// taken within the second after it was last checked, and refused after it.
    @Test(arguments: AccountSite.Backing.all) func aSessionIsCheckedAgainstTheDatabaseAtMostOnceASecond(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            #expect(try await site.send(.get, "/", cookie: cookie).status == .ok)
            let account = try #require(try await site.store.account(email: "ana@example.org"))
            #expect(try await site.store.endSessions(accountID: account.id) == 1)
            site.monotonic.advance(.milliseconds(999))
            #expect(try await site.send(.get, "/", cookie: cookie).status == .ok)
            site.monotonic.advance(.milliseconds(1))
            #expect(try await site.send(.get, "/", cookie: cookie).status == .seeOther)
        }
    }

    /// Past its capacity, the cache drops the sessions not checked within the second.
    @Test(arguments: AccountSite.Backing.all) func theSessionCacheKeepsAtMostItsCapacity(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let account = try await site.store.addAccount(email: "ana@example.org", passwordHash: "h")
            let cache = SessionCache(store: site.store, monotonic: site.monotonic.now, capacity: 2)
            var tokens: [SecretToken] = []
            for _ in 0..<3 { tokens.append(try await site.store.beginSession(accountID: account.id, client: nil).0) }
            #expect(try await cache.identity(tokens[0]) != nil)
            #expect(try await cache.identity(tokens[1]) != nil)
            #expect(cache.count == 2)
            site.monotonic.advance(.seconds(1))
            #expect(try await cache.identity(tokens[2]) != nil)
            #expect(cache.count == 1)
            #expect(cache.cached(tokens[2].text) != nil)
            #expect(cache.cached(tokens[0].text) == nil)
        }
    }
}
