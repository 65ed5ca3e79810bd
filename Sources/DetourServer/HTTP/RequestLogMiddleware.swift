import DetourCore
import Foundation
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
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        let bytes = response.body.contentLength
        log(
            "\(request.method.rawValue) \(Quoting.printable(request.uri.path)) \(response.status.code) "
                + "\(bytes.map(String.init) ?? "-") \(String(format: "%.1f", milliseconds))ms")
        return response
    }
}
