import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// The server's pages: the folder's index, each trip's preview and formats, its live-reload
/// stream, the calendar of every trip and the diagnostics' documentation.
enum Pages {
    /// `/trips/NAME` (the live preview) or `/trips/NAME.EXT` (a format).
    static func trip(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        let (name, format) = try nameAndFormat(try context.parameters.require("name"))
        if let format {
            return try await output(
                name, format: format, request: request, workspace: workspace, sameForEveryone: context.sameForEveryone)
        }
        let panel = try await SharePanel.model(name, context: context)
        return try await preview(
            name, request: request, workspace: workspace, identity: context.identity, base: context.tripsBase,
            panel: panel)
    }

    /// The trip and the format a `/trips/` segment names: `lisbon.html` is `lisbon`'s HTML, and
    /// `lisbon` its preview (no format).
    static func nameAndFormat(_ segment: String) throws(Problem) -> (TripName, OutputFormat?) {
        guard let decoded = TripName.percentDecoded(Substring(segment)) else { throw Problem.badName }
        for format in OutputFormat.allCases {
            let suffix = "." + format.fileExtension
            guard decoded.hasSuffix(suffix) else { continue }
            guard let name = TripName(decoded: String(decoded.dropLast(suffix.count))) else { throw Problem.badName }
            return (name, format)
        }
        guard let name = TripName(decoded: decoded) else { throw Problem.badName }
        return (name, nil)
    }

    /// The trip's output in `format`, as `render` writes it.
    ///
    /// An answer that is `sameForEveryone` is marked to be repeated (``ResponseReplay``).
    static func output(
        _ name: TripName, format: OutputFormat, request: Request, workspace: Workspace, sameForEveryone: Bool
    ) async throws -> Response {
        let library = workspace.library
        let snapshot = try await workspace.current(name)
        let today = workspace.settings.today()
        let output: RenderedOutput
        switch await library.output(snapshot, format: format, today: today) {
        case .rendered(let rendered): output = rendered
        case .invalid(let result): throw Problem.invalidTrip(result.diagnostics, file: snapshot.file.fileName)
        case .notMade: throw Problem(.serviceUnavailable, .noBrowser, workspace.settings.noPrinting)
        case .unmade(let failure): throw Problem.unmade(failure)
        }
        var extra: [(HTTPField.Name, String)] = []
        if format == .ics {
            extra.append((.cacheControl, "no-cache"))
        }
        if sameForEveryone {
            extra.append((ResponseReplay.marker, "1"))
        }
        return Replies.tagged(output.bytes, etag: output.etag, type: format.mediaType, request: request, extra: extra)
    }

    /// `/trips/NAME`: the report, or the trip's problems, with the live-reload script.
    static func preview(
        _ name: TripName, request: Request, workspace: Workspace, identity: Identity?, base: String,
        panel: SharePanelModel?
    ) async throws -> Response {
        let library = workspace.library
        let nonce = Nonce.make()
        let events = "\(base)/\(name.text)/events"
        let headers: [(HTTPField.Name, String)] = [
            (.contentSecurityPolicy, PreviewPage.policy(nonce: nonce)), (.cacheControl, "no-store"),
        ]
        let chrome = ChromeModel(bar: Chrome.bar(identity), share: panel)
        let snapshot: TripSnapshot
        do {
            snapshot = try await workspace.current(name)
        } catch is Problem {
            let version = await library.version(name)
            let problem = Diagnostic(
                .readFailed,
                version == "clash"
                    ? "both \(name.text).json and \(name.text).gpx exist; remove one"
                    : "no trip file \(name.text).json or \(name.text).gpx in the folder")
            let page = PreviewPage.problems(
                title: name.text, file: name.text, diagnostics: [problem], nonce: nonce, version: version,
                events: events, docs: "/docs/diagnostics/", chrome: chrome)
            return Replies.bytes(page, type: .html, status: .notFound, request: request, extra: headers)
        }
        let today = workspace.settings.today()
        if case .rendered(let report) = await library.output(snapshot, format: .html, today: today) {
            var withBar = chrome
            withBar.preview = PreviewPage.bar(name, base: base)
            let page = PreviewPage.preview(
                of: report.bytes, nonce: nonce, version: snapshot.etag, events: events, chrome: withBar)
            return Replies.bytes(page, type: .html, request: request, extra: headers)
        }
        let result = await library.check(snapshot, today: today)
        let page = PreviewPage.problems(
            title: snapshot.file.fileName, file: snapshot.file.fileName, diagnostics: result.diagnostics,
            nonce: nonce, version: snapshot.etag, events: events, docs: "/docs/diagnostics/", chrome: chrome)
        return Replies.bytes(page, type: .html, request: request, extra: headers)
    }

