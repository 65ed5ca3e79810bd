import DetourAccounts
import HTTPTypes
import Hummingbird

/// On a server with accounts: who the request comes from, by its session cookie.
///
/// Who it is goes in the context (``ServerContext/identity``), and that account's workspace with
/// it. A request without
/// a live session goes on without either; the routes that need one say so
/// (``ServerContext/requireWorkspace()``).
struct SessionMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let accounts: AccountService
    let csrf: CSRFRule

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.accounts = accounts
        context.forwardedFor = Self.forwardedFor(
            request, from: context.remoteAddress?.ipAddress, proxy: accounts.settings.trustedProxy)
        let found: Identity?
        let credential = try credential(of: request)
        switch credential {
        case .none: found = nil
        case .token(let given): found = try await tokenIdentity(given, request: request, inAddress: false)
        case .feed(let given): found = try await tokenIdentity(given, request: request, inAddress: true)
        case .session(let id):
            // Most requests: a session checked within the second, found without a suspension.
            if let known = accounts.sessions.cached(id) {
                found = known
            } else {
                found = try await accounts.sessions.identity(SecretToken(text: id))
            }
        }
        guard let identity = found else { return try await next(request, context) }
        context.identity = identity
        if let recheck = stillAllowed(credential) { context.stillAllowed = recheck }
        context.workspace = try accounts.workspace(for: identity.accountID)
        // A change signed in by the cookie: the CSRF rule, here rather than in a middleware of its
        // own, so that a read passes one layer fewer.
        guard !request.method.isRead, identity.scope == nil else { return try await next(request, context) }
        return try await next(try await csrf.check(request, identity: identity), context)
    }

    /// Whether `credential`, which signed a request in, still does; `nil` for no credential.
    ///
    /// Asked of the database each time, never of the sessions kept in memory.
    func stillAllowed(_ credential: Credential) -> (@Sendable () async -> Bool)? {
        let store = accounts.store
        switch credential {
        case .none: return nil
        case .session(let id): return { (try? await store.sessionIsLive(SecretToken(text: id))) == true }
        case .token(let given), .feed(let given): return { (try? await store.token(SecretToken(text: given))) != nil }
        }
    }

    /// The client's address as the trusted proxy (`--trusted-proxy`) saw it, or `nil`.
    ///
    /// It is the last in `X-Forwarded-For`, when the request came from that proxy: the address the
    /// proxy itself added, which no client can forge. Otherwise, or when that is no IP address (it
    /// is stored and shown in the audit log, so no other text gets in), the connection's address
    /// counts.
    static func forwardedFor(_ request: Request, from peer: String?, proxy: String?) -> String? {
        guard let proxy, peer == proxy, let field = request.headers[forwardedField] else { return nil }
        let last = field.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)
        guard let last, ListenAddress.isIPAddress(last) else { return nil }
        return last
    }

    static let forwardedField = HTTPField.Name.known("X-Forwarded-For")

    /// What signs a request in.
    enum Credential {
        case none
        /// An API token, as a bearer token.
        case token(String)
        /// A token in a calendar's address (`?feed=`), which must be a feed token: a token in an
        /// address lands in logs and histories, so only the one that reads calendars goes there.
        case feed(String)
        /// The session cookie's id.
        case session(String)
    }

    /// What `request` is signed in by.
    ///
    /// In this order: its bearer token, the feed token in a calendar's address, its session
    /// cookie. An `Authorization` field of another scheme is refused (401).
    func credential(of request: Request) throws(Problem) -> Credential {
        if let authorization = request.headers[.authorization] {
            guard let given = TokenMiddleware.bearerToken(authorization) else { throw Self.tokenRefused }
            return .token(given)
        }
        if request.method.isRead, request.uri.path.hasSuffix(".ics"), let feed = request.uri.queryParameters["feed"] {
            return .feed(String(feed))
        }
        guard let cookie = Cookies.value(accounts.cookieName, in: request.headers) else { return .none }
        return .session(cookie)
    }

    /// The identity of the API token `given`, checked against what `request` asks: a token that
    /// is no live token is refused (401), and one used beyond its scope too (403), as is any but a
    /// feed token given `inAddress`.
    func tokenIdentity(_ given: String, request: Request, inAddress: Bool) async throws -> Identity {
        guard given.hasPrefix(APIToken.prefix), let token = try await accounts.store.token(SecretToken(text: given)),
            let account = try await accounts.store.account(id: token.accountID)
        else { throw Self.tokenRefused }
        let path = request.uri.path
        // A token is for trips: never for the account's own pages.
        let allowed: Bool
        switch token.scope {
        case .write: allowed = !Self.accountPaths.contains(path)
        case .read: allowed = request.method.isRead && !Self.accountPaths.contains(path)
        case .feed: allowed = request.method.isRead && path.hasSuffix(".ics")
        }
        guard allowed else {
            throw Problem(
                .forbidden, .tokenScope, "this token's scope (\(token.scope.rawValue)) does not allow this request")
        }
        guard !inAddress || token.scope == .feed else {
            throw Problem(
                .forbidden, .tokenScope,
                "only a feed token may stand in an address; send a \(token.scope.rawValue) token as "
                    + "Authorization: Bearer")
        }
        return Identity(
            accountID: account.id, email: account.email, sessionDigest: "", formToken: "", scope: token.scope)
    }

    /// The pages of the account itself, and those that begin a session: only a browser reaches
    /// them.
    static let accountPaths: Set<String> = [
        "/login", "/register", "/logout", "/account", "/account/password", "/account/sessions", "/account/invites",
        "/account/tokens", "/account/tokens/revoke",
    ]

    static let tokenRefused = Problem(
        .unauthorized, .tokenInvalid, "the token is not one of this server's, or it was revoked or has expired",
        fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\", error=\"invalid_token\"")])
}

