import DetourAccounts
import HTTPTypes
import Hummingbird

/// On a server with accounts: who the request comes from, by its session cookie.
///
/// Who it is goes in the context (``ServerContext/identity``), and that account's workspace with
/// it. A request without
/// a live session goes on without either; the routes that need one say so (``SignInMiddleware``).
struct SessionMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let accounts: AccountService

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let token = Cookies.value(accounts.cookieName, in: request.headers),
            let identity = try await accounts.sessions.identity(SecretToken(text: token))
        {
            context.identity = identity
            context.workspace = try accounts.workspace(for: identity.accountID)
        }
        return try await next(request, context)
    }
}

/// The routes that need a signed-in account: a page without one is sent to `/login` (303, as the
/// original app opens on its login screen), an API request is refused (401).
struct SignInMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Whether the routes are the API's, which answer JSON.
    let api: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard context.identity == nil else { return try await next(request, context) }
        if api {
            throw Problem(
                .unauthorized, "sign-in-required", "sign in, or send an API token",
                fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\"")])
        }
        return Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
    }
}

/// Cross-site request forgery, on a server with accounts: refused.
///
/// A request that changes something and is signed in by its cookie must come from the server's
/// own pages. Its `Origin` (else its
/// `Sec-Fetch-Site`) must be the server's, and it must carry its session's form token, as the
/// `csrf` field of a form or the `X-CSRF-Token` header (OWASP's synchronizer token). A request
/// signed in by a bearer token is not: browsers send no such header by themselves. The login and
/// registration forms need the origin only.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// The forms that begin a session, and so carry no token.
    static let sessionless: Set<String> = ["/login", "/register"]

    /// The form field that carries the token.
    static let formField = "csrf"
    static let header = HTTPField.Name.known("X-CSRF-Token")
    static let secFetchSite = HTTPField.Name.known("Sec-Fetch-Site")

    let origin: OriginMiddleware
    /// The largest form read for its token.
    let formLimit: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !request.method.isRead, let identity = context.identity else { return try await next(request, context) }
        if let givenOrigin = request.headers[.origin] {
            guard origin.isOwn(givenOrigin, host: request.head.authority) else { throw Self.refused }
        } else if let site = request.headers[Self.secFetchSite], site != "same-origin", site != "none" {
            throw Self.refused
        }
        // Logging in or registering again from an old tab begins a new session: the page had no
        // token to send, and the origin is checked all the same.
        if Self.sessionless.contains(request.uri.path) { return try await next(request, context) }
        var request = request
        var token = request.headers[Self.header]
        if token == nil, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.collectBody(upTo: formLimit)
            token = try Form.decode(FormToken.self, from: body).csrf
        }
        guard let token, TokenMiddleware.constantTimeEqual(token, identity.formToken) else { throw Self.refused }
        return try await next(request, context)
    }

    static let refused = Problem(
        .forbidden, "csrf-refused",
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
