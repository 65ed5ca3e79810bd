import HTTPTypes
import Hummingbird

/// The server's routes and the middleware every request passes first, as one `Router`.
///
/// Each route belongs to a group that declares who it is for (``Scope``), and declares what it
/// needs itself (``Endpoint``); ``AccessPolicy`` decides every request by the two, and nothing else
/// does. The router matches on the path as it came, still percent-encoded: a trip's name in it is
/// decoded exactly once, by ``TripName``, and then checked.
public enum Routes {
    /// The router for `workspace`, served at `boundHost` with `settings`; `log`, when given, takes
    /// each request's line.
    public static func router(
        workspace: Workspace, settings: ServerSettings, boundHost: String, accounts: AccountService? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) -> Router<ServerContext> {
        table(workspace: workspace, settings: settings, boundHost: boundHost, accounts: accounts, log: log).router
    }

    /// The router, and what each of its routes declared.
    static func table(
        workspace: Workspace, settings: ServerSettings, boundHost: String, accounts: AccountService?,
        log: (@Sendable (String) -> Void)? = nil
    ) -> RouteTable {
        let router = Router(context: ServerContext.self)
        if let log { router.add(middleware: RequestLogMiddleware(log: log)) }
        // Outside the refusals, so that a refusal follows the rules too.
        router.add(middleware: ResponseRulesMiddleware(perClient: accounts != nil || settings.token != nil))
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: HostMiddleware(boundHost: boundHost, publicURL: settings.publicURL))
        router.add(middleware: Authenticator(settings: settings, workspace: workspace, accounts: accounts))
        let table = RouteTable(
            router: router,
            policy: AccessPolicy(
                origin: OriginRule(publicURL: settings.publicURL), csrf: CSRFRule(formLimit: Form.limit)))
        table.group("docs/diagnostics", .public).resource(":code", [.get: .read(Pages.diagnostic)])
        // The map's files: Leaflet, the base map's outlines and the app's script.
        let assets = table.group("assets", .public)
        for name in MapAssets.files.keys.sorted() {
            assets.resource(RouterPath(name), [.get: .read(MapAssets.serve(name))])
        }
        let trips = table.group("", .trips(.own))
        // The app: the destination list is the home page; the index of trip files is `/trips`.
        trips.resource("/", [.get: .read(AppPages.destinations)])
        trips.resource("trips", [.get: .read(Pages.index), .post: .write(AppForms.addTrip)])
        trips.resource("new-trip", [.get: .read(AppForms.newTripForm)])
        addApp(to: trips, under: "trips/:name")
        trips.resource("destinations/new", [.get: .read(AppForms.newDestination)])
        trips.resource("destinations", [.post: .write(AppForms.addDestination)])
        trips.resource("places", [.get: .read(AppPlaces.search)])
        trips.resource("places/nearest", [.get: .read(AppPlaces.nearest)])
        trips.resource("/calendar.ics", [.get: .read(Pages.calendar, feed: .always)])
        // A trip's pages: the preview, its formats (`NAME.EXT`) and its live-reload stream.
        trips.resource("trips/:name", [.get: .read(Pages.trip, feed: .whenCalendar)])
        trips.resource("trips/:name/events", [.get: .read(Pages.events)], head: false)
        // The sync API (docs/openapi.yaml).
        let api = table.group("api/v1/trips", .trips(.own))
        api.resource("", [.get: .read(API.list)])
        // One handler for both routes: through a share the policy refuses it before it runs.
        let delete: Handler = API.delete
        api.resource(":name", [.get: .read(API.read), .put: .write(API.put), .delete: .write(delete)])
        guard let accounts else { return table }
        AccountPages(accounts: accounts).add(to: table)
        // Sharing: the owner's members API and form, and the trips shared with the account.
        let sharing = Sharing(accounts: accounts)
        api.resource(":name/members", [.get: .read(sharing.list)])
        api.resource(":name/members/:email", [.put: .write(sharing.put), .delete: .write(sharing.delete)])
        trips.resource("trips/:name/members", [.post: .write(sharing.form)])
        let shared = table.group("shared/:owner/trips", .trips(.shared))
        shared.resource(":name", [.get: .read(Pages.trip, feed: .whenCalendar)])
        shared.resource(":name/events", [.get: .read(Pages.events)], head: false)
        addApp(to: shared, under: ":name")
        table.group("api/v1/shared/:owner/trips", .trips(.shared))
            .resource(":name", [.get: .read(API.read), .put: .write(API.put), .delete: .owner(delete)])
        return table
    }
}

