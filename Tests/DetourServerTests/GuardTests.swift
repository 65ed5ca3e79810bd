import DetourCore
import DetourRender
import DetourTestSupport
import HTTPTypes
import Hummingbird
import Testing

@testable import DetourServer

/// What every request passes before its route: one valid Host the server answers to, and the
/// token, however the client spells the bearer scheme.
@Suite struct GuardTests {
    static let token = "0123456789abcdef-token"

    func site(
        boundTo host: String, token: String? = nil, publicURL: String? = nil, store: FakeTripStore = FakeTripStore()
    ) throws -> Site {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        var problem = ""
        let settings = ServerSettings(
            today: { .unixEpoch }, templates: templates, readOnly: false, token: token, maxInputBytes: 1 << 20,
            publicURL: publicURL.flatMap { PublicURL($0, problem: &problem) })
        return Site(library: TripLibrary(store: store, settings: settings), reload: LiveReload(), boundHost: host)
    }

    func respond(
        _ site: Site, authority: String?, method: HTTPRequest.Method = .get, path: String = "/",
        fields: HTTPFields = [:]
    ) async -> Response {
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: authority, path: path, headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        return await site.respond(to: request)
    }

    func status(_ site: Site, authority: String?, fields: HTTPFields = [:]) async -> Int {
        await respond(site, authority: authority, fields: fields).status.code
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
    func theHostIsOneTheServerAnswersTo(_ bound: String, _ host: String, _ expected: Int) async throws {
        let site = try site(boundTo: bound)
        #expect(await status(site, authority: host) == expected)
    }

    @Test func noHostOrTwoHostsIs400() async throws {
        let site = try site(boundTo: "127.0.0.1")
        #expect(await status(site, authority: nil) == 400)
        var twice = HTTPFields()
        twice.append(HTTPField(name: Guard.hostField, value: "evil.example"))
        #expect(await status(site, authority: "127.0.0.1:8080", fields: twice) == 400)
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
        let site = try site(boundTo: "127.0.0.1", token: Self.token)
        #expect(await status(site, authority: "127.0.0.1:8080", fields: [.authorization: authorization]) == expected)
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
        let site = try site(boundTo: "127.0.0.1", publicURL: "https://trips.example.org", store: store)
        #expect(await status(site, authority: "trips.example.org") == 200)
        #expect(await status(site, authority: "evil.example") == 421)
        var fromPublic = HTTPFields()
        fromPublic[.origin] = "https://trips.example.org"
        fromPublic[.ifMatch] = "*"
        let missing = await respond(
            site, authority: "trips.example.org", method: .delete, path: "/api/v1/trips/none", fields: fromPublic)
        #expect(missing.status == .notFound, "taken, and the trip is not there")
        fromPublic[.origin] = "https://evil.example"
        let refused = await respond(
            site, authority: "trips.example.org", method: .delete, path: "/api/v1/trips/none", fields: fromPublic)
        #expect(refused.status == .forbidden)
        let index = await respond(site, authority: "127.0.0.1:8080")
        let collector = BodyCollector()
        try await index.body.write(collector)
        let page = String(decoding: collector.bytes, as: UTF8.self)
        #expect(page.contains("webcal://trips.example.org/trips/nordic-budget.ics"))
        #expect(page.contains("https://trips.example.org/trips/nordic-budget.ics"))
        #expect(!page.contains("127.0.0.1:8080/trips/nordic-budget.ics"))
    }
}
