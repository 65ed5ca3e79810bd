import ArgumentParser
import DetourCore
import DetourIO
import DetourJob

/// The options of `detour-report serve`, declared once: `detour-report` parses them (for its
/// help, man page and completions, and to report a usage error as every command does), then
/// hands the same arguments to `detour-report-serve`, which parses them again and serves.
///
/// The server is its own executable so that `render`, the main job, does not pay at start-up
/// for the server's libraries (SwiftNIO and Hummingbird add about a third to the protocol
/// conformances every run looks through).
public struct ServeOptions: ParsableArguments {
    public init() {}

    @Argument(
        help: ArgumentHelp("The folder of trips.", valueName: "dir"),
        completion: .directory)
    public var folder: String = "."

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    public var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 takes a free one.", valueName: "port"))
    public var port = 8080

    @Option(
        help: ArgumentHelp(
            "The day every plan is as of (YYYY-MM-DD). Default: the UTC day of SOURCE_DATE_EPOCH when set, else today's local date at each request.",
            valueName: "day"))
    public var today: String?

    @OptionGroup public var plan: PlanOptions

    @OptionGroup public var print: PrintOptions

    @Option(
        help: ArgumentHelp(
            "Load the report and index templates from this folder instead of the built-in ones.", valueName: "dir"),
        completion: .directory)
    public var templates: String?

    @Flag(name: .customLong("read-only"), help: "Refuse every write to the API (405).")
    public var readOnly = false

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "Require the token in this file (its first line, at least 16 characters): Authorization: Bearer TOKEN, or ?token=TOKEN for pages and feeds. Needed to listen on an address other than loopback.",
            valueName: "file"), completion: .file())
    public var tokenFile: String?

    @Option(
        help: ArgumentHelp(
            "Look for changed trips every this many seconds instead of being told by the system (network drives, containers).",
            valueName: "seconds"))
    public var poll: Double?

    @OptionGroup public var inputLimit: InputLimitOption

    @Option(
        name: .customLong("cache-mib"),
        help: ArgumentHelp(
            "The most rendered output kept to answer again, in MiB; the output used longest ago goes first.",
            valueName: "mib"))
    public var cacheMib = 256

    @Option(
        name: .customLong("max-connections-per-client"),
        help: ArgumentHelp(
            "The most connections one client address may hold open at once (1 to 256); a connection past it is closed at once. The --trusted-proxy's own address is not held to it.",
            valueName: "n"))
    public var maxConnectionsPerClient = 32

    /// The fewest and most connections one client may be let hold.
    public static let connectionsPerClient = 1...256

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The address people reach the server at behind a proxy, such as https://trips.example.org: feed links and the index use it, and the server answers to its Host and Origin.",
            valueName: "url"))
    public var publicURL: String?

    @Option(
        help: ArgumentHelp(
            "A tile server for the app's maps, as a URL template with {z}, {x} and {y} (and {s} for its subdomains), such as https://tile.openstreetmap.org/{z}/{x}/{y}.png; without it, maps draw the country outlines the server carries, and ask nothing of anyone else.",
            valueName: "url-template"))
    public var tiles: String?

    @Option(
        name: .customLong("tiles-attribution"),
        help: ArgumentHelp(
            "With --tiles, the tile server's credit, shown on every map, such as 'OpenStreetMap contributors'.",
            valueName: "text"))
    public var tilesAttribution: String?

    @Flag(help: "Print no request log.")
    public var quiet = false

    @Flag(
        help:
            "Give every trip an owner: people register and log in, and each account's trips are the files in DIR/accounts/ID/."
    )
    public var accounts = false

    @Option(
        help: ArgumentHelp(
            "With --accounts, who may register: open (anyone), invite (with a code an account holder made) or closed.",
            valueName: "who"))
    public var registration: Registration?

    @Option(
        help: ArgumentHelp(
            "With --accounts, the accounts' database: sqlite:PATH, or postgres://USER@HOST/DATABASE for several servers sharing one set of accounts (the password from PGPASSWORD). Default: DIR/.detour/accounts.sqlite.",
            valueName: "url"))
    public var database: String?

    @Option(
        name: .customLong("min-password-length"),
        help: ArgumentHelp(
            "With --accounts, the fewest characters a new password may have (6 to 1024; default 8).", valueName: "n"))
    public var minPasswordLength: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "With --accounts, the address of the reverse proxy in front: the client's address (for the login throttle and the audit log) is then the last in its X-Forwarded-For.",
            valueName: "address"))
    public var trustedProxy: String?

    /// The lowest and highest `--min-password-length` (the accounts' password rule's own limits).
    public static let passwordLengths = 6...1024

    @OptionGroup public var diagnosticsOption: DiagnosticsOption
    /// How problems are written: `--diagnostics`.
    public var diagnostics: DiagnosticPrinter.Format { diagnosticsOption.format }

    /// Where problems go.
    public var printer: DiagnosticPrinter { DiagnosticPrinter(file: "detour-report", format: diagnostics) }

    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (0...65536).contains(cacheMib) else { throw ValidationError("--cache-mib must be between 0 and 65536") }
        guard Self.connectionsPerClient.contains(maxConnectionsPerClient) else {
            throw ValidationError(
                "--max-connections-per-client must be between \(Self.connectionsPerClient.lowerBound) and "
                    + "\(Self.connectionsPerClient.upperBound)")
        }
        if let poll, !(poll >= 0.1 && poll <= 3600) {
            throw ValidationError("--poll must be between 0.1 and 3600 seconds")
        }
        try validateAccounts()
    }

    /// The options of `--accounts` go with it, and never with `--token-file`.
    func validateAccounts() throws {
        guard accounts else {
            for (given, name) in [
                (registration != nil, "--registration"), (database != nil, "--database"),
                (minPasswordLength != nil, "--min-password-length"), (trustedProxy != nil, "--trusted-proxy"),
            ] where given {
                throw ValidationError("\(name) needs --accounts")
            }
            return
        }
        if tokenFile != nil {
            throw ValidationError(
                "--token-file is for a server without accounts; with --accounts, scripts use an account's API token")
        }
        try DatabaseURL.validate(option: database)
        if let minPasswordLength, !Self.passwordLengths.contains(minPasswordLength) {
            throw ValidationError("--min-password-length must be between 6 and 1024")
        }
    }
}

extension CompletionKind {
    /// Trip files: JSON and GPX, and folders to find them in.
    public static var tripFiles: CompletionKind { .file(extensions: TripFormat.allCases.map(\.rawValue)) }
}

extension Registration: ExpressibleByArgument {}
