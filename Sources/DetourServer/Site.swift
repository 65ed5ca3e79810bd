import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import Synchronization

/// Every route of the server, over a ``TripLibrary``.
///
/// Routes are matched here on the raw request path, a switch over a handful of shapes, rather
/// than with Hummingbird's router: a trip's name must be percent-decoded exactly once and then
/// checked (``TripName``), which needs the segment exactly as it came.
public struct Site: Sendable {
    public let library: TripLibrary
    public let reload: LiveReload
    /// The host the server is bound to, for the `Host` check.
    let boundHost: String

    public init(library: TripLibrary, reload: LiveReload, boundHost: String) {
        self.library = library
        self.reload = reload
        self.boundHost = boundHost
    }

    var settings: ServerSettings { library.settings }

    /// The answer to `request`, after the checks every request passes.
    public func respond(to request: Request) async -> Response {
        if let refused = Guard(settings: settings, boundHost: boundHost).refusal(of: request) { return refused }
        let path = request.uri.path
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let method = request.method
        let parts = Array(segments)
        do throws(StoreFailure) {
            if parts == [""] {
                return try await method.isRead ? index(request) : methodNotAllowed("GET, HEAD")
            }
            if parts == ["calendar.ics"] {
                return try await method.isRead ? calendar(request) : methodNotAllowed("GET, HEAD")
            }
            if parts.count == 2, parts[0] == "trips" {
                return try await method.isRead ? trip(parts[1], request: request) : methodNotAllowed("GET, HEAD")
            }
            if parts.count == 3, parts[0] == "trips", parts[2] == "events" {
                guard method == .get else { return methodNotAllowed("GET") }
                return events(parts[1])
            }
            if parts.count == 3, parts[0] == "docs", parts[1] == "diagnostics" {
                guard method.isRead else { return methodNotAllowed("GET, HEAD") }
                guard let section = DiagnosticDocs.section(String(parts[2])) else { return Replies.notFound() }
                return Replies.bytes(
                    DiagnosticDocs.page(String(parts[2]), section: section), type: .html, request: request)
            }
            if parts == ["api", "v1", "trips"] {
                return try await method.isRead ? API(site: self).list(request) : methodNotAllowed("GET, HEAD")
            }
            if parts.count == 4, parts[0] == "api", parts[1] == "v1", parts[2] == "trips" {
                return try await API(site: self).trip(parts[3], request: request)
            }
            return Replies.notFound()
        } catch {
            return Replies.storeFailure(error)
        }
    }

    func methodNotAllowed(_ allowed: String) -> Response {
        Replies.problem(.methodNotAllowed, "method-not-allowed", "this method is not allowed here", allow: allowed)
    }

    // MARK: - Pages

    /// `/trips/NAME` (the live preview) or `/trips/NAME.EXT` (a format).
    func trip(_ segment: Substring, request: Request) async throws(StoreFailure) -> Response {
        guard let decoded = TripName.percentDecoded(segment) else { return Replies.badName() }
        for format in OutputFormat.withoutBrowser {
            let suffix = "." + format.fileExtension
            guard decoded.hasSuffix(suffix) else { continue }
            guard let name = TripName(decoded: String(decoded.dropLast(suffix.count))) else { return Replies.badName() }
            return try await output(name, format: format, request: request)
        }
        guard let name = TripName(decoded: decoded) else { return Replies.badName() }
        return try await preview(name, request: request)
    }

    /// The trip's output in `format`, as `render` writes it.
    func output(_ name: TripName, format: OutputFormat, request: Request) async throws(StoreFailure) -> Response {
        let snapshot: TripSnapshot
        switch try current(name) {
        case .failure(let refusal): return refusal.response
        case .success(let found): snapshot = found
        }
        let today = settings.today()
        guard let output = await library.output(snapshot, format: format, today: today) else {
            let result = await library.check(snapshot, today: today)
            return Replies.invalidTrip(result.diagnostics, file: snapshot.file.fileName)
        }
        var extra: [(HTTPField.Name, String)] = []
        if format == .ics {
            extra.append((.cacheControl, "no-cache"))
        }
        return Replies.tagged(output.bytes, etag: output.etag, type: format.mediaType, request: request, extra: extra)
    }

    /// The trip file `name` names now, or the response that says why there is none.
    func current(_ name: TripName) throws(StoreFailure) -> Result<TripSnapshot, Replies.Refusal> {
        switch try library.current(name) {
        case .missing: return .failure(Replies.Refusal(Replies.notFound()))
        case .clash: return .failure(Replies.Refusal(Replies.clash(name)))
        case .tooLarge: return .failure(Replies.Refusal(Replies.tooLargeFile()))
        case .snapshot(let snapshot): return .success(snapshot)
        }
    }

    /// The version a preview page is made from: the trip file's entity tag, `missing` or `clash`.
    func version(_ name: TripName) -> String {
        switch try? library.current(name) {
        case .snapshot(let snapshot): return snapshot.etag
        case .tooLarge: return "unreadable"
        case .clash: return "clash"
        case .missing, nil: return "missing"
        }
    }

