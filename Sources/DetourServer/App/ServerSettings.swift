import DetourCore
import DetourJob
import DetourRender
import Foundation
import SystemPackage

/// What `detour-report serve` was asked for.
public struct ServerSettings: Sendable {
    /// The address to listen on: `127.0.0.1` unless told otherwise.
    public var host: String
    /// The port; 0 takes a free one.
    public var port: Int
    /// The day the plans are as of, read at each request: a fixed day (`--today`,
    /// `SOURCE_DATE_EPOCH`) or the local calendar's today, so a server left running crosses
    /// midnight.
    public var today: @Sendable () -> CalendarDay
    /// Seconds since 1970, for the `Date` of an answer the server repeats.
    ///
    /// `serve` gives the system's clock (``ResponseReplay`` dates what it repeats; Hummingbird
    /// dates the others). Without one, the server repeats no answer.
    public var unixSeconds: (@Sendable () -> Int64)?
    /// Travel mode, preference and day hours.
    public var planner: Planner.Options
    /// The templates, compiled once.
    public var templates: ReportTemplates
    /// Whether every write is refused (405).
    public var readOnly: Bool
    /// The token the API (and every page) needs, when one is set.
    public var token: String?
    /// How the folder is watched for changes.
    public var watch: FolderWatch.Mode
    /// Whether the request log is left out.
    public var quiet: Bool
    /// The largest request body, and the largest trip file read, in bytes.
    public var maxInputBytes: Int
    /// The most connections open at once; more wait in the listen queue.
    public var maxConnections: Int
    /// The most connections one client address may hold open at once (`--trusted-proxy`'s own
    /// address excepted).
    public var maxConnectionsPerClient = 32
    /// How long a connection may wait for a request's head: from its opening, or from the end of
    /// the last response.
    public var headerTimeout: Duration
    /// The most live-reload streams open at once, apart from the connections requests take.
    public var maxStreams: Int
    /// The largest request head (request line and headers), in bytes.
    public var maxHeaderBytes: Int
    /// The most bytes of rendered output kept to answer again.
    public var cacheBytes: Int
    /// The most renders at once: the cores.
    public var renderThreads: Int
    /// How long open requests may take to finish once a stop is asked for.
    public var shutdownGrace: Duration
    /// Where people reach the server behind a proxy, when told (`--public-url`).
    public var publicURL: PublicURL?
    /// The address of the reverse proxy whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    public var trustedProxy: String?
    /// The browser and paper PDFs are printed with, when the server has a browser.
    public var printing: RenderJob.Printing?
    /// Why the server prints no PDF, when it has no browser: the install hint.
    public var noPrinting: String = "this server has no browser to print PDF with"
    /// What names a new destination after the place a person picked (``GazetteerPlaces`` for
    /// `serve`); by default no place is known, and the person names it.
    public var places: any PlaceFinder = NoPlaces()
    /// The tile server the maps draw from, when one is configured; by default they draw Natural
    /// Earth's outlines, served by the server itself.
    public var tiles: TileLayer?

    /// The most connections a server holds at once when the process may open `openFiles` files.
    ///
    /// Each connection takes a descriptor; 256 are kept for everything else (trip files, the
    /// database, the watch, the browser that prints PDFs), and no more than 4,096 connections
    /// are held, whatever the limit: past that, memory runs out before descriptors do. Never fewer
    /// than 32, one client's share.
    public static func connectionCap(openFiles: Int) -> Int {
        max(32, min(4096, openFiles - 256))
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, today: @escaping @Sendable () -> CalendarDay,
        planner: Planner.Options = Planner.Options(), templates: ReportTemplates, readOnly: Bool = false,
        token: String? = nil, watch: FolderWatch.Mode = .inotify, quiet: Bool = false,
        maxInputBytes: Int = 16 << 20, maxConnections: Int = 256,
        headerTimeout: Duration = .seconds(10), maxStreams: Int = 64, maxHeaderBytes: Int = 16 << 10,
        cacheBytes: Int = 256 << 20,
        renderThreads: Int = ProcessInfo.processInfo.activeProcessorCount, shutdownGrace: Duration = .seconds(2),
        publicURL: PublicURL? = nil
    ) {
        self.host = host
        self.port = port
        self.today = today
        self.planner = planner
        self.templates = templates
        self.readOnly = readOnly
        self.token = token
        self.watch = watch
        self.quiet = quiet
        self.maxInputBytes = maxInputBytes
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.maxStreams = maxStreams
        self.maxHeaderBytes = maxHeaderBytes
        self.cacheBytes = cacheBytes
        self.renderThreads = renderThreads
        self.shutdownGrace = shutdownGrace
        self.publicURL = publicURL
    }
}
