import DetourCore
import DetourRender
import DetourTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DetourServer

/// What every request passes before its route: one valid Host the server answers to, the token
/// however the client spells the bearer scheme, the read-only switch and the origin of a write.
@Suite struct MiddlewareTests {
    static let token = "0123456789abcdef-token"

    func site(
        boundTo host: String = "127.0.0.1", token: String? = nil, readOnly: Bool = false, publicURL: String? = nil,
        store: FakeTripStore = FakeTripStore()
    ) throws -> DrivenSite {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        var problem = ""
        let settings = ServerSettings(
            today: { .unixEpoch }, templates: templates, readOnly: readOnly, token: token, maxInputBytes: 1 << 20,
            publicURL: publicURL.flatMap { PublicURL($0, problem: &problem) })
        return DrivenSite(settings: settings, store: store, boundHost: host)
    }

    /// The status `request` gets from `site`.
    func status(_ site: DrivenSite, _ request: DrivenSite.Request) async throws -> Int {
        try await site.respond(to: request).status.code
    }

    /// The Host rule's answer to `authority` and `more` Host fields: its status, or 200.
    func hostStatus(boundTo host: String, _ authority: String?, more: [String] = [], publicURL: String? = nil) -> Int {
        var problem = ""
        let rule = HostMiddleware(boundHost: host, publicURL: publicURL.flatMap { PublicURL($0, problem: &problem) })
        return rule.refusal(authority: authority, more: more).map { Int($0.status.code) } ?? 200
    }

