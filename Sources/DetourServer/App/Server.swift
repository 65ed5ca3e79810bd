import DetourCore
import DetourJob
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SystemPackage
import UnixSignals

/// `detour-report serve`: the folder's trips over HTTP until SIGINT or SIGTERM.
public enum TripServer {
    /// Serves `store` with `settings`; `announce` is called with the URL once the server listens,
    /// and `log` with each request's line unless the settings say quiet.
    public static func run(
        store: some TripStore, folderPath: FilePath, settings: ServerSettings, accounts: AccountService? = nil,
        announce: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void
    ) async throws {
        // What writes cut off by a crash left, before any request: holding the lock, so a write of
        // another server on the folder is never taken for one.
        _ = try? store.withLock { () throws(StoreFailure) -> Int in try store.removeLeftovers() }
        // One set of threads, cache and watch for the server, whatever number of folders it serves.
        let resources = accounts?.resources ?? ServerResources(settings: settings)
        let workspace = Workspace(store: store, settings: settings, folder: folderPath, resources: resources)
        let app = application(
            workspace: workspace, settings: settings, accounts: accounts, announce: announce,
            log: settings.quiet ? nil : log)
        var logger = Logger(label: "detour-report")
        logger.logLevel = .critical
        // On SIGTERM or SIGINT the server stops taking connections and gives open requests
        // `shutdownGrace` to finish; then every connection is closed, and an upload not finished
        // by then is not stored. A stalled or trickling client cannot keep the process alive.
        var configuration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = settings.shutdownGrace
        configuration.maximumCancellationDuration = settings.shutdownGrace
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServeFailure.portInUse(settings.port)
        }
    }

    /// The server of `workspace` with `settings` (and `accounts`, when given), built apart from
    /// running it: the binary runs it, and tests drive this very application in process.
    ///
    /// Its services run with it: the accounts' database client, when it has one, and the folder
    /// watches. The HTTP server stops first, then the watches, then the database.
    public static func application(
        workspace: Workspace, settings: ServerSettings, accounts: AccountService? = nil, boundHost: String? = nil,
        announce: @escaping @Sendable (String) -> Void, log: (@Sendable (String) -> Void)?
    ) -> some ApplicationProtocol {
        let router = Routes.router(
            workspace: workspace, settings: settings, boundHost: boundHost ?? settings.host, accounts: accounts,
            log: log)
        // Hummingbird logs nothing at or above `.critical`, and it sets a request id in each
        // request's logger: swift-log's stream handler formats its metadata again on every set,
        // which cost a cached report 6 % of its time (perf). The server's own log is `log`.
        let logger = Logger(label: "detour-report") { _ in SwiftLogNoOpLogHandler() }
        let clients = ClientConnections(limit: settings.maxConnectionsPerClient, exempt: settings.trustedProxy)
        let idle = IdleConnections()
        let group = MultiThreadedEventLoopGroup.singleton
        // Where one answer is everyone's (no accounts, no token), a format of a trip is repeated
        // from the event loop while the folder is unchanged (``ResponseReplay``).
        let replay =
            accounts == nil && settings.token == nil
            ? settings.unixSeconds.map { unixSeconds in
                let (freshness, today) = (workspace.library.freshness, settings.today)
                return ReplayStores(group: group, log: log, unixSeconds: unixSeconds) {
                    freshness.trustedEpoch.map { ReplayStamp(epoch: $0, day: today()) }
                }
            } : nil
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                ServerChannel(
                    http: HTTP1Channel(
                        responder: responder,
                        configuration: HTTP1Channel.Configuration(
                            additionalChannelHandlers: [ExpectContinue(maxBodyBytes: settings.maxInputBytes)],
                            // A connection waiting for a request is closed by
                            // ``RequestHeadRules``' head timeout, which sees the answers
                            // ``WireReplay`` writes below Hummingbird's handlers as well.
                            idleTimeout: nil,
                            httpDecoderConfiguration: .init(
                                maxHeaderFieldSize: settings.maxHeaderBytes, maxHeaderListSize: settings.maxHeaderBytes,
                                maxHeaderFieldCount: 100))),
                    clients: clients, idle: idle, headerTimeout: TimeAmount(settings.headerTimeout),
                    maxBodyBytes: settings.maxInputBytes, replay: replay)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: nil,
                availableConnectionsDelegate: ConnectionBudget(cap: settings.maxConnections, idle: idle)),
            // Stopped in the reverse order: the database last.
            services: (accounts?.services ?? []) + [WatchService(workspace: workspace, accounts: accounts)],
            onServerRunning: { channel in
                guard let port = channel.localAddress?.port else { return }
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                announce("http://\(host):\(port)/")
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger)
    }
}

extension TripServer {
    /// The server's printer: the one browser `start` starts at the first PDF asked for.
    public static func printer(
        start: @escaping @Sendable () throws(PrintFailure) -> any PagePrinter
    ) -> any PagePrinter {
        FirstUsePrinter(start: start)
    }
}

/// Why the server could not start, in words a user can act on.
public enum ServeFailure: Error, Equatable {
    /// Another program listens on the port.
    case portInUse(Int)
}

/// The folder watches, as a service that stops with the server and then ends every live-reload
/// stream, so a stop does not wait on open preview pages.
struct WatchService: Service {
    let workspace: Workspace

    /// The accounts' workspaces, each watched from its first request on.
    let accounts: AccountService?

    /// With accounts, the folder's own trips are no one's: only the accounts' folders are watched.
    var watched: [Workspace] { (accounts == nil ? [workspace] : []) + (accounts?.openWorkspaces ?? []) }

    func run() async throws {
        if accounts == nil { workspace.startWatching() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: LiveReload.heartbeat)
                for workspace in watched { workspace.reload.beat() }
            }
        }
        for workspace in watched { workspace.stopWatching() }
    }
}
