import DetourCore
import DetourRender
import HTTPTypes
import Hummingbird

@testable import DetourServer

/// What a suite that drives the site in process needs: a site over a fake store, a request as a
/// browser on the same machine sends it, and a response's body as text.
protocol SiteDriving {}

extension SiteDriving {
    /// The day every plan of these suites is as of.
    static var today: CalendarDay { CalendarDay(year: 2026, month: 11, day: 24) ?? .unixEpoch }

    /// A site over `store` with the built-in templates and a fixed day, bound to 127.0.0.1.
    func site(_ store: FakeTripStore, readOnly: Bool = false) throws -> Site {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        let today = Self.today
        let settings = ServerSettings(
            today: { today }, templates: templates, readOnly: readOnly, maxInputBytes: 1 << 20)
        return Site(
            library: TripLibrary(store: store, settings: settings), reload: LiveReload(), boundHost: "127.0.0.1")
    }

    /// A request as a browser on the same machine would send it.
    func request(
        _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: [UInt8] = []
    ) -> Request {
        Request(
            head: HTTPRequest(
                method: method, scheme: "http", authority: "127.0.0.1:8080", path: path, headerFields: headers),
            body: RequestBody(buffer: ByteBuffer(bytes: body)))
    }

    /// The body of `response` as text.
    func body(_ response: Response) async throws -> String {
        let collector = BodyCollector()
        try await response.body.write(collector)
        return String(decoding: collector.bytes, as: UTF8.self)
    }
}

/// Collects a response body's bytes.
final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws {
        bytes += buffer.readableBytesView
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
