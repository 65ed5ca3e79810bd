import DetourAccounts
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// What every response carries: no page may be framed by another site, and on a server whose
/// answers depend on who asks, no shared cache keeps one.
@Suite struct ResponseRulesTests: SiteDriving {
    /// Whether `response` forbids every framing page, in both ways browsers read.
    func refusesFraming(_ response: TestResponse) -> Bool {
        response.headers[ResponseRulesMiddleware.frameOptions] == "DENY"
            && response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true
    }

    @Test func noPageOfAServerWithoutAccountsCanBeFramed() async throws {
        let store = FakeTripStore(["nordic.json": try Fixtures.sample("nordic-budget.json")])
        let site = try site(store)
        let answers = try await site.respond(to: [
            request(.get, "/"), request(.get, "/trips/nordic"), request(.get, "/trips/nordic.html"),
            request(.get, "/trips/none"), request(.get, "/no/such/page"), request(.delete, "/trips/nordic"),
        ])
        for (index, answer) in answers.enumerated() {
            #expect(refusesFraming(answer), "answer \(index): \(answer.headers)")
            #expect(answer.headers[.vary] == nil, "one answer for everyone: a cache may keep it")
        }
        // The preview's own policy stays whole, with the rule after it.
        let preview = try #require(answers[1].headers[.contentSecurityPolicy])
        #expect(preview.hasPrefix("default-src 'none'"))
        #expect(preview.hasSuffix("; frame-ancestors 'none'"))
    }

    @Test(arguments: AccountSite.Backing.all) func aSignedInAnswerIsPrivateAndNeverFramed(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            let cookie = try #require(try await site.register("ana@example.org"))
            let folder = try await site.tripsFolder("ana@example.org")
            try Data(try Fixtures.sample("nordic-budget.json")).write(to: folder.appendingPathComponent("nordic.json"))
            for path in ["/", "/trips/nordic", "/trips/nordic.json", "/trips/nordic.ics", "/account", "/api/v1/trips"] {
                let answer = try await site.send(.get, path, cookie: cookie)
                #expect(answer.status == .ok, "\(path)")
                #expect(refusesFraming(answer), "\(path): \(answer.headers)")
                #expect(answer.headers[.vary]?.contains("Cookie, Authorization") == true, "\(path)")
                let cache = try #require(answer.headers[.cacheControl], "\(path)")
                #expect(cache.contains("private") || cache.contains("no-store"), "\(path): \(cache)")
            }
            let json = try await site.send(.get, "/trips/nordic.json", cookie: cookie)
            #expect(json.headers[.cacheControl] == "private, no-cache")
            #expect(json.headers[.eTag] != nil, "a browser still asks again with the tag")
            for path in ["/login", "/trips/nordic"] {
                let answer = try await site.send(.get, path)
                #expect(refusesFraming(answer), "signed out, \(path)")
                #expect(answer.headers[.vary] != nil, "signed out, \(path)")
            }
        }
    }
}
