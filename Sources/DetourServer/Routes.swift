import HTTPTypes
import Hummingbird

/// The server's routes and the middleware every request passes first, as one `Router`.
///
/// The router matches on the path as it came, still percent-encoded: a trip's name in it is
/// decoded exactly once, by ``TripName``, and then checked.
public enum Routes {
    /// The router for `workspace`, served at `boundHost` with `settings`; `log`, when given, takes
    /// each request's line.
    public static func router(
        workspace: Workspace, settings: ServerSettings, boundHost: String,
        log: (@Sendable (String) -> Void)? = nil
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        if let log { router.add(middleware: RequestLogMiddleware(log: log)) }
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: HostMiddleware(boundHost: boundHost, publicURL: settings.publicURL))
        if let token = settings.token { router.add(middleware: TokenMiddleware(token: token)) }
        if settings.readOnly { router.add(middleware: ReadOnlyMiddleware()) }
        router.add(middleware: OriginMiddleware(publicURL: settings.publicURL))
        router.add(middleware: WorkspaceMiddleware(workspace: workspace))

        router.resource("/", [.get: Pages.index])
        router.resource("/calendar.ics", [.get: Pages.calendar])
        router.group("docs/diagnostics").resource(":code", [.get: Pages.diagnostic])
        // A trip's pages: the preview, its formats (`NAME.EXT`) and its live-reload stream.
        let trips = router.group("trips")
        trips.resource(":name", [.get: Pages.trip])
        trips.resource(":name/events", [.get: Pages.events], head: false)
        // The sync API (docs/openapi.yaml).
        let api = router.group("api/v1/trips")
        api.resource("", [.get: API.list])
        api.resource(":name", [.get: API.read, .put: API.put, .delete: API.delete])
        return router
    }
}

/// A route's handler.
typealias Handler = @Sendable (Request, ServerContext) async throws -> Response

extension RouterMethods where Context == ServerContext {
    /// Routes `path`'s methods to `handlers`, HEAD to GET's handler unless `head` is false, and
    /// every other method the server knows to 405 with the methods it takes.
    func resource(_ path: RouterPath, _ handlers: KeyValuePairs<HTTPRequest.Method, Handler>, head: Bool = true) {
        var taken: [(HTTPRequest.Method, Handler)] = []
        for (method, handler) in handlers {
            taken.append((method, handler))
            if method == .get, head { taken.append((.head, handler)) }
        }
        let allowed = taken.map(\.0)
        for (method, handler) in taken {
            on(path, method: method, use: handler)
        }
        for method in ProblemMiddleware.knownMethods where !allowed.contains(method) {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed) }
        }
    }
}
