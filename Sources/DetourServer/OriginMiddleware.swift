import HTTPTypes
import Hummingbird

/// The origin rule: a write whose `Origin` is another site is refused (403), so a page elsewhere
/// cannot write through the API from a browser that has the cookie.
///
/// The server's own origin is the request's `Host` over HTTP or HTTPS, or the public URL's.
struct OriginMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let publicURL: PublicURL?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if !request.method.isRead, let origin = request.headers[.origin], !isOwn(origin, host: request.head.authority) {
            throw Problem(.forbidden, "origin-refused", "a write from another site is refused")
        }
        return try await next(request, context)
    }

    /// Whether `origin` is the server's, reached at `host`.
    func isOwn(_ origin: String, host: String?) -> Bool {
        if let host, origin == "http://\(host)" || origin == "https://\(host)" { return true }
        return origin.lowercased() == publicURL?.origin
    }
}
