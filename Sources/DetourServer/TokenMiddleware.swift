import HTTPTypes
import Hummingbird

/// The token rule: with a token, every request carries it (401 otherwise), and the context says
/// what it grants (``Access``).
///
/// The token comes as `Authorization: Bearer …`, which grants everything. A read (GET, HEAD) may
/// also carry it as a `token` query parameter or the cookie such a read sets, which grant reads:
/// browsers and calendar programs fetch pages and feeds without headers. A write takes the bearer
/// token only, so no link or cookie can make one.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let token: String

    /// The cookie a request with the right `token` parameter sets, for the pages it links to.
    static let cookieName = "detour_report_token"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let access = access(of: request) else {
            throw Problem(
                .unauthorized, .tokenRequired, "this server needs its token",
                fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\"")])
        }
        var context = context
        context.access = access
        var response = try await next(request, context)
        // A page opened with `?token=` sets the cookie, so the pages and streams it loads carry it.
        if access == .reads(viaLink: true), response.status.code < 400 {
            response.headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// What `request` may do, or `nil` when it does not carry the token as it must.
    func access(of request: Request) -> Access? {
        if let authorization = request.headers[.authorization], let given = Self.bearerToken(authorization),
            Self.constantTimeEqual(given, token)
        {
            return .everything
        }
        guard request.method.isRead else { return nil }
        if let given = request.uri.queryParameters["token"], Self.constantTimeEqual(String(given), token) {
            return .reads(viaLink: true)
        }
        if let given = Cookies.value(Self.cookieName, in: request.headers), Self.constantTimeEqual(given, token) {
            return .reads(viaLink: false)
        }
        return nil
    }

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
