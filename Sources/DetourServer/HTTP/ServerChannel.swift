import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Synchronization

/// Hummingbird's HTTP/1.1 channel, with ``RequestHeadRules`` where the request's head is still
/// as it came: before Hummingbird turns it into HTTP types, which keep no absolute-form target;
/// and each client's share of the connections (``ClientConnections``).
struct ServerChannel: ServerChildChannel {
    let http: HTTP1Channel
    /// The connections each client holds, capped.
    let clients: ClientConnections
    /// Every open connection, for shedding the idle ones near the server's cap.
    let idle: IdleConnections
    /// How long a connection may wait for a request's head.
    let headerTimeout: TimeAmount
    /// The largest body any route takes.
    let maxBodyBytes: Int
    /// The answers repeated without the router, on a server where one answer is everyone's.
    let replay: ReplayStores?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        // A client past its share is closed before a byte is read: the connections left are
        // everyone else's.
        if let client = channel.remoteAddress?.ipAddress {
            guard clients.open(client) else {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
            }
            channel.closeFuture.whenComplete { _ in clients.close(client) }
        }
        return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            let rules = RequestHeadRules(headerTimeout: headerTimeout, maxBodyBytes: maxBodyBytes)
            try operations.addHandler(rules, position: .before(codec))
            if let replay, let handler = replay.handler(for: channel) {
                let state = try operations.handler(type: HTTPConnectionStateHandler.self)
                try operations.addHandler(handler, position: .after(state))
                if let wire = replay.wireHandler(for: channel, rules: rules) {
                    let encoder = try operations.handler(type: HTTPResponseEncoder.self)
                    try operations.addHandler(wire, position: .before(encoder))
                }
            }
            idle.add(channel, rules: rules)
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

/// What a request's head must be before any route sees it.
///
/// - A target in absolute form (`GET http://host/path`) names the same authority as `Host`
///   (RFC 9112 §3.2.2 makes the target's the request's authority; one that differs from `Host`
///   is refused with 400, so the Host rule always checks the authority the request is for).
/// - The head arrives within `headerTimeout` of the connection opening or of the previous
///   response ending, or the connection is closed: a client sending its head slowly, or none,
///   does not keep a connection.
/// - A body declared larger than any route takes (`Content-Length` over `maxBodyBytes`) is
///   refused from the head with 413, before a byte of it is read.
/// - A body keeps coming at ``minimumBodyRate`` bytes a second on average once `headerTimeout`
///   has passed since its head, or the connection is closed: a client trickling a body does not
///   keep a connection either. The rate is Kestrel's (ASP.NET Core's `MinRequestBodyDataRate`),
///   which slow mobile links meet.
/// - An event stream (an answer of `text/event-stream`, a live preview's) is closed when its
///   client closes its side of the connection: the client reads nothing more, and the stream would
///   otherwise hold the connection until a heartbeat failed to reach it. Any other answer still
///   goes out to a client that has closed its side after its request.
final class RequestHeadRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let headerTimeout: TimeAmount
    /// The one timer of the connection: it looks at the connection when it fires and sets
    /// itself again, so no request schedules or cancels one.
    private var timer: Scheduled<Void>?
    /// Since when the connection has waited for a head; `nil` while a request is open.
    private var waitingSince: NIODeadline?
    /// Whether a refused request's body is being dropped.
    private var refusing = false
    /// Whether the connection waits for a request: none has come yet, or the last response is out
    /// and no other has come; never while a request is under way or a refused one is dropped.
    var isIdle: Bool { waitingSince != nil && open == 0 && !refusing }

    /// Requests whose head has come and whose response has not ended: a pipelined head may come
    /// before the previous response ends, and is not timed again.
    private var open = 0
    let maxBodyBytes: Int
    /// The fields of the answer being written, from its head to its end.
    private var answering: HTTPHeaders?
    /// Since when a request's body has been coming; `nil` when none is.
    private var bodySince: NIODeadline?
    /// How many bytes of that body have come.
    private var bodyBytes = 0

    /// The slowest a body may come, in bytes a second, on average.
    static let minimumBodyRate = 240