extension Routes {
    /// The app's pages and forms of the trip at `trip` in `group`: its destinations and their
    /// detours, each change a write the policy decides as it decides a `PUT`.
    static func addApp(to group: RouteTable.Group, under trip: RouterPath) {
        let stay = trip.appendingPath("destinations/:number")
        let detour = stay.appendingPath("detours/:detour")
        group.resource(stay, [.get: .read(AppPages.destination)])
        group.resource(
            stay.appendingPath("delete"), [.get: .write(AppDetours.confirmDelete), .post: .write(AppDetours.delete)])
        group.resource(stay.appendingPath("detours"), [.post: .write(AppDetours.addDetour)])
        group.resource(detour, [.get: .read(AppDetours.detour)])
        group.resource(
            detour.appendingPath("delete"), [.get: .write(AppDetours.confirmDelete), .post: .write(AppDetours.delete)])
        group.resource(detour.appendingPath("tasks"), [.post: .write(AppDetours.addTask)])
        group.resource(detour.appendingPath("tasks/:side"), [.post: .write(AppDetours.notes)])
    }
}

/// A route's handler.
typealias Handler = @Sendable (Request, ServerContext) async throws -> Response

/// The router being built, and what each route declared: the only way the server adds a route.
///
/// A route added to the router any other way has no policy; ``undeclared`` finds it, and the
/// authorization matrix test fails on it.
final class RouteTable {
    let router: Router<ServerContext>
    let policy: AccessPolicy
    /// Each route's `METHOD path` and its group's scope.
    private(set) var declared: [String: Scope] = [:]

    init(router: Router<ServerContext>, policy: AccessPolicy) {
        self.router = router
        self.policy = policy
    }

    /// The routes under `path`, all for `scope`.
    func group(_ path: RouterPath, _ scope: Scope) -> Group {
        Group(table: self, path: path, scope: scope)
    }

    /// The routes of the router that declared no scope, as `METHOD path`.
    func undeclared() -> [String] {
        router.routes.map { Self.key($0.method, $0.path) }.filter { declared[$0] == nil }.sorted()
    }

    static func key(_ method: HTTPRequest.Method, _ path: RouterPath) -> String {
        "\(method) \(path.description.isEmpty ? "/" : path.description)"
    }

    /// Routes under one path, for one scope.
    struct Group {
        let table: RouteTable
        let path: RouterPath
        let scope: Scope

        /// Routes `path`'s methods to `endpoints`, HEAD to GET's unless `head` is false, each
        /// behind the policy; every other method the server knows answers 405 with the methods
        /// it takes.
        func resource(_ path: RouterPath, _ endpoints: KeyValuePairs<HTTPRequest.Method, Endpoint>, head: Bool = true) {
            resource(path, endpoints.map { ($0.key, $0.value) }, head: head)
        }

        func resource(_ path: RouterPath, _ endpoints: [(HTTPRequest.Method, Endpoint)], head: Bool = true) {
            let full = self.path.appendingPath(path)
            var taken: [(HTTPRequest.Method, Endpoint)] = []
            for (method, endpoint) in endpoints {
                taken.append((method, endpoint))
                if method == .get, head { taken.append((.head, endpoint)) }
            }
            let allowed = taken.map(\.0)
            let (policy, scope) = (table.policy, self.scope)
            for (method, given) in taken {
                // A method that changes something needs at least the right to write, whatever
                // the route said.
                let endpoint =
                    method.isRead
                    ? given : Endpoint(right: max(given.right, .write), feed: .never, handler: given.handler)
                table.router.on(full, method: method) { request, context in
                    let (request, context) = try await policy.decide(
                        scope, endpoint, request: request, context: context)
                    return try await endpoint.handler(request, context)
                }
                table.declared[RouteTable.key(method, full)] = scope
            }
            for method in ProblemMiddleware.knownMethods where !allowed.contains(method) {
                table.router.on(full, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed) }
                table.declared[RouteTable.key(method, full)] = scope
            }
        }
    }
}