    /// `/trips/NAME`: the report, or the trip's problems, with the live-reload script.
    func preview(_ name: TripName, request: Request) async throws(StoreFailure) -> Response {
        let nonce = Nonce.make()
        let events = "/trips/\(name.text)/events"
        let headers: [(HTTPField.Name, String)] = [
            (.contentSecurityPolicy, PreviewPage.policy(nonce: nonce)), (.cacheControl, "no-store"),
        ]
        let snapshot: TripSnapshot
        switch try current(name) {
        case .failure:
            let version = version(name)
            let problem = Diagnostic(
                .readFailed,
                version == "clash"
                    ? "both \(name.text).json and \(name.text).gpx exist; remove one"
                    : "no trip file \(name.text).json or \(name.text).gpx in the folder")
            let page = PreviewPage.problems(
                title: name.text, file: name.text, diagnostics: [problem], nonce: nonce, version: version,
                events: events, docs: "/docs/diagnostics/")
            return Replies.bytes(page, type: .html, status: .notFound, request: request, extra: headers)
        case .success(let found):
            snapshot = found
        }
        let today = settings.today()
        if let report = await library.output(snapshot, format: .html, today: today) {
            let page = PreviewPage.preview(
                of: report.bytes, nonce: nonce, version: snapshot.etag, events: events, name: name)
            return Replies.bytes(page, type: .html, request: request, extra: headers)
        }
        let result = await library.check(snapshot, today: today)
        let page = PreviewPage.problems(
            title: snapshot.file.fileName, file: snapshot.file.fileName, diagnostics: result.diagnostics,
            nonce: nonce, version: snapshot.etag, events: events, docs: "/docs/diagnostics/")
        return Replies.bytes(page, type: .html, request: request, extra: headers)
    }

    /// `/trips/NAME/events`: the trip's versions as Server-Sent Events, the current one first.
    func events(_ segment: Substring) -> Response {
        guard let name = TripName(segment: segment) else { return Replies.badName() }
        let stream = reload.listen(to: name, current: version(name))
        let reload = reload
        let body = ResponseBody { writer in
            // A comment first, so that the client knows at once that the stream is open.
            try await writer.write(ByteBuffer(string: ": detour-report live preview\nretry: 1000\n\n"))
            // A stop ends every stream at once: the server waits for open responses to finish.
            try await withGracefulShutdownHandler {
                for await version in stream {
                    // An empty version is the heartbeat: a comment line, which the page ignores.
                    let line = version.isEmpty ? ":\n\n" : "data: \(version)\n\n"
                    try await writer.write(ByteBuffer(string: line))
                }
            } onGracefulShutdown: {
                reload.closeAll()
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `/`: the folder's index, from the index templates a batch run uses.
    func index(_ request: Request) async throws(StoreFailure) -> Response {
        let today = settings.today()
        // The guard has refused a request without one.
        guard let authority = Guard.authority(of: request) else { return Replies.notFound() }
        var entries: [TripIndex.Entry] = []
        let files = try library.files()
        for (file, found) in zip(files, await library.checkedAll(files, today: today)) {
            entries.append(entry(file, found, authority: authority))
        }
        let html = settings.templates.renderIndex(TripIndex(entries: entries), as: .html)
        return Replies.bytes(Array(html.utf8), type: .html, request: request, extra: [(.cacheControl, "no-cache")])
    }

    /// The index entry of `file`, read and checked (`found`, `nil` when it could not be read): its
    /// status, and links to its preview, every format and its feed.
    func entry(_ file: TripFile, _ found: (TripSnapshot, RenderResult)?, authority: String) -> TripIndex.Entry {
        let name = file.name.text
        guard let (_, result) = found else {
            return TripIndex.Entry(
                source: file.fileName, name: name, status: .unreadable, firstError: "error: cannot read the trip")
        }
        let warnings = result.diagnostics.count { $0.severity == .warning }
        guard let trip = result.trip else {
            return TripIndex.Entry(
                source: file.fileName, name: name, status: result.outcome,
                warnings: warnings, firstError: result.firstError.map(DiagnosticText.lineWithoutFile),
                reports: [TripIndex.Entry.Report(format: .preview, file: "trips/\(name)")])
        }
        var reports = [TripIndex.Entry.Report(format: .preview, file: "trips/\(name)")]
        for format in OutputFormat.withoutBrowser {
            reports.append(
                TripIndex.Entry.Report(
                    format: .output(format), file: "trips/\(name).\(format.fileExtension)"))
        }
        // Behind a proxy, the address people reach it at; else the one the request came to.
        let (scheme, base) = settings.publicURL.map { ($0.scheme, $0.authority) } ?? ("http", authority)
        reports.append(TripIndex.Entry.Report(format: .webcal, file: "webcal://\(base)/trips/\(name).ics"))
        reports.append(TripIndex.Entry.Report(format: .feed, file: "\(scheme)://\(base)/trips/\(name).ics"))
        return TripIndex.Entry(source: file.fileName, name: name, trip: trip, warnings: warnings, reports: reports)
    }

    /// `/calendar.ics`: every valid trip in one calendar.
    func calendar(_ request: Request) async throws(StoreFailure) -> Response {
        let today = settings.today()
        var plans: [Plan] = []
        let files = try library.files()
        for case (_, let result)? in await library.checkedAll(files, today: today) {
            if let plan = result.plan { plans.append(plan) }
        }
        let bytes = ICSExport.bytes(plans: plans, name: "Trips", today: today)
        return Replies.tagged(
            bytes, etag: TripLibrary.entityTag(of: bytes), type: OutputFormat.ics.mediaType, request: request,
            extra: [(.cacheControl, "no-cache")])
    }
}

extension HTTPRequest.Method {
    /// GET or HEAD.
    var isRead: Bool { self == .get || self == .head }
}

/// Random nonces for the preview's script.
enum Nonce {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }
}
