/// What kind of address the server listens on: the one rule `serve`'s options (a non-loopback
/// address needs a token) and the server's Host check (loopback answers to `localhost` too) share.
public enum ListenAddress {
    /// Whether `host` is a loopback address.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether `host` is the wildcard address, which listens on every interface.
    public static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::"
    }
}
