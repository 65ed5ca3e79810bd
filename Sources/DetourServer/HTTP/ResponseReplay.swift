import DetourCore
import DetourRender
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A cached report answered again from the connection's event loop, without the router.
///
/// On a server without accounts and without `--token`, a format of a trip (`/trips/NAME.EXT`) is
/// the same for every request that carries nothing but its address: the policy says so
/// (``ServerContext/sameForEveryone``), and the route marks such an answer with
/// ``marker``, a field that never leaves the server. This handler keeps a marked `200` answer,
/// as the router gave it, in its event loop's ``ReplayStore``. The next request for the same
/// method, host and path is answered with it, with a new `Date`, for as long as the folder's
/// watch is healthy and has seen no event, and the day the plans are as of is the same
/// (``ReplayStamp``). Anything else goes to the router, as before.
///
/// It is the server's answer repeated, not a second place that decides: what it repeats was
/// decided by the one policy and made by the route, and a request only gets it when it holds no
/// field but those in ``plainFields``: no credential, no condition (`If-None-Match`), no query,
/// no body. The per-request work left is SwiftNIO's: read, parse, write. It sits after
/// Hummingbird's connection-state handler, which sees every request and answer, so idle and
/// `Connection: close` rules hold for both.
final class ResponseReplay: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The field a route puts on an answer that may be repeated; this handler removes it.
    static let marker = HTTPField.Name.known("Detour-Replay")

    /// The fields a request may carry, besides `Host`, and still be answered from the store.
    ///
    /// None of them changes what a format of a trip is. A field any route reads must not be here.
    static let plainFields: Set<HTTPField.Name> = [.userAgent, .accept, .acceptEncoding, .acceptLanguage, .connection]

    private let store: ReplayStore
    private let stamp: @Sendable () -> ReplayStamp?
    /// The request log, when the server keeps one: a repeated answer has its line too.
    private let log: (@Sendable (String) -> Void)?
    private let unixSeconds: @Sendable () -> Int64
    /// For each request passed to the router whose answer has not ended, in order: what its
    /// answer would be kept as, or `nil` for an answer not to keep.
    private var passed: [(key: ReplayStore.Key, stamp: ReplayStamp)?] = []
    /// The answer being kept and its key, while its parts go out.
    private var recording: (key: ReplayStore.Key, entry: ReplayStore.Entry)?
    /// The answer to write when the request now read ends, the request's key and when it came.
    private var answering: (entry: ReplayStore.Entry, key: ReplayStore.Key, since: ContinuousClock.Instant)?

    init(
        store: ReplayStore, stamp: @escaping @Sendable () -> ReplayStamp?, log: (@Sendable (String) -> Void)?,
        unixSeconds: @escaping @Sendable () -> Int64
    ) {
        self.store = store
        self.stamp = stamp
        self.log = log
        self.unixSeconds = unixSeconds
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let key = Self.key(of: request)
            let now = key == nil ? nil : stamp()
            if passed.isEmpty, let key, let now, let entry = store.entry(key, at: now, dated: unixSeconds()) {
                answering = (entry, key, ContinuousClock.now)
                return
            }
            passed.append(key.flatMap { key in now.map { (key, $0) } })
        case .body:
            // A request with a body is never answered from the store (no `Content-Length` field
            // is plain); one answered is whole at its head.
            if answering != nil { return }
        case .end:
            if let (entry, key, since) = answering {
                answering = nil
                answer(entry, context: context)
                log?(
                    RequestLogMiddleware.line(
                        method: key.method.rawValue, path: key.path, status: entry.head.status.code,
                        bytes: entry.bytes, elapsed: ContinuousClock.now - since))
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            guard response.status.kind != .informational, response.headerFields[Self.marker] != nil else { break }
            response.headerFields[Self.marker] = nil
            if response.status == .ok, case .some(.some(let kept)) = passed.first {
                var head = response
                head.headerFields[.date] = nil
                recording = (kept.key, ReplayStore.Entry(head: head, body: nil, stamp: kept.stamp))
            }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
            return
        case .body(let buffer):
            if case .some((let key, var entry)) = recording {
                recording = nil
                if entry.append(buffer, limit: store.maxEntryBytes) { recording = (key, entry) }
            }
        case .end:
            if !passed.isEmpty { passed.removeFirst() }
            if let (key, entry) = recording {
                store.keep(entry, for: key)
            }
            recording = nil
        }
        context.write(data, promise: promise)
    }

    /// Writes `entry` as the answer of the request just read.
    private func answer(_ entry: ReplayStore.Entry, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(entry.dated.head)), promise: nil)
        if let body = entry.body {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// What `request` is kept under, or `nil` when it may not be answered from the store.
    static func key(of request: HTTPRequest) -> ReplayStore.Key? {
        guard request.method == .get || request.method == .head, let authority = request.authority,
            let path = request.path, !path.utf8.contains(UInt8(ascii: "?"))
        else { return nil }
        for field in request.headerFields where !plainFields.contains(field.name) { return nil }
        // `Connection: close` is Hummingbird's to act on: it ends the connection after the answer.
        for value in request.headerFields[values: .connection] where value.lowercased() != "keep-alive" { return nil }
        return ReplayStore.Key(method: request.method, authority: authority, path: path)
    }
}