/// Cross-site request forgery, on a server with accounts: refused (``SessionMiddleware`` applies it).
///
/// A request that changes something and is signed in by its cookie must come from the server's
/// own pages. Its origin must be the server's, as for any write (``OriginMiddleware``), and it
/// must carry its session's form token, as the `csrf` field of a form or the `X-CSRF-Token` header
/// (OWASP's synchronizer token). A request signed in by a bearer token need not: browsers send no
/// such header by themselves. The login and registration forms need the origin only.
struct CSRFRule {
    /// The forms that begin a session, and so carry no token.
    static let sessionless: Set<String> = ["/login", "/register"]

    /// The form field that carries the token.
    static let formField = "csrf"
    static let header = HTTPField.Name.known("X-CSRF-Token")

    /// The largest form read for its token.
    let formLimit: Int

    /// `request` as it goes on (its body read when the token was looked for in it).
    ///
    /// Refused (403) when it breaks the rule. `identity` signed it in by its session cookie; its
    /// origin was checked before (``OriginMiddleware``).
    func check(_ request: Request, identity: Identity) async throws -> Request {
        // Logging in or registering again from an old tab begins a new session: the page had no
        // token to send, and the origin is checked all the same.
        if Self.sessionless.contains(request.uri.path) { return request }
        var request = request
        var token = request.headers[Self.header]
        if token == nil, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.collectBody(upTo: formLimit)
            token = try Form.decode(FormToken.self, from: body).csrf
        }
        guard let token, TokenMiddleware.constantTimeEqual(token, identity.formToken) else { throw Self.refused }
        return request
    }

    static let refused = Problem(
        .forbidden, .csrfRefused,
        "this change did not come from one of this server's pages; reload the page and try again")
}

/// The form token every form of a session carries.
struct FormToken: Decodable {
    let csrf: String?
}

extension HTTPField.Name {
    /// The field `name`, which is a valid name (letters and hyphens); a field no request repeats
    /// stands in for one that is not.
    static func known(_ name: String) -> HTTPField.Name {
        if let field = HTTPField.Name(name) { return field }
        return .via
    }
}