    init(headerTimeout: TimeAmount, maxBodyBytes: Int) {
        self.headerTimeout = headerTimeout
        self.maxBodyBytes = maxBodyBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        waitingSince = context.eventLoop.now
        check(at: context.eventLoop.now + headerTimeout, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            waitingSince = nil
            open += 1
            // Only a head that declares a body waits for one.
            let declared = head.headers.first(name: "Content-Length").flatMap { Int($0) }
            let hasBody = (declared ?? 0) > 0 || head.headers.contains(name: "Transfer-Encoding")
            (bodySince, bodyBytes) = (hasBody ? context.eventLoop.now : nil, 0)
            if !Self.targetMatchesHost(head) {
                refusing = true
                refuse(
                    .badRequest, code: .targetHostMismatch,
                    message: "the request's target names another host than its Host header", context: context)
                return
            }
            if let declared, declared > maxBodyBytes {
                refusing = true
                refuse(
                    .payloadTooLarge, code: .bodyTooLarge,
                    message: "the request's body is larger than the server takes (\(maxBodyBytes) bytes)",
                    context: context)
                return
            }
        case .body(let bytes):
            bodyBytes += bytes.readableBytes
        case .end:
            bodySince = nil
        }
        guard !refusing else { return }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        switch unwrapOutboundIn(data) {
        case .head(let head):
            answering = head.headers
        case .body:
            break
        case .end:
            answering = nil
            // The next head has its own time, from when the last response is out.
            open -= 1
            if open == 0 { waitingSince = context.eventLoop.now }
        }
    }

    /// A request answered below the codec (``WireReplay``), while the connection was idle: the
    /// next head has its own time, from now.
    func answeredBelow(context: ChannelHandlerContext) {
        waitingSince = context.eventLoop.now
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent,
            answering?.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true
        {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Looks at the connection at `time`: closes it when it has waited for a head for the whole
    /// timeout, else looks again when the timeout of what it waits for now runs out.
    private func check(at time: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: time) {
            let (rules, context) = loopBound.value
            let due: NIODeadline
            if let since = rules.waitingSince {
                due = since + rules.headerTimeout
            } else if let since = rules.bodySince {
                due =
                    since
                    + max(rules.headerTimeout, .seconds(Int64(rules.bodyBytes / Self.minimumBodyRate)) + .seconds(1))
            } else {
                // A request is open, its body all in: its answer may take as long as it takes.
                rules.check(at: context.eventLoop.now + rules.headerTimeout, context: context)
                return
            }
            if due <= context.eventLoop.now {
                context.close(promise: nil)
            } else {
                rules.check(at: due, context: context)
            }
        }
    }

    /// Answers `status` with the problem `code` and closes: the request goes no further.
    private func refuse(
        _ status: HTTPResponseStatus, code: ProblemCode, message: String, context: ChannelHandlerContext
    ) {
        let body = Problem.body(code: code, message: message)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }

    /// Whether `head`'s target is in origin form (`/path`, or `*`), or names the `Host` it carries.
    static func targetMatchesHost(_ head: HTTPRequestHead) -> Bool {
        let target = head.uri
        if target.hasPrefix("/") || target == "*" { return true }
        guard let schemeEnd = target.range(of: "://") else {
            // Authority form (CONNECT), which no route takes: the router answers it.
            return true
        }
        let rest = target[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hosts = head.headers["Host"]
        return hosts.count == 1 && hosts[0].lowercased() == authority.lowercased()
    }
}

/// How many connections each client address holds open, held to a share of its own.
///
/// As nginx's `limit_conn` does: one client opening connections until the server's cap cannot
/// keep another's request waiting. The trusted proxy's own address (`--trusted-proxy`) is not held to it: it
/// carries every client's connections, and caps them itself.
final class ClientConnections: Sendable {
    /// The most connections one address may hold.
    let limit: Int
    /// The address not held to it.
    let exempt: String?
    private let held = Mutex<[String: Int]>([:])

    init(limit: Int, exempt: String?) {
        self.limit = limit
        self.exempt = exempt
    }

    /// Counts a connection from `client`; false, counting nothing, when it holds its share.
    func open(_ client: String) -> Bool {
        guard client != exempt else { return true }
        return held.withLock { held in
            guard held[client, default: 0] < limit else { return false }
            held[client, default: 0] += 1
            return true
        }
    }

    /// Counts a connection from `client` closed.
    func close(_ client: String) {
        guard client != exempt else { return }
        held.withLock { held in
            guard let count = held[client], count > 1 else {
                held[client] = nil
                return
            }
            held[client] = count - 1
        }
    }
}
