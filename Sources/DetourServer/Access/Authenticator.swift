import DetourAccounts
import HTTPTypes
import Hummingbird

/// The one authenticator: turns a request's credentials into its ``Principal``.
///
/// It decides nothing about routes: ``AccessPolicy`` does, from the principal this puts in the
/// context. A credential that is no credential of this server is refused here (401), whatever the
/// route.
///
/// - Without accounts and without `--token`, everyone is the folder's user, with every right.
/// - Without accounts and with `--token`, every request carries the token: as
///   `Authorization: Bearer …`, which grants everything; on a read (GET, HEAD) also as a `token`
///   query parameter or the cookie such a read sets, which grant reads (browsers and calendar
///   programs fetch pages and feeds without headers). A write takes the bearer token only, so no
///   link or cookie can make one.
/// - With accounts, in this order: a bearer token (an API token), the feed token in a calendar's
///   address (`?feed=`), the session cookie; none of them: ``Principal/anonymous``.
/// - With `--read-only`, nothing grants a write (405, on any path).
struct Authenticator: RouterMiddleware {
    typealias Context = ServerContext

    let settings: ServerSettings
    /// The folder's trips, on a server without accounts.
    let workspace: Workspace
    let accounts: AccountService?

    /// The cookie a request with the right `token` parameter sets, for the pages it links to.
    static let tokenCookie = "detour_report_token"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if settings.readOnly, !request.method.isRead {
            throw Problem(
                .methodNotAllowed, .readOnly, "the server was started with --read-only",
                fields: [(.allow, "GET, HEAD")])
        }
        var context = context
        guard let accounts else {
            context.workspace = workspace
            guard let token = settings.token else {
                context.principal = .folder(.everything)
                return try await next(request, context)
            }
            return try await withServerToken(token, request, context, next: next)
        }
        context.accounts = accounts
        context.forwardedFor = Self.forwardedFor(
            request, from: context.remoteAddress?.ipAddress, proxy: accounts.settings.trustedProxy)
        let store = accounts.store
        let credential = try credential(of: request, cookieName: accounts.cookieName)
        switch credential {
        case .none: break
        case .token(let given), .feed(let given):
            let inAddress = credential.isInAddress
            context.principal = .token(try await tokenIdentity(given, inAddress: inAddress, accounts: accounts))
            context.stillAllowed = { (try? await store.token(SecretToken(text: given))) != nil }
        case .session(let id):
            // Most requests: a session checked within the second, found without a suspension.
            let known = accounts.sessions.cached(id)
            guard let identity = known == nil ? try await sessionIdentity(id, accounts: accounts) : known else { break }
            context.principal = .session(identity)
            // Asked of the database each time, never of the sessions kept in memory.
            context.stillAllowed = { (try? await store.sessionIsLive(SecretToken(text: id))) == true }
        }
        guard let identity = context.identity else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch {
            throw SignedInFailure(identity: identity, error: error)
        }
    }

    func sessionIdentity(_ id: String, accounts: AccountService) async throws -> Identity? {
        try await accounts.sessions.identity(SecretToken(text: id))
    }

    /// A request to a server with `token` and no accounts: in with what its credentials grant,
    /// refused (401) without.
    func withServerToken(
        _ token: String, _ request: Request, _ context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let access = Self.access(of: request, token: token) else {
            throw Problem(
                .unauthorized, .tokenRequired, "this server needs its token",
                fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\"")])
        }
        var context = context
        context.principal = .folder(access)
        var response = try await next(request, context)
        // A page opened with `?token=` sets the cookie, so the pages and streams it loads carry it.
        if access == .reads(viaLink: true), response.status.code < 400 {
            let cookie = SetCookie(name: Self.tokenCookie, value: token, sameSite: .strict)
            response.headers[.setCookie] = cookie.description
        }
        return response
    }

    /// What `request` may do on a server with `token`, or `nil` when it does not carry the token
    /// as it must.
    static func access(of request: Request, token: String) -> Access? {
        if let authorization = request.headers[.authorization], let given = bearerToken(authorization),
            constantTimeEqual(given, token)
        {
            return .everything
        }
        guard request.method.isRead else { return nil }
        if let given = request.uri.queryParameters["token"], constantTimeEqual(String(given), token) {
            return .reads(viaLink: true)
        }
        if let given = Cookies.value(tokenCookie, in: request.headers), constantTimeEqual(given, token) {
            return .reads(viaLink: false)
        }
        return nil
    }

    /// What signs a request in, on a server with accounts.
    enum Credential {
        case none
        /// An API token, as a bearer token.
        case token(String)
        /// A token in an address (`?feed=`, a read's only), which must be a feed token: a token in
        /// an address lands in logs and histories, so only the one that reads calendars goes there.
        case feed(String)
        /// The session cookie's id.
        case session(String)

        var isInAddress: Bool {
            guard case .feed = self else { return false }
            return true
        }
    }

    /// What `request` is signed in by.
    ///
    /// An `Authorization` field of another scheme is refused (401).
    func credential(of request: Request, cookieName: String) throws(Problem) -> Credential {
        if let authorization = request.headers[.authorization] {
            guard let given = Self.bearerToken(authorization) else { throw Self.tokenRefused }
            return .token(given)
        }
        if request.method.isRead, let feed = request.uri.queryParameters["feed"] { return .feed(String(feed)) }
        guard let cookie = Cookies.value(cookieName, in: request.headers) else { return .none }
        return .session(cookie)
    }

    /// The identity of the API token `given`: one that is no live token is refused (401), and any
    /// but a feed token given `inAddress` too (403).
    func tokenIdentity(_ given: String, inAddress: Bool, accounts: AccountService) async throws -> Identity {
        guard given.hasPrefix(APIToken.prefix), let token = try await accounts.store.token(SecretToken(text: given)),
            let account = try await accounts.store.account(id: token.accountID)
        else { throw Self.tokenRefused }
        guard !inAddress || token.scope == .feed else {
            throw Problem(
                .forbidden, .tokenScope,
                "only a feed token may stand in an address; send a \(token.scope.rawValue) token as "
                    + "Authorization: Bearer")
        }
        return Identity(
            accountID: account.id, email: account.email, sessionDigest: "", formToken: "", scope: token.scope)
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

    static let tokenRefused = Problem(
        .unauthorized, .tokenInvalid, "the token is not one of this server's, or it was revoked or has expired",
        fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\", error=\"invalid_token\"")])

    /// The token of an `Authorization: Bearer TOKEN` field, the scheme in any case (RFC 9110
    /// §11.1), or `nil` for another scheme.
    static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Compares in time that depends on the lengths only, never on where the texts differ.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let left = Array(given.utf8)
        let right = Array(expected.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<right.count {
            difference |= (index < left.count ? left[index] : 0) ^ right[index]
        }
        return difference == 0
    }
}

extension HTTPField.Name {
    /// The field `name`, which is a valid name (letters and hyphens); a field no request repeats
    /// stands in for one that is not.
    static func known(_ name: String) -> HTTPField.Name {
        if let field = HTTPField.Name(name) { return field }
        return .via
    }
}
