import DetourJob
import Foundation
import HTTPTypes
import Hummingbird

/// The checks every request passes before its route.
///
/// Each refuses with its own status:
/// - `Host` must name the bound address or `localhost` (421 otherwise): a page on another site
///   cannot reach the server through a DNS name it controls (DNS rebinding). A server bound to
///   every interface (`0.0.0.0`) needs a token, which protects it instead.
/// - With a token, every request carries it (401 otherwise), as `Authorization: Bearer …`. A
///   read (GET, HEAD) may also carry it as a `token` query parameter or the cookie such a read
///   sets: browsers and calendar programs fetch pages and feeds without headers. A write takes
///   the bearer token only, so no link or cookie can make one.
/// - With `--read-only`, every write is refused (405).
/// - A write whose `Origin` is another site is refused (403): a page elsewhere cannot post to
///   the API from a browser that has the cookie.
struct Guard {
    let settings: ServerSettings
    let boundHost: String

    /// The cookie a request with the right `token` parameter sets, for the pages it links to.
    static let cookieName = "detour_report_token"

    func refusal(of request: Request) -> Response? {
        guard let host = Guard.authority(of: request) else {
            return Replies.problem(.badRequest, "no-host", "the request has no Host header")
        }
        // RFC 9112 §3.2: exactly one Host, and a valid one, or 400.
        guard request.headers[values: Guard.hostField].isEmpty, let name = Guard.hostName(host) else {
            return Replies.problem(.badRequest, "bad-host", "the request needs exactly one valid Host header")
        }
        if !ListenAddress.isWildcard(boundHost), !allows(host: name), name.lowercased() != settings.publicURL?.host {
            return Replies.problem(
                .misdirectedRequest, "host-refused",
                "this server answers to \(boundHost) and localhost only (a DNS rebinding guard)")
        }
        let writes = !request.method.isRead
        if let token = settings.token, !Guard.carries(token, request: request, allowingQuery: !writes) {
            var response = Replies.problem(.unauthorized, "token-required", "this server needs its token")
            response.headers[.wwwAuthenticate] = "Bearer realm=\"detour-report\""
            return response
        }
        if writes, settings.readOnly {
            return Replies.problem(
                .methodNotAllowed, "read-only", "the server was started with --read-only", allow: "GET, HEAD")
        }
        if writes, let origin = request.headers[.origin], origin != "http://\(host)", origin != "https://\(host)",
            origin.lowercased() != settings.publicURL?.origin
        {
            return Replies.problem(.forbidden, "origin-refused", "a write from another site is refused")
        }
        return nil
    }

    /// Whether `name` (without port) is the bound address, or, on loopback, any loopback name:
    /// `localhost`, `127.0.0.1`, `[::1]` (no page elsewhere can make a browser send one of those
    /// for a name it controls, which is what the check is for).
    func allows(host name: String) -> Bool {
        let lowered = name.lowercased()
        if lowered == boundHost.lowercased() || lowered == "[\(boundHost.lowercased())]" { return true }
        guard ListenAddress.isLoopback(boundHost) else { return false }
        return lowered == "[::1]" || ListenAddress.isLoopback(lowered)
    }

    /// A second `Host` field: the first is the request's authority, any other stays a field.
    static let hostField: HTTPField.Name = {
        if let name = HTTPField.Name("Host") { return name }
        // A valid field name always makes one; a field no request repeats stands in.
        return .via
    }()

    /// The request's `Host` (`host:port`), as HTTP/1.1 carries it.
    static func authority(of request: Request) -> String? {
        request.head.authority
    }

    /// `host:port` without the port (`[::1]:8080` gives `[::1]`), or `nil` when `authority` is no
    /// valid `Host` (RFC 9110 §7.2: a name, an IPv4 or a bracketed IPv6 address, then at most a
    /// port of digits; no user, no path).
    static func hostName(_ authority: String) -> String? {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            host = authority[...end]
            rest = authority[authority.index(after: end)...]
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            host = authority.prefix { $0 != ":" }
            rest = authority[host.endIndex...]
            // A reg-name or IPv4 address as URIs allow it, less the percent-encoding no client sends.
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
            guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }) else { return nil }
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
        }
        return String(host)
    }

    /// Whether `request` carries `token`: as a bearer token, or (reads only) as the `token`
    /// query parameter or the cookie.
    static func carries(_ token: String, request: Request, allowingQuery: Bool) -> Bool {
        if let authorization = request.headers[.authorization], let given = bearerToken(authorization),
            constantTimeEqual(given, token)
        {
            return true
        }
        guard allowingQuery else { return false }
        if let given = request.uri.queryParameters["token"], constantTimeEqual(String(given), token) { return true }
        for cookie in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let parts = cookie.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookieName, constantTimeEqual(parts[1], token) { return true }
        }
        return false
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
