import DetourAccounts
import DetourCore
import DetourFiles
import DetourRender
import DetourTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import SystemPackage
import Testing

@testable import DetourServer

/// A server with accounts, driven in process: a real database (SQLite, or PostgreSQL where the
/// test asks for it) and real account folders in a scratch folder, and a clock the test moves.
struct AccountSite: SiteDriving {
    let folder: ScratchFolder
    let clock: TestClock
    /// The monotonic clock the session cache measures its second on.
    let monotonic: MonotonicClock
    let store: any AccountRepositories
    let service: AccountService
    var site: DrivenSite

    /// Where a test's accounts are kept: in memory (``MemoryAccountStore``: the server's rules,
    /// without a database), or in a database of a kind.
    enum Backing: Sendable, CustomTestStringConvertible {
        case memory
        case database(TestDatabase)

        /// In memory, and in every database the tests reach.
        static var all: [Backing] { [.memory] + TestDatabase.all.map(Backing.database) }

        var testDescription: String {
            switch self {
            case .memory: return "memory"
            case .database(let database): return "\(database)"
            }
        }
    }

    /// Runs `body` with a new site whose accounts are kept as `database` says, and closes the
    /// database however `body` ends.
    static func with(
        database: Backing = .database(.sqlite), registration: Registration = .open, publicURL: String? = nil,
        cost: HashCost = .owasp, minimum: Int = 8, capacity: Int = 128, _ body: (AccountSite) async throws -> Void
    ) async throws {
        let folder = try ScratchFolder("detour-account-site")
        let clock = TestClock()
        guard case .database(let kind) = database else {
            let site = try AccountSite(
                folder: folder, clock: clock, store: MemoryAccountStore(now: clock.now), registration: registration,
                publicURL: publicURL, cost: cost, minimum: minimum, capacity: capacity)
            try await running(site, body)
            return
        }
        try await kind.withURL { url in
            let store = try await AccountStore.open(
                url.flatMap(DatabaseURL.init), folder: folder.url.path, now: clock.now)
            do {
                let site = try AccountSite(
                    folder: folder, clock: clock, store: store, registration: registration, publicURL: publicURL,
                    cost: cost, minimum: minimum, capacity: capacity)
                try await running(site, body)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// Runs `body` while the site's application runs, with its services, as `serve` runs it: the
    /// accounts' workspaces and their watches last the whole test.
    private static func running(_ site: AccountSite, _ body: (AccountSite) async throws -> Void) async throws {
        // The tester runs the application on tasks of its own; `body` is awaited within it, and
        // returns before the application ends.
        nonisolated(unsafe) let body = body
        try await site.site.application().test(.router) { client in
            var site = site
            site.site.client = client
            try await body(site)
        }
    }

    private init(
        folder: ScratchFolder, clock: TestClock, store: any AccountRepositories, registration: Registration,
        publicURL: String?,
        cost: HashCost, minimum: Int, capacity: Int
    ) throws {
        let monotonic = MonotonicClock()
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        let today = Self.today
        var problem = ""
        var settings = ServerSettings(today: { today }, templates: templates, maxInputBytes: 1 << 20)
        settings.publicURL = publicURL.flatMap { PublicURL($0, problem: &problem) }
        let service = AccountService(
            store: store, hasher: try PasswordHasher(cost: cost, width: 2), registration: registration,
            rule: PasswordRule(minimum: minimum) ?? .standard, folder: FilePath(folder.url.path),
            settings: settings,
            makeStore: { path throws(StoreFailure) in try FolderTripStore(folder: path, files: LocalFileStore()) },
            monotonic: monotonic.now, capacity: capacity)
        self.folder = folder
        self.clock = clock
        self.monotonic = monotonic
        self.store = store
        self.service = service
        site = DrivenSite(settings: settings, store: FakeTripStore(), accounts: service)
    }

    /// The answer to one request: `cookie` (a session id) sent as the session cookie, `form` as
    /// the body of a POST, from the server's own origin unless `origin` says otherwise.
    func send(
        _ method: HTTPRequest.Method, _ path: String, cookie: String? = nil, form: [(String, String)] = [],
        origin: String? = "http://localhost", headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let cookie { fields[.cookie] = "\(service.cookieName)=\(cookie)" }
        if let origin, method != .get { fields[.origin] = origin }
        var body: [UInt8] = []
        if !form.isEmpty {
            fields[.contentType] = "application/x-www-form-urlencoded"
            body = Array(Self.encoded(form).utf8)
        }
        return try await site.respond(to: request(method, path, headers: fields, body: body))
    }

    /// `form` as `application/x-www-form-urlencoded`.
    static func encoded(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    /// The session id a response sets, or `nil`.
    func sessionSet(by response: TestResponse) -> String? {
        guard let cookie = response.headers[.setCookie], cookie.hasPrefix("\(service.cookieName)=") else {
            return nil
        }
        let value = cookie.dropFirst(service.cookieName.count + 1).prefix { $0 != ";" }
        return value.isEmpty ? nil : String(value)
    }

    /// Registers `email` through the form; returns the session id it was given.
    func register(_ email: String, password: String = "correct horse battery") async throws -> String? {
        let response = try await send(
            .post, "/register", form: [("email", email), ("password", password), ("confirm", password)])
        return sessionSet(by: response)
    }

    /// Logs in through the form; returns the answer.
    func login(_ email: String, password: String = "correct horse battery", cookie: String? = nil) async throws
        -> TestResponse
    {
        try await send(.post, "/login", cookie: cookie, form: [("email", email), ("password", password)])
    }

    /// The form token of the session `cookie`, read from its account page as a browser would.
    func formToken(_ cookie: String) async throws -> String {
        let page = body(try await send(.get, "/account", cookie: cookie))
        guard let range = page.range(of: "name=\"csrf\" value=\"") else { return "" }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The folder of trips of the account with the address `email`.
    func tripsFolder(_ email: String) async throws -> URL {
        let account = try await store.account(email: email)
        return folder.url.appendingPathComponent("accounts/\(account?.id ?? "none")")
    }
}

/// A monotonic clock a test moves by hand.
final class MonotonicClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    var now: @Sendable () -> ContinuousClock.Instant { { self.instant.withLock { $0 } } }

    func advance(_ by: Duration) {
        instant.withLock { $0 = $0.advanced(by: by) }
    }
}
