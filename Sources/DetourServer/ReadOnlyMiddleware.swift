import HTTPTypes
import Hummingbird

/// The read-only rule: with `--read-only`, every write is refused (405), on any path.
struct ReadOnlyMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method.isRead else {
            throw Problem(
                .methodNotAllowed, .readOnly, "the server was started with --read-only",
                fields: [(.allow, "GET, HEAD")])
        }
        return try await next(request, context)
    }
}
