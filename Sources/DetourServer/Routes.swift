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
        workspace: Workspace, settings: ServerSettings, boundHost: String, accounts: AccountService? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        if let log { router.add(middleware: RequestLogMiddleware(log: log)) }
        // Outside the refusals, so that a refusal follows the rules too.
        router.add(middleware: ResponseRulesMiddleware(perClient: accounts != nil || settings.token != nil))
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: HostMiddleware(boundHost: boundHost, publicURL: settings.publicURL))
        if let token = settings.token { router.add(middleware: TokenMiddleware(token: token)) }
        if settings.readOnly { router.add(middleware: ReadOnlyMiddleware()) }
        router.add(middleware: OriginMiddleware(publicURL: settings.publicURL))
        guard let accounts else {
            router.add(middleware: WorkspaceMiddleware(workspace: workspace))
            router.group("docs/diagnostics").resource(":code", [.get: Pages.diagnostic])
            addTrips(pages: router.group(), api: router.group("api/v1/trips"))
            return router
        }
        // With accounts, each request works on the trips of the account its session is of.
        router.add(
            middleware: SessionMiddleware(accounts: accounts, csrf: CSRFRule(formLimit: Form.limit)))
        router.group("docs/diagnostics").resource(":code", [.get: Pages.diagnostic])
        AccountPages(accounts: accounts).add(to: router)
        // A route of trips without a session: ServerContext.requireWorkspace says what to do.
        let pages = router.group()
        let api = router.group("api/v1/trips")
        addTrips(pages: pages, api: api)
        // Sharing: the owner's members API and form, and the trips shared with the account.
        let sharing = Sharing(accounts: accounts)
        api.resource(":name/members", [.get: sharing.list])
        api.resource(":name/members/:email", [.put: sharing.put, .delete: sharing.delete])
        pages.group("trips").resource(":name/members", [.post: sharing.form])
        let shared = router.group("shared/:owner/trips").add(middleware: ShareMiddleware(accounts: accounts))
        shared.resource(":name", [.get: Pages.trip])
        shared.resource(":name/events", [.get: Pages.events], head: false)
        router.group("api/v1/shared/:owner/trips").add(middleware: ShareMiddleware(accounts: accounts))
            .resource(":name", [.get: API.read, .put: API.put, .delete: Sharing.ownerOnly])
        return router
    }

    /// The routes of a folder of trips: the index, the calendar and each trip's pages on `pages`;
    /// the sync API (docs/openapi.yaml) on `api`.
    static func addTrips(pages: RouterGroup<ServerContext>, api: RouterGroup<ServerContext>) {
        pages.resource("/", [.get: Pages.index])
        pages.resource("/calendar.ics", [.get: Pages.calendar])
        // A trip's pages: the preview, its formats (`NAME.EXT`) and its live-reload stream.
        let trips = pages.group("trips")
        trips.resource(":name", [.get: Pages.trip])
        trips.resource(":name/events", [.get: Pages.events], head: false)
        api.resource("", [.get: API.list])
        api.resource(":name", [.get: API.read, .put: API.put, .delete: API.delete])
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
