/// The address people reach the server at when it sits behind a proxy (`--public-url`): the
/// scheme and authority feed links and the index use, and a Host and Origin the server answers
/// to besides its own.
public struct PublicURL: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// `host` or `host:port`, as a `Host` field carries it.
    public let authority: String

    /// The URL in `text`, `http(s)://HOST[:PORT]` with at most a `/` after it, or `nil` with why
    /// not in `problem`.
    public init?(_ text: String, problem: inout String) {
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            problem = "must start with http:// or https://"
            return nil
        }
        var authority = String(text.dropFirst(scheme.count + 3))
        if authority.hasSuffix("/") { authority.removeLast() }
        guard let host = HostMiddleware.hostName(authority), !host.isEmpty, !authority.contains("/") else {
            problem = "must be a scheme and a host, with a port if need be, and no path (https://trips.example.org)"
            return nil
        }
        self.scheme = scheme
        self.authority = authority.lowercased()
        self.host = host.lowercased()
    }

    /// The URL's host, without the port.
    let host: String

    /// The scheme and authority people reach the server at: the public URL's when there is one,
    /// else HTTP at `authority`, the one the request came to.
    static func reached(_ publicURL: PublicURL?, at authority: String) -> (scheme: String, authority: String) {
        guard let publicURL else { return ("http", authority) }
        return (publicURL.scheme, publicURL.authority)
    }

    /// The origin a browser sends from a page of it: `https://trips.example.org`.
    var origin: String { "\(scheme)://\(authority)" }
}
