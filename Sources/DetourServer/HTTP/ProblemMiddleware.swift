import DetourAccounts
import DetourJob
import DetourRender
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers every refusal in one place: as ``Problem``'s JSON body, or, to a browser asking for a
/// page (its `Accept` names `text/html`) anywhere but the API, as a page that says the same.
///
/// Routes and middleware throw a ``Problem``, a ``StoreFailure`` from the folder or an
/// `AccountFailure` from the accounts' database, and a body read past its limit throws
/// SwiftNIO's `NIOTooManyBytesError` (413); the router
/// throws Hummingbird's `HTTPError` for a path it has no route for. Anything else is a fault of
/// the server: 500, and a message that names no path.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// The methods the server knows: RFC 9110's, PATCH (RFC 5789) and QUERY (the IETF's safe
    /// method with a body, which API clients and testers send).
    ///
    /// A route answers one it does not take with 405; any other method is 501.
    static let knownMethods: [HTTPRequest.Method] =
        [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]
        + ["QUERY"].compactMap { HTTPRequest.Method($0) }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let problem: Problem
        do {
            return try await next(request, context)
        } catch let thrown as Problem {
            if thrown.code == Problem.signInRequired.code, !request.uri.path.hasPrefix("/api/") {
                return Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
            }
            problem = thrown
        } catch let failure as StoreFailure {
            problem = Problem(failure)
        } catch is AccountFailure {
            // The accounts' database failed: what it said stays in the server's own hands.
            problem = Problem(.serviceUnavailable, .accountsFailed, "the accounts cannot be reached now; try again")
        } catch is NIOTooManyBytesError {
            problem = Problem.bodyTooLarge
        } catch let error as HTTPError where error.status == .notFound {
            problem = Self.knownMethods.contains(request.method) ? Problem.notFound : Problem.methodNotImplemented
        } catch let error as HTTPError {
            problem = Problem(error.status, .httpError, error.status.reasonPhrase)
        } catch {
            problem = Problem.serverFault
        }
        return Self.wantsPage(request) ? problem.page : problem.response
    }

    /// Whether the request is a browser's for a page: it accepts HTML and is not the API's,
    /// which keeps its JSON problems whatever a client accepts.
    static func wantsPage(_ request: Request) -> Bool {
        guard !request.uri.path.hasPrefix("/api/"), let accept = request.headers[.accept] else { return false }
        return accept.lowercased().contains("text/html")
    }
}