    /// `/trips/NAME/events`: the trip's versions as Server-Sent Events, the current one first.
    static func events(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        guard let name = TripName(segment: Substring(try context.parameters.require("name"))) else {
            throw Problem.badName
        }
        let reload = workspace.reload
        let current = await workspace.library.version(name)
        // A stream whose connection has closed ends, and gives its place back at once.
        guard let stream = reload.listen(to: name, current: current, until: context.connectionClosed) else {
            throw Problem(
                .serviceUnavailable, .tooManyStreams,
                "\(reload.limit) live previews are open, the most the server keeps; close one and reload",
                fields: [(.retryAfter, "10")])
        }
        let stillAllowed = context.stillAllowed
        let body = ResponseBody { writer in
            // A comment first, so that the client knows at once that the stream is open.
            try await writer.write(ByteBuffer(string: ": detour-report live preview\nretry: 1000\n\n"))
            // A stop ends every stream at once: the server waits for open responses to finish.
            try await withGracefulShutdownHandler {
                for await version in stream {
                    // A stream does not outlive the right to read: it ends, and sends nothing more.
                    guard await stillAllowed() else { break }
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

    /// `/docs/diagnostics/CODE`: what a diagnostic means and how to fix it.
    static func diagnostic(_ request: Request, context: ServerContext) async throws -> Response {
        let code = try context.parameters.require("code")
        guard let section = DiagnosticDocs.section(code) else { throw Problem.notFound }
        let page = DiagnosticDocs.page(code, section: section, bar: Chrome.bar(context.identity))
        return Replies.bytes(page, type: .html, request: request)
    }

    /// `/`: the folder's index, from the index templates a batch run uses.
    static func index(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        let library = workspace.library
        let settings = workspace.settings
        let today = settings.today()
        // The Host middleware has refused a request without one.
        guard let authority = request.head.authority else { throw Problem.notFound }
        // The links name the address the request came to, unless the server has a public one.
        let page = try await library.listing("index", today: today, variant: authority) { found in
            let formats = library.job.options.formats
            let entries = found.map { file, read in
                entry(file, read, formats: formats, authority: authority, publicURL: settings.publicURL)
            }
            var index = TripIndex(entries: entries)
            index.served = true
            return Array(library.job.index(index, as: .html).utf8)
        }
        // The account bar differs by session, so it is added to the page kept, not kept with it.
        let chrome = ChromeModel(bar: Chrome.bar(context.identity), shared: try await SharePanel.sharedWithYou(context))
        return Replies.bytes(
            Chrome.inserted(into: page.bytes, chrome), type: .html,
            request: request,
            extra: [(.cacheControl, context.identity == nil ? "no-cache" : "no-store")])
    }

    /// The index entry of `file`, read and checked (`found`, `nil` when it could not be read): its
    /// status, and links to its preview, every format and its feed.
    static func entry(
        _ file: TripFile, _ found: (TripSnapshot, RenderResult)?, formats: [OutputFormat], authority: String,
        publicURL: PublicURL?
    ) -> TripIndex.Entry {
        let name = file.name.text
        guard let (_, result) = found else {
            return TripIndex.Entry(
                source: file.fileName, name: name, status: .unreadable, firstError: "error: cannot read the trip")
        }
        let warnings = result.diagnostics.count { $0.severity == .warning }
        guard let trip = result.trip else {
            return TripIndex.Entry(
                source: file.fileName, name: name, status: result.status,
                warnings: warnings, firstError: result.firstError.map(DiagnosticText.lineWithoutFile),
                reports: [TripIndex.Entry.Report(format: .preview, file: "trips/\(name)")])
        }
        var reports = [TripIndex.Entry.Report(format: .preview, file: "trips/\(name)")]
        for format in formats {
            reports.append(
                TripIndex.Entry.Report(
                    format: .output(format), file: "trips/\(name).\(format.fileExtension)"))
        }
        // Behind a proxy, the address people reach it at; else the one the request came to.
        let (scheme, base) = PublicURL.reached(publicURL, at: authority)
        reports.append(TripIndex.Entry.Report(format: .webcal, file: "webcal://\(base)/trips/\(name).ics"))
        reports.append(TripIndex.Entry.Report(format: .feed, file: "\(scheme)://\(base)/trips/\(name).ics"))
        return TripIndex.Entry(source: file.fileName, name: name, trip: trip, warnings: warnings, reports: reports)
    }

    /// `/calendar.ics`: every valid trip in one calendar.
    static func calendar(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        let library = workspace.library
        let today = workspace.settings.today()
        let calendar = try await library.listing("calendar", today: today) { found in
            library.job.calendar(of: found.compactMap { $0.1?.1 }, name: "Trips", today: today)
        }
        return Replies.tagged(
            calendar.bytes, etag: calendar.etag, type: OutputFormat.ics.mediaType, request: request,
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
