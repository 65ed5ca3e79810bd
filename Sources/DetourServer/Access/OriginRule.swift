import HTTPTypes
import Hummingbird

/// The origin rule: a write from another site is refused (403), so a page elsewhere cannot write
/// through the API, log in or register from a browser that has the cookie (``AccessPolicy``
/// applies it).
///
/// A write comes from another site when its `Origin` is not the server's own, or, without an
/// `Origin`, when its `Sec-Fetch-Site` is neither `same-origin` nor `none` (typed or bookmarked).
/// The server's own origin is the public URL's, scheme and all; reached at another authority
/// than the public URL's (on loopback, not through the proxy), it is `http://` and that
/// authority, since the server itself speaks plain HTTP.
struct OriginRule {
    let publicURL: PublicURL?

    static let refused = Problem(.forbidden, .originRefused, "a write from another site is refused")

    static let secFetchSite = HTTPField.Name.known("Sec-Fetch-Site")

    /// Whether `request` comes from the server's own pages, or from no page at all (a script).
    func isFromOwnSite(_ request: Request) -> Bool {
        if let origin = request.headers[.origin] { return isOwn(origin, host: request.head.authority) }
        guard let site = request.headers[Self.secFetchSite] else { return true }
        return site == "same-origin" || site == "none"
    }

    /// Whether `origin` is the server's, reached at `host`.
    func isOwn(_ origin: String, host: String?) -> Bool {
        let given = origin.lowercased()
        if let publicURL, given == publicURL.origin { return true }
        guard let host = host?.lowercased(), HostMiddleware.hostName(host) != publicURL?.host else { return false }
        return given == "http://\(host)"
    }
}
