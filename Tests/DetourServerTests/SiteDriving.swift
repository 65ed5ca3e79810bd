import DetourCore
import DetourRender
import HTTPTypes
import Hummingbird
import HummingbirdTesting

@testable import DetourServer

/// What a suite that drives the server in process needs: its router over a fake store, driven
/// without sockets by HummingbirdTesting, a request as a browser on the same machine sends it,
/// and a response's body as text.
protocol SiteDriving {}

extension SiteDriving {
    /// The day every plan of these suites is as of.
    static var today: CalendarDay { CalendarDay(year: 2026, month: 11, day: 24) ?? .unixEpoch }

    /// The server's routes over `store` with the built-in templates and a fixed day, bound to
    /// 127.0.0.1.
    func site(_ store: FakeTripStore, readOnly: Bool = false) throws -> DrivenSite {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        let today = Self.today
        let settings = ServerSettings(
            today: { today }, templates: templates, readOnly: readOnly, maxInputBytes: 1 << 20)
        return DrivenSite(settings: settings, store: store)
    }

    /// A request as a browser on the same machine would send it.
    func request(
        _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: [UInt8] = []
    ) -> DrivenSite.Request {
        DrivenSite.Request(method: method, path: path, headers: headers, body: body)
    }

    /// The body of `response` as text.
    func body(_ response: TestResponse) -> String {
        String(buffer: response.body)
    }
}

/// The server's application over one workspace, as `serve` builds and runs it, answering requests
/// in process.
struct DrivenSite {
    /// A request: HummingbirdTesting sends it to `localhost`.
    struct Request {
        var method: HTTPRequest.Method
        var path: String
        var headers: HTTPFields = [:]
        var body: [UInt8] = []
    }

    let settings: ServerSettings
    let workspace: Workspace
    let boundHost: String
    /// The accounts, on a server with them.
    let accounts: AccountService?
    /// The client of the application running for the whole test, when one is (``AccountSite``);
    /// otherwise each ``respond(to:)`` runs the application for its requests.
    var client: (any TestClientProtocol)?

    init(
        settings: ServerSettings, store: FakeTripStore, boundHost: String = "127.0.0.1", accounts: AccountService? = nil
    ) {
        self.settings = settings
        self.boundHost = boundHost
        self.accounts = accounts
        workspace = Workspace(store: store, settings: settings)
    }

    var library: TripLibrary { workspace.library }

    /// The answer to `request`, from the router and every middleware.
    func respond(to request: Request) async throws -> TestResponse {
        try await respond(to: [request])[0]
    }

    /// The answers to `requests`, sent one after another to one application.
    func respond(to requests: [Request]) async throws -> [TestResponse] {
        if let client { return try await Self.send(requests, with: client) }
        return try await application().test(.router) { client in try await Self.send(requests, with: client) }
    }

    /// The application `serve` runs, with its services, over this site's workspace.
    func application() -> some ApplicationProtocol {
        TripServer.application(
            workspace: workspace, settings: settings, accounts: accounts, boundHost: boundHost, announce: { _ in },
            log: nil)
    }

    static func send(_ requests: [Request], with client: some TestClientProtocol) async throws -> [TestResponse] {
        var responses: [TestResponse] = []
        for request in requests {
            responses.append(
                try await client.execute(
                    uri: request.path, method: request.method, headers: request.headers,
                    body: request.body.isEmpty ? nil : ByteBuffer(bytes: request.body)))
        }
        return responses
    }
}