/// What an answer kept by ``ResponseReplay`` was made from.
///
/// The folder's watch epoch (its ``FolderFreshness``) and the day the plans are as of; there is
/// none while the watch is not healthy.
struct ReplayStamp: Sendable, Equatable {
    let epoch: Int
    let day: CalendarDay
}

/// The answers one event loop repeats, used on that loop only: one per loop, so that no lock is
/// taken on a request's way.
///
/// Bounded: an answer of more than ``maxEntryBytes`` is not kept (a large report's cost is its
/// bytes, not the router), and the store holds at most ``maxBytes`` and ``maxEntries``; past
/// either, stale answers go first, then any.
final class ReplayStore {
    struct Key: Hashable {
        let method: HTTPRequest.Method
        let authority: String
        let path: String
    }

    struct Entry {
        /// The answer's head, without a `Date`.
        let head: HTTPResponse
        var body: ByteBuffer?
        let stamp: ReplayStamp
        /// The head with the `Date` of one second, and the whole answer's bytes as SwiftNIO's
        /// encoder writes them (``WireReplay``; none for an answer without `Content-Length`),
        /// made once that second (an answer repeated many times a second shares them) by
        /// ``ReplayStore/entry(_:at:dated:)``.
        var dated: (second: Int64?, head: HTTPResponse, wire: ByteBuffer?)

        init(head: HTTPResponse, body: ByteBuffer?, stamp: ReplayStamp) {
            self.head = head
            self.body = body
            self.stamp = stamp
            dated = (nil, head, nil)
        }

        var bytes: Int { body?.readableBytes ?? 0 }

        /// Adds `part` to the body; `false` once the body is over `limit` bytes.
        mutating func append(_ part: ByteBuffer, limit: Int) -> Bool {
            if var body {
                body.writeImmutableBuffer(part)
                self.body = body
            } else {
                body = part
            }
            return bytes <= limit
        }
    }

    let maxEntryBytes: Int
    let maxBytes: Int
    let maxEntries: Int
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    private var date = DateField()

