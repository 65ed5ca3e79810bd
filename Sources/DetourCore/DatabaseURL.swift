/// Where the accounts of `serve --accounts` and `detour-report user` are kept, as `--database`
/// names it: an SQLite file, or a PostgreSQL server that several servers share.
///
/// Only the form is read here, so that the command line can refuse a mistyped value before
/// anything starts; the PostgreSQL address itself is read where it is connected to.
public enum DatabaseURL: Equatable, Sendable {
    /// `sqlite:PATH`: the SQLite file at `PATH`.
    case sqlite(path: String)
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or `postgres+uds://USER@localhost/SOCKET#DATABASE`
    /// for a server reached by its Unix socket (`postgresql` is the same as `postgres`).
    case postgres(url: String)

    /// The schemes of a PostgreSQL address.
    public static let postgresSchemes = [
        "postgres", "postgresql", "postgres+tcp", "postgresql+tcp", "postgres+uds", "postgresql+uds",
    ]

    /// The environment variable a PostgreSQL password is read from when the address has none
    /// (libpq's own), so that it is never an argument that other users can see.
    public static let passwordVariable = "PGPASSWORD"

    /// What `--database` takes, for messages.
    public static let forms = "sqlite:PATH or postgres://USER@HOST/DATABASE"

    /// The location `text` names, or `nil` when it has neither form (or names no file).
    public init?(_ text: String) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return nil }
            self = .sqlite(path: path)
            return
        }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://"),
            DatabaseURL.postgresSchemes.contains(text[..<colon].lowercased())
        else { return nil }
        self = .postgres(url: text)
    }
}
