import HTTPTypes
import Hummingbird

/// Cross-site request forgery, on a server with accounts: refused (``AccessPolicy`` applies it).
///
/// A request that changes something and is signed in by its cookie must come from the server's
/// own pages. Its origin must be the server's, as for any write (``OriginRule``), and it
/// must carry its session's form token, as the `csrf` field of a form or the `X-CSRF-Token` header
/// (OWASP's synchronizer token). A request signed in by a bearer token need not: browsers send no
/// such header by themselves. The login and registration forms (``Scope/signingIn``) need the
/// origin only: logging in or registering again from an old tab begins a new session, and that
/// page had no token to send.
struct CSRFRule {
    /// The form field that carries the token.
    static let formField = "csrf"
    static let header = HTTPField.Name.known("X-CSRF-Token")

    /// The largest form read for its token.
    let formLimit: Int

    /// `request` as it goes on (its body read when the token was looked for in it).
    ///
    /// Refused (403) when it breaks the rule. `identity` signed it in by its session cookie; its
    /// origin was checked before (``OriginRule``).
    func check(_ request: Request, identity: Identity) async throws -> Request {
        var request = request
        var token = request.headers[Self.header]
        if token == nil, request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true {
            let body = try await request.collectBody(upTo: formLimit)
            token = try Form.decode(FormToken.self, from: body).csrf
        }
        guard let token, Authenticator.constantTimeEqual(token, identity.formToken) else { throw Self.refused }
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