    init(maxEntryBytes: Int = 1 << 20, maxBytes: Int = 8 << 20, maxEntries: Int = 256) {
        self.maxEntryBytes = maxEntryBytes
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    var count: Int { entries.count }

    /// The answer kept for `key`, when it was made at `stamp`, its head dated `seconds` since 1970.
    func entry(_ key: Key, at stamp: ReplayStamp, dated seconds: Int64) -> Entry? {
        guard let index = entries.index(forKey: key), entries.values[index].stamp == stamp else { return nil }
        if entries.values[index].dated.second != seconds {
            let entry = entries.values[index]
            var head = entry.head
            head.headerFields[.date] = date.text(at: seconds)
            entries.values[index].dated = (seconds, head, Self.wire(head, body: entry.body))
        }
        return entries.values[index]
    }

    /// The bytes of the answer kept for `key`, made at `stamp` and dated `seconds` since 1970, and
    /// how many of them are its body.
    func wire(_ key: Key, at stamp: ReplayStamp, dated seconds: Int64) -> (bytes: ByteBuffer, body: Int)? {
        guard let entry = entry(key, at: stamp, dated: seconds), let wire = entry.dated.wire else { return nil }
        return (wire, entry.bytes)
    }

    /// `head` and `body` as SwiftNIO's HTTP/1.1 encoder writes them, when `head` has a
    /// `Content-Length` (else the encoder frames the body itself) and status 200.
    static func wire(_ head: HTTPResponse, body: ByteBuffer?) -> ByteBuffer? {
        guard head.status == .ok, head.headerFields[.contentLength] != nil, head.headerFields[.transferEncoding] == nil
        else { return nil }
        var bytes = ByteBuffer()
        bytes.writeString("HTTP/1.1 200 OK\r\n")
        for field in head.headerFields {
            bytes.writeString(field.name.rawName)
            bytes.writeString(": ")
            bytes.writeString(field.value)
            bytes.writeString("\r\n")
        }
        bytes.writeString("\r\n")
        if let body { bytes.writeImmutableBuffer(body) }
        return bytes
    }

    func keep(_ entry: Entry, for key: Key) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        if bytes + entry.bytes > maxBytes || entries.count >= maxEntries {
            for (key, old) in entries where old.stamp != entry.stamp {
                entries[key] = nil
                bytes -= old.bytes
            }
        }
        while bytes + entry.bytes > maxBytes || entries.count >= maxEntries, let (key, old) = entries.first {
            entries[key] = nil
            bytes -= old.bytes
        }
        entries[key] = entry
        bytes += entry.bytes
    }
}

/// The `Date` field of an answer (``Formatting/httpDate(_:)``), made once a second.
struct DateField {
    private var second: Int?
    private var text = ""

    /// The field's text at `seconds` since 1970.
    mutating func text(at seconds: Int64) -> String {
        let seconds = Int(seconds)
        if seconds != second {
            second = seconds
            text = Formatting.httpDate(seconds)
        }
        return text
    }
}

/// One ``ReplayStore`` for each event loop of the server's group, and what stamps an answer.
struct ReplayStores: Sendable {
    private let stores: [ObjectIdentifier: NIOLoopBoundBox<ReplayStore>]
    let stamp: @Sendable () -> ReplayStamp?
    let log: (@Sendable (String) -> Void)?
    let unixSeconds: @Sendable () -> Int64

    init(
        group: any EventLoopGroup, log: (@Sendable (String) -> Void)?, unixSeconds: @escaping @Sendable () -> Int64,
        stamp: @escaping @Sendable () -> ReplayStamp?
    ) {
        var stores: [ObjectIdentifier: NIOLoopBoundBox<ReplayStore>] = [:]
        for loop in group.makeIterator() {
            stores[ObjectIdentifier(loop)] = NIOLoopBoundBox.makeBoxSendingValue(
                ReplayStore(), as: ReplayStore.self, eventLoop: loop)
        }
        self.stores = stores
        self.stamp = stamp
        self.log = log
        self.unixSeconds = unixSeconds
    }

    /// The handler for a connection of `channel`, on its event loop.
    func handler(for channel: any Channel) -> ResponseReplay? {
        guard let store = stores[ObjectIdentifier(channel.eventLoop)]?.value else { return nil }
        return ResponseReplay(store: store, stamp: stamp, log: log, unixSeconds: unixSeconds)
    }

    /// The handler below the codec for a connection of `channel`, on its event loop.
    func wireHandler(for channel: any Channel, rules: RequestHeadRules) -> WireReplay? {
        guard let store = stores[ObjectIdentifier(channel.eventLoop)]?.value else { return nil }
        return WireReplay(store: store, stamp: stamp, log: log, unixSeconds: unixSeconds, rules: rules)
    }
}
