import DetourAccounts
import DetourJob
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers every refusal in one place, as ``Problem``'s JSON body.
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
        } catch let problem as Problem {
            if problem.code == Problem.signInRequired.code, !request.uri.path.hasPrefix("/api/") {
                return Response(status: .seeOther, headers: [.location: "/login", .cacheControl: "no-store"])
            }
            return problem.response
        } catch let failure as StoreFailure {
            return Problem(failure).response
        } catch is AccountFailure {
            // The accounts' database failed: what it said stays in the server's own hands.
            return Problem(.serviceUnavailable, .accountsFailed, "the accounts cannot be reached now; try again")
                .response
        } catch is NIOTooManyBytesError {
            return Problem.bodyTooLarge.response
        } catch let error as HTTPError where error.status == .notFound {
            guard Self.knownMethods.contains(request.method) else { return Problem.methodNotImplemented.response }
            return Problem.notFound.response
        } catch let error as HTTPError {
            return Problem(error.status, .httpError, error.status.reasonPhrase).response
        } catch {
            return Problem.serverFault.response
        }
    }
}
