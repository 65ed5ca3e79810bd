import NIOCore

/// What kind of address the server listens on: the one rule `serve`'s options (a non-loopback
/// address needs a token) and the server's Host check (loopback answers to `localhost` too) share.
public enum ListenAddress {
    /// Why `host` cannot be served on as `serve` was asked to, if it cannot: a non-loopback
    /// address needs a token.
    public static func refusal(host: String, hasToken: Bool) -> String? {
        guard !hasToken, !isLoopback(host) else { return nil }
        return "--host \(host) is not a loopback address; anyone who can reach it could read and change the trips. "
            + "Give --token-file FILE (a secret of 16 characters or more), or serve on 127.0.0.1 behind a reverse proxy"
    }

    /// Whether `host` is a loopback address.
    ///
    /// `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8 written as one (`127.0.0.1`); a name
    /// that only starts like one (`127.0.0.1.example.org`) is any name, which DNS can point
    /// anywhere.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part),
                value < 256
            else { return false }
        }
        return true
    }

    /// Whether `host` is the wildcard address, which listens on every interface.
    public static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::"
    }

    /// Whether `text` is an IPv4 or IPv6 address written as one, as SwiftNIO reads it
    /// (`inet_pton`): no name, no port, no other text.
    public static func isIPAddress(_ text: String) -> Bool {
        guard text.count <= 45, text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == ":") }) else {
            return false
        }
        return (try? SocketAddress(ipAddress: text, port: 0)) != nil
    }
}