    /// Each Host against each bound address: 400, 421 or through.
    ///
    /// RFC 9112 §3.2: no Host, a Host that is not one, or two of them, is 400; a Host that is one
    /// but names another server is 421; the server's own, in any of its loopback spellings, passes.
    /// An empty port is a port (RFC 3986 §3.2.3: `*DIGIT`).
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1:8080", 200), ("127.0.0.1", "127.0.0.1", 200), ("127.0.0.1", "localhost:8080", 200),
        ("127.0.0.1", "LOCALHOST:8080", 200), ("127.0.0.1", "[::1]:8080", 200), ("localhost", "127.0.0.1:8080", 200),
        ("localhost", "[::1]:8080", 200), ("localhost", "localhost", 200), ("::1", "[::1]:8080", 200),
        ("::1", "localhost:8080", 200), ("127.0.0.1", "evil.example:8080", 421), ("127.0.0.1", "127.0.0.2.nip.io", 421),
        ("127.0.0.1", "127.evil.example", 421), ("127.0.0.1", "127.0.0.9", 200),
        ("192.168.1.2", "localhost:8080", 421), ("192.168.1.2", "192.168.1.2:8080", 200),
        ("127.0.0.1", "127.0.0.1:abc", 400), ("127.0.0.1", "127.0.0.1:8080@evil.example", 400),
        ("127.0.0.1", "127.0.0.1:", 200), ("127.0.0.1", "127.0.0.1:123456", 400), ("127.0.0.1", "", 400),
        ("127.0.0.1", "[::1", 400), ("127.0.0.1", "[]:8080", 400), ("127.0.0.1", "a b:8080", 400),
        ("127.0.0.1", "127.0.0.1/x", 400), ("127.0.0.1", "[::ffff:127.0.0.1]:8080", 421),
        ("0.0.0.0", "anything.example:8080", 200), ("0.0.0.0", "a@b", 400),
    ])
    func theHostIsOneTheServerAnswersTo(_ bound: String, _ host: String, _ expected: Int) {
        #expect(hostStatus(boundTo: bound, host) == expected)
    }

    @Test func noHostOrTwoHostsIs400() {
        #expect(hostStatus(boundTo: "127.0.0.1", nil) == 400)
        #expect(hostStatus(boundTo: "127.0.0.1", "127.0.0.1:8080", more: ["evil.example"]) == 400)
    }

    /// The rule runs before every route, unknown paths too, and answers as a problem: a server
    /// bound to another address refuses HummingbirdTesting's `localhost`.
    @Test func theHostRuleRunsBeforeEveryRoute() async throws {
        for path in ["/", "/api/v1/trips", "/no/such/page"] {
            let response = try await site(boundTo: "192.168.1.2").respond(
                to: DrivenSite.Request(method: .get, path: path))
            #expect(response.status == .misdirectedRequest, "\(path)")
            #expect(String(buffer: response.body).contains("\"code\":\"host-refused\""))
        }
        #expect(try await status(site(boundTo: "127.0.0.1"), DrivenSite.Request(method: .get, path: "/")) == 200)
    }

    /// The bearer scheme in any case, and only that scheme.
    ///
    /// RFC 9110 §11.1: the scheme's name is case-insensitive; spaces may stand between it and the
    /// token. Another scheme, or the token under it, is not the bearer token.
    @Test(arguments: [
        ("Bearer \(token)", 200), ("bearer \(token)", 200), ("BEARER \(token)", 200), ("Bearer   \(token)", 200),
        ("Bearer \(token)x", 401), ("Basic \(token)", 401), ("Bearer", 401), ("\(token)", 401),
        ("Bearer\(token)", 401),
    ])
    func theBearerSchemeIsReadInAnyCase(_ authorization: String, _ expected: Int) async throws {
        let site = try site(token: Self.token)
        let request = DrivenSite.Request(method: .get, path: "/", headers: [.authorization: authorization])
        #expect(try await status(site, request) == expected)
    }

    /// The token grants everything as a bearer token; as a link's parameter or the cookie it
    /// grants reads only, and a link sets the cookie for the pages it loads.
    @Test func aTokenGrantsAsItCame() async throws {
        let site = try site(token: Self.token)
        let link = try await site.respond(to: DrivenSite.Request(method: .get, path: "/?token=\(Self.token)"))
        #expect(link.status == .ok)
        #expect(link.headers[.setCookie] == "detour_report_token=\(Self.token); Path=/; HttpOnly; SameSite=Strict")
        let cookie: HTTPFields = [.cookie: "a=b; detour_report_token=\(Self.token)"]
        let byCookie = try await site.respond(to: DrivenSite.Request(method: .get, path: "/", headers: cookie))
        #expect(byCookie.status == .ok)
        #expect(byCookie.headers[.setCookie] == nil, "the cookie is set once, by the link")
        let none = try await site.respond(to: DrivenSite.Request(method: .get, path: "/"))
        #expect(none.status == .unauthorized)
        #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"detour-report\"")
        let wrongLink = try await site.respond(to: DrivenSite.Request(method: .get, path: "/?token=\(Self.token)x"))
        #expect(wrongLink.status == .unauthorized)
        for headers in [cookie, [:]] {
            let write = DrivenSite.Request(
                method: .delete, path: "/api/v1/trips/x?token=\(Self.token)", headers: headers + [.ifMatch: "*"])
            #expect(try await status(site, write) == 401, "no link or cookie makes a write")
        }
        let bearer = DrivenSite.Request(
            method: .delete, path: "/api/v1/trips/x", headers: [.authorization: "Bearer \(Self.token)", .ifMatch: "*"])
        #expect(try await status(site, bearer) == 404, "taken, and the trip is not there")
    }

    /// `--read-only` refuses every write on any path, and lets reads through.
    @Test func readOnlyRefusesEveryWrite() async throws {
        let site = try site(readOnly: true)
        for (method, path) in [(HTTPRequest.Method.put, "/api/v1/trips/x"), (.delete, "/api/v1/trips/x"), (.post, "/")]
        {
            let response = try await site.respond(to: DrivenSite.Request(method: method, path: path))
            #expect(response.status == .methodNotAllowed, "\(method) \(path)")
            #expect(String(buffer: response.body).contains("\"code\":\"read-only\""))
            #expect(response.headers[.allow] == "GET, HEAD")
        }
        #expect(try await status(site, DrivenSite.Request(method: .get, path: "/")) == 200)
    }

    /// A token comes back as a cookie value, so it holds only what one may (RFC 6265 §4.1.1).
    @Test(arguments: [
        ("0123456789abcdef", true), ("0123456789abcde", false), ("0123456789abcdef;x", false),
        ("0123456789abcdef,x", false), ("0123456789 abcdef", false), ("0123456789\"abcdef", false),
        ("0123456789\\abcdef", false), ("0123456789abcdé", false), ("!#$%&'()*+-./:<=>?@[]^_`{|}~0123", true),
    ])
    func aTokenHoldsOnlyWhatACookieMay(_ token: String, _ accepted: Bool) {
        #expect((TokenRule.problem(token) == nil) == accepted, "\(token)")
    }

    @Test(arguments: [
        ("https://trips.example.org", "https", "trips.example.org"),
        ("http://h.example:8080/", "http", "h.example:8080"),
        ("HTTPS://Trips.Example.org", "https", "trips.example.org"), ("https://[::1]:9000", "https", "[::1]:9000"),
    ])
    func aPublicURLIsASchemeAndAnAuthority(_ text: String, _ scheme: String, _ authority: String) throws {
        var problem = ""
        let url = try #require(PublicURL(text, problem: &problem), "\(problem)")
        #expect(url.scheme == scheme && url.authority == authority)
    }

    @Test(arguments: ["ftp://x.example", "https://", "https://x.example/trips", "trips.example.org", "https://a b", ""])
    func anyOtherPublicURLIsRefusedSayingWhy(_ text: String) {
        var problem = ""
        #expect(PublicURL(text, problem: &problem) == nil)
        #expect(!problem.isEmpty)
    }

    /// Behind a proxy: the public host is answered to, a write from the public origin is taken,
    /// and the index's feed links use the public address.
    @Test func behindAProxyThePublicAddressIsTheServers() async throws {
        let store = FakeTripStore(["nordic-budget.json": try Fixtures.sample("nordic-budget.json")])
        let publicURL = "https://trips.example.org"
        let site = try site(publicURL: publicURL, store: store)
        #expect(hostStatus(boundTo: "127.0.0.1", "trips.example.org", publicURL: publicURL) == 200)
        #expect(hostStatus(boundTo: "127.0.0.1", "evil.example", publicURL: publicURL) == 421)
        var fromPublic = HTTPFields()
        fromPublic[.origin] = "https://trips.example.org"
        fromPublic[.ifMatch] = "*"
        let delete = DrivenSite.Request(method: .delete, path: "/api/v1/trips/none", headers: fromPublic)
        #expect(try await status(site, delete) == 404, "taken, and the trip is not there")
        fromPublic[.origin] = "http://localhost"
        #expect(
            try await status(site, DrivenSite.Request(method: .delete, path: "/api/v1/trips/none", headers: fromPublic))
                == 404, "the Host's own origin too")
        fromPublic[.origin] = "https://evil.example"
        let refused = try await site.respond(
            to: DrivenSite.Request(method: .delete, path: "/api/v1/trips/none", headers: fromPublic))
        #expect(refused.status == .forbidden)
        #expect(String(buffer: refused.body).contains("\"code\":\"origin-refused\""))
        let index = try await site.respond(to: DrivenSite.Request(method: .get, path: "/trips"))
        let page = String(buffer: index.body)
        #expect(page.contains("webcal://trips.example.org/trips/nordic-budget.ics"))
        #expect(page.contains("https://trips.example.org/trips/nordic-budget.ics"))
        #expect(!page.contains("localhost/trips/nordic-budget.ics"))
    }

    /// The origin of a write is the server's with its scheme: behind `https://` the public host's
    /// `http://` origin is another site, and a server without a public URL speaks no HTTPS.
    @Test(arguments: [
        ("https://trips.example.org", "trips.example.org", "https://trips.example.org", true),
        ("https://trips.example.org", "trips.example.org", "http://trips.example.org", false),
        ("https://trips.example.org", "localhost:8080", "http://localhost:8080", true),
        ("https://trips.example.org", "localhost:8080", "https://localhost:8080", false),
        ("http://trips.example.org", "trips.example.org", "https://trips.example.org", false),
        (nil, "localhost:8080", "http://localhost:8080", true), (nil, "localhost:8080", "HTTP://LOCALHOST:8080", true),
        (nil, "localhost:8080", "https://localhost:8080", false),
        (nil, "localhost:8080", "http://localhost:8081", false),
        (nil, nil, "http://localhost:8080", false),
    ])
    func theOriginOfAWriteIsTheServersSchemeAndAll(_ publicURL: String?, _ host: String?, _ origin: String, _ own: Bool)
    {
        var problem = ""
        let rule = OriginRule(publicURL: publicURL.flatMap { PublicURL($0, problem: &problem) })
        #expect(rule.isOwn(origin, host: host) == own)
    }

    /// Without an `Origin`, a browser's `Sec-Fetch-Site` says where a write comes from: another
    /// site is refused, and a script that sends neither is not.
    @Test(arguments: [("cross-site", 403), ("same-site", 403), ("same-origin", 404), ("none", 404), (nil, 404)])
    func aWriteFromAnotherSiteIsRefusedByItsFetchMetadata(_ site: String?, _ expected: Int) async throws {
        var headers: HTTPFields = [.ifMatch: "*"]
        if let site { headers[OriginRule.secFetchSite] = site }
        let delete = DrivenSite.Request(method: .delete, path: "/api/v1/trips/none", headers: headers)
        let answer = try await self.site().respond(to: delete)
        #expect(answer.status.code == expected)
        if expected == 403 { #expect(String(buffer: answer.body).contains("\"code\":\"origin-refused\"")) }
    }

    /// Only an IP address from the trusted proxy's `X-Forwarded-For` is taken: it is stored and
    /// shown in the audit log, so no other text gets in.
    @Test(arguments: [
        ("203.0.113.9", "203.0.113.9"), ("198.51.100.1, 2001:db8::7", "2001:db8::7"),
        ("<script>alert(1)</script>", nil),
        ("203.0.113.9\tforged", nil), (String(repeating: "1", count: 3000), nil), ("", nil),
        ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
        ("203.0.113.9:443", nil), ("example.org", nil),
    ])
    func aForwardedAddressIsAnAddressOrNothing(_ field: String, _ taken: String?) {
        var headers = HTTPFields()
        headers[Authenticator.forwardedField] = field
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: headers),
            body: RequestBody(buffer: ByteBuffer()))
        #expect(Authenticator.forwardedFor(request, from: "127.0.0.1", proxy: "127.0.0.1") == taken)
        #expect(Authenticator.forwardedFor(request, from: "127.0.0.2", proxy: "127.0.0.1") == nil)
    }
}
