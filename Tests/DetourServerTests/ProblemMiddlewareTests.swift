import DetourJob
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DetourServer

/// Every refusal, from a route, a middleware, the store or the router itself, is answered in one
/// place as one JSON object with a stable code.
@Suite struct ProblemMiddlewareTests: SiteDriving {
    /// A router with the problem middleware and `handlers` at `/x`, and no workspace.
    func answers(
        _ method: HTTPRequest.Method, _ path: String, handlers: KeyValuePairs<HTTPRequest.Method, Handler>,
        scope: Scope = .public
    ) async throws -> TestResponse {
        let router = Router(context: ServerContext.self)
        router.add(middleware: ProblemMiddleware())
        let table = RouteTable(
            router: router, policy: AccessPolicy(origin: OriginRule(publicURL: nil), csrf: CSRFRule(formLimit: 1)))
        table.group("", scope).resource("/x", handlers.map { ($0.key, Endpoint.read($0.value)) })
        return try await Application(router: router).test(.router) { client in
            try await client.execute(uri: path, method: method)
        }
    }

    @Test func eachKindOfErrorHasItsStatusAndCode() async throws {
        struct Unexpected: Error {}
        let name = try #require(TripName(decoded: "x"))
        let cases: [(Handler, Int, String)] = [
            ({ _, _ in throw Problem.clash(name) }, 409, "name-clash"),
            ({ _, _ in throw StoreFailure.full }, 507, "disk-full"),
            ({ _, _ in throw StoreFailure.failed("Permission denied") }, 500, "store-failed"),
            ({ _, _ in throw HTTPError(.badRequest) }, 400, "http-error"),
            ({ _, _ in throw Unexpected() }, 500, "server-fault"),
        ]
        for (handler, status, code) in cases {
            let response = try await answers(.get, "/x", handlers: [.get: handler])
            #expect(response.status.code == status)
            #expect(body(response).contains("{\"error\":{\"code\":\"\(code)\""), "\(body(response))")
            #expect(response.headers[.contentType] == "application/json")
        }
    }

    /// No route: 404 for a method the server knows, 501 for one it does not (RFC 9110 §15.6.2);
    /// a route that does not take a known method: 405 with the methods it takes.
    @Test func aPathOrMethodWithoutARoute() async throws {
        let ok: Handler = { _, _ in Response(status: .ok) }
        let missing = try await answers(.get, "/y", handlers: [.get: ok])
        #expect(missing.status == .notFound)
        #expect(body(missing).contains("\"code\":\"not-found\""))
        let unknown = try await answers(try #require(HTTPRequest.Method("PROPFIND")), "/x", handlers: [.get: ok])
        #expect(unknown.status == .notImplemented)
        #expect(body(unknown).contains("\"code\":\"method-not-implemented\""))
        let query = try #require(HTTPRequest.Method("QUERY"))
        for method in [HTTPRequest.Method.post, .put, .delete, .patch, .options, .trace, query] {
            let refused = try await answers(method, "/x", handlers: [.get: ok])
            #expect(refused.status == .methodNotAllowed, "\(method)")
            #expect(refused.headers[.allow] == "GET, HEAD")
        }
        #expect(try await answers(.head, "/x", handlers: [.get: ok]).status == .ok, "HEAD goes to GET's handler")
    }

    /// A problem that reaches Hummingbird without the middleware (a route added outside it) is
    /// answered the same way, by Hummingbird's own handling of an `HTTPResponseError`.
    @Test func aProblemAnswersTheSameWithoutTheMiddleware() async throws {
        let router = Router(context: ServerContext.self)
        router.get("/x") { _, _ -> Response in throw Problem.notFound }
        let response = try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/x", method: .get)
        }
        #expect(response.status == .notFound)
        #expect(body(response) == "{\"error\":{\"code\":\"not-found\",\"message\":\"no such trip or page\"}}\n")
    }

    /// A route of trips asked by no one signed in is refused by the policy, before its handler
    /// looks for trips: a page is sent to sign in.
    @Test func aRouteOfTripsWithoutAPrincipalIsRefusedBeforeItsHandler() async throws {
        for handler: Handler in [Pages.index, Pages.calendar, API.list] {
            let response = try await answers(.get, "/x", handlers: [.get: handler], scope: .trips(.own))
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/login")
        }
    }

    /// A handler of trips reached without the policy's grant is the server's fault, never another
    /// account's trips.
    @Test func aHandlerOfTripsWithoutAGrantIsAFault() async throws {
        for handler: Handler in [Pages.index, Pages.calendar, API.list] {
            let response = try await answers(.get, "/x", handlers: [.get: handler])
            #expect(response.status == .internalServerError)
        }
    }
}
