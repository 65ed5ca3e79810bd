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
        do {
            return try await next(request, context)
        } catch let signedIn as SignedInFailure {
            return answer(signedIn.error, to: request, shownTo: signedIn.identity)
        } catch {
            return answer(error, to: request, shownTo: nil)
        }
    }

    /// The answer to `request` that failed with `error`: its page carries the account bar of
    /// `identity`, when the request was signed in.
    func answer(_ error: any Error, to request: Request, shownTo identity: Identity?) -> Response {
        let problem: Problem
        switch error {
        case let thrown as Problem:
            if thrown.code == Problem.signInRequired.code, !request.uri.path.hasPrefix("/api/") {
                return Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
            }
            problem = thrown
        case let failure as StoreFailure:
            problem = Problem(failure)
        case is AccountFailure:
            // The accounts' database failed: what it said stays in the server's own hands.
            problem = Problem(.serviceUnavailable, .accountsFailed, "the accounts cannot be reached now; try again")
        case is NIOTooManyBytesError:
            problem = Problem.bodyTooLarge
        case let error as HTTPError where error.status == .notFound:
            problem = Self.knownMethods.contains(request.method) ? Problem.notFound : Problem.methodNotImplemented
        case let error as HTTPError:
            problem = Problem(error.status, .httpError, error.status.reasonPhrase)
        default:
            problem = Problem.serverFault
        }
        return Self.wantsPage(request) ? problem.page(shownTo: identity) : problem.response
    }

    /// Whether the request is a browser's for a page: it accepts HTML and is not the API's,
    /// which keeps its JSON problems whatever a client accepts.
    static func wantsPage(_ request: Request) -> Bool {
        guard !request.uri.path.hasPrefix("/api/"), let accept = request.headers[.accept] else { return false }
        return accept.lowercased().contains("text/html")
    }
}

/// A request's failure past the authenticator, with who the request was signed in as: the error
/// page a browser gets carries that account's bar, as every other page does.
struct SignedInFailure: Error {
    let identity: Identity
    let error: any Error
}
