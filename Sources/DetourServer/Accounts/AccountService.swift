import DetourAccounts
import DetourCore
import DetourJob
import ServiceLifecycle
import Synchronization
import SystemPackage

/// Who a request comes from, as its session said.
public struct Identity: Sendable, Equatable {
    public let accountID: String
    /// The address the account signs in with, shown on every page.
    public let email: String
    /// The session's id digest.
    public let sessionDigest: String
    /// The token every form of the session carries (CSRF); empty for an API token.
    public let formToken: String
    /// The scope of the API token the request was signed in by, or `nil` for a session.
    public var scope: TokenScope? = nil
}

/// What `serve --accounts` adds to the server: the accounts' store and hasher, the sessions
/// known in memory, and one workspace per account (`DIR/accounts/ID/`), opened at its first
/// request and kept while used.
///
/// Every workspace works on the server's one set of ``ServerResources``. At most ``capacity``
/// are open at once: past it, the one used longest ago with no preview open is closed (its
/// watch removed, what it kept in memory let go), and opened again at its next request.
public final class AccountService: Sendable {
    public let store: any AccountRepositories
    /// What must run while the server does (the database's client, when the store has one).
    public let services: [any Service]
    let hasher: PasswordHasher
    public let registration: Registration
    let rule: PasswordRule
    /// The served folder.
    let folder: FilePath
    let settings: ServerSettings
    /// Makes the store of an account's folder.
    private let makeStore: @Sendable (FilePath) throws(StoreFailure) -> any TripStore
    private let workspaces = Mutex(OpenWorkspaces())
    let sessions: SessionCache
    /// The server's threads, cache and watch, which every account's workspace works on.
    public let resources: ServerResources
    /// The most workspaces open at once.
    let capacity: Int

    struct OpenWorkspaces {
        var open: [String: (workspace: Workspace, used: Int)] = [:]
        var clock = 0
    }

    public init(
        store: any AccountRepositories, services: [any Service] = [], hasher: PasswordHasher,
        registration: Registration, rule: PasswordRule, folder: FilePath, settings: ServerSettings,
        makeStore: @escaping @Sendable (FilePath) throws(StoreFailure) -> any TripStore,
        monotonic: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, resources: ServerResources? = nil,
        capacity: Int = 128
    ) {
        self.resources = resources ?? ServerResources(settings: settings)
        self.capacity = max(1, capacity)
        self.store = store
        self.services = services
        self.hasher = hasher
        self.registration = registration
        self.rule = rule
        self.folder = folder
        self.settings = settings
        self.makeStore = makeStore
        sessions = SessionCache(store: store, monotonic: monotonic, capacity: 10_000)
    }

    /// Whether the server is reached over HTTPS (`--public-url https://…`): cookies are then
    /// `Secure` and named with the `__Host-` prefix.
    var secureCookies: Bool { settings.publicURL?.scheme == "https" }

    /// The session cookie's name.
    var cookieName: String { secureCookies ? "__Host-detour_session" : "detour_session" }

    /// The `Set-Cookie` value that gives the browser `token`.
    func sessionCookie(_ token: SecretToken) -> String {
        SetCookie(name: cookieName, value: token.text, sameSite: .lax, secure: secureCookies).description
    }

    /// The `Set-Cookie` value that removes the session cookie.
    var endedCookie: String {
        SetCookie(name: cookieName, value: "", sameSite: .lax, secure: secureCookies, expired: true).description
    }

    /// The workspace of the account `accountID`: its folder made when missing, watched while it
    /// is open.
    func workspace(for accountID: String) throws -> Workspace {
        if let known = workspaces.withLock({ $0.use(accountID) }) { return known }
        let path = FilePath(try AccountsFolder.makeTrips(in: folder.string, accountID: accountID))
        let tripStore = try makeStore(path)
        _ = try? tripStore.withLock { () throws(StoreFailure) -> Int in try tripStore.removeLeftovers() }
        let made = Workspace(store: tripStore, settings: settings, folder: path, resources: resources, space: accountID)
        let (workspace, isNew, closed) = workspaces.withLock { open -> (Workspace, Bool, [Workspace]) in
            if let raced = open.use(accountID) { return (raced, false, []) }
            open.clock += 1
            open.open[accountID] = (made, open.clock)
            return (made, true, open.closeUnused(past: capacity))
        }
        for unused in closed { unused.stopWatching() }
        if isNew { workspace.startWatching() }
        return workspace
    }

