import HTTPTypes
import Hummingbird

/// What every response carries, whoever answered it: a route, a refusal or the router.
///
/// - No page of the server may be framed by another (OWASP's clickjacking defence): a framed page
///   signed in could be clicked through from a page elsewhere. `frame-ancestors 'none'` says so to
///   browsers that read Content-Security-Policy, `X-Frame-Options: DENY` to those that do not; a
///   policy in a page's `<meta>` tag cannot say it, so it goes in the header.
/// - On a server whose answers depend on who asks (accounts, or a token), no shared cache keeps
///   one: it is `private`, and `Vary` names the fields that tell who asks. A response with no
///   caching rule of its own is `private, no-cache`: a browser keeps it and asks again with its
///   entity tag, as it did before.
struct ResponseRulesMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Whether what the server answers depends on the request's credentials.
    let perClient: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.apply(to: &response.headers, perClient: perClient)
        return response
    }

    static let frameOptions = HTTPField.Name.known("X-Frame-Options")

    /// `headers` with the rules applied.
    static func apply(to headers: inout HTTPFields, perClient: Bool) {
        headers[frameOptions] = "DENY"
        if let policy = headers[.contentSecurityPolicy] {
            if !policy.contains("frame-ancestors") {
                headers[.contentSecurityPolicy] = policy + "; frame-ancestors 'none'"
            }
        } else {
            headers[.contentSecurityPolicy] = "frame-ancestors 'none'"
        }
        guard perClient else { return }
        if let varies = headers[.vary] {
            headers[.vary] = varies + ", Cookie, Authorization"
        } else {
            headers[.vary] = "Cookie, Authorization"
        }
        if let cache = headers[.cacheControl] {
            if !cache.contains("private"), !cache.contains("no-store") {
                headers[.cacheControl] = "private, " + cache
            }
        } else {
            headers[.cacheControl] = "private, no-cache"
        }
    }
}
