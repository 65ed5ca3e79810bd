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
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether `host` is the wildcard address, which listens on every interface.
    public static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::"
    }
}
