import DetourCore
import Hummingbird

/// One line for each request, once it is answered: method, path, status, bytes and time.
///
/// The path only: a query may hold the token, which the log never prints.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let log: @Sendable (String) -> Void

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        log(
            Self.line(
                method: request.method.rawValue, path: request.uri.path, status: response.status.code,
                bytes: response.body.contentLength, elapsed: ContinuousClock.now - start))
        return response
    }

    /// The line of a request (``ResponseReplay`` writes the same for the answers it repeats):
    /// `GET /trips/lisbon.html 200 17795 0.4ms`, the time to a tenth of a millisecond.
    static func line(method: String, path: String, status: Int, bytes: Int?, elapsed: Duration) -> String {
        let tenths =
            elapsed.components.seconds * 10_000 + (elapsed.components.attoseconds + 50_000_000_000_000)
            / 100_000_000_000_000
        return "\(method) \(Quoting.printable(path)) \(status) \(bytes.map(String.init) ?? "-") "
            + "\(tenths / 10).\(tenths % 10)ms"
    }
}
