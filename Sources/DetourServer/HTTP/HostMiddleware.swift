import HTTPTypes
import Hummingbird

/// The `Host` rule: exactly one valid `Host` (400 otherwise, RFC 9112 §3.2), naming the bound
/// address, `localhost` or the public URL's host (421 otherwise).
///
/// A page on another site cannot reach the server through a DNS name it controls (DNS
/// rebinding). A server bound to every interface (`0.0.0.0`) needs a token, which protects it
/// instead.
struct HostMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let boundHost: String
    let publicURL: PublicURL?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let problem = refusal(authority: request.head.authority, more: request.headers[values: Self.hostField]) {
            throw problem
        }
        return try await next(request, context)
    }

    /// The problem with a request whose authority is `authority` and whose other `Host` fields
    /// are `more`, or `nil` when the server answers it.
    func refusal(authority: String?, more: [String]) -> Problem? {
        guard let authority else {
            return Problem(.badRequest, .noHost, "the request has no Host header")
        }
        guard more.isEmpty, let name = Self.hostName(authority) else {
            return Problem(.badRequest, .badHost, "the request needs exactly one valid Host header")
        }
        if !ListenAddress.isWildcard(boundHost), !allows(host: name), name.lowercased() != publicURL?.host {
            return Problem(
                .misdirectedRequest, .hostRefused,
                "this server answers to \(boundHost) and localhost only (a DNS rebinding guard)")
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
            guard !host.isEmpty, host.utf8.allSatisfy(isUnreserved) else { return nil }
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
        }
        return String(host)
    }

    /// Whether `byte` is an unreserved character of a URI (RFC 3986 §2.3).
    ///
    /// That is a letter, a digit, `-`, `.`, `_` or `~`. Asked of every byte of every request's `Host`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