    /// Every account's workspace open now.
    var openWorkspaces: [Workspace] { workspaces.withLock { $0.open.values.map(\.workspace) } }
}

/// The sessions the server has seen, kept in memory by their ids and checked against the
/// database at most once a second each: a session ended elsewhere (logout on another server, a password change,
/// `detour-report user end-sessions`) ends here within a second, and a page's requests do not
/// each cost a query.
final class SessionCache: Sendable {
    private struct Entry {
        let identity: Identity
        let session: Session
        let checked: ContinuousClock.Instant
    }

    /// The most sessions kept (10,000 on a server); past it, those not checked within the second
    /// are dropped.
    let capacity: Int
    static let recheck: Duration = .seconds(1)

    private let store: any AccountRepositories
    private let entries = Mutex<[String: Entry]>([:])
    /// The monotonic clock the second is measured on (tests move one by hand).
    private let monotonic: @Sendable () -> ContinuousClock.Instant

    init(store: any AccountRepositories, monotonic: @escaping @Sendable () -> ContinuousClock.Instant, capacity: Int) {
        self.store = store
        self.monotonic = monotonic
        self.capacity = capacity
    }

    /// How many sessions are kept now.
    var count: Int { entries.withLock { $0.count } }

    /// The identity of the session whose id is `text`, when it was checked against the database
    /// within the second and is live: no hash, no query, no suspension, as most requests find it.
    func cached(_ text: String) -> Identity? {
        let now = monotonic()
        guard let entry = entries.withLock({ $0[text] }), now - entry.checked < Self.recheck,
            AccountStore.isLive(entry.session, at: store.now())
        else { return nil }
        return entry.identity
    }

    /// The identity of the session whose id is `token`, or `nil` when there is no live one: from
    /// memory when checked within the second, else from the database.
    func identity(_ token: SecretToken) async throws(AccountFailure) -> Identity? {
        if let known = cached(token.text) { return known }
        let now = monotonic()
        guard let session = try await store.session(token), let account = try await store.account(id: session.accountID)
        else {
            _ = entries.withLock { $0.removeValue(forKey: token.text) }
            return nil
        }
        let identity = Identity(
            accountID: account.id, email: account.email, sessionDigest: session.digest, formToken: session.formToken)
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { now - $0.value.checked < Self.recheck }
            }
            entries[token.text] = Entry(identity: identity, session: session, checked: now)
        }
        return identity
    }

    /// Drops the session with `digest` (logged out, ended).
    func forget(_ digest: String) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.identity.sessionDigest != digest }
        }
    }

    /// Drops every session of the account but the one with the digest `keeping`.
    func forget(accountID: String, keeping: String? = nil) {
        entries.withLock { entries in
            entries = entries.filter {
                $0.value.identity.accountID != accountID || $0.value.identity.sessionDigest == keeping
            }
        }
    }
}

extension AccountService.OpenWorkspaces {
    /// The open workspace of `accountID`, marked as used now.
    mutating func use(_ accountID: String) -> Workspace? {
        guard let found = open[accountID] else { return nil }
        clock += 1
        open[accountID]?.used = clock
        return found.workspace
    }

    /// Takes out the workspaces used longest ago, with no preview open, until at most `capacity`
    /// are open; returns them, to be closed.
    mutating func closeUnused(past capacity: Int) -> [Workspace] {
        guard open.count > capacity else { return [] }
        let idle = open.filter { !$0.value.workspace.reload.isListenedTo }.sorted { $0.value.used < $1.value.used }
        let closing = idle.prefix(open.count - capacity)
        for (accountID, _) in closing { open[accountID] = nil }
        return closing.map(\.value.workspace)
    }
}
