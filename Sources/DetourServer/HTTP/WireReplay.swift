import NIOCore

/// ``ResponseReplay``'s answers, written from the bytes a request came in, before SwiftNIO's
/// HTTP codec reads them.
///
/// A request for a format of a trip that carries nothing but its address is a few lines of ASCII:
/// a `GET` of a path in origin form, `HTTP/1.1`, a `Host`, and only the fields of
/// ``ResponseReplay/plainFields``. When the bytes of one read are exactly one such head, and the
/// connection has nothing under way (the codec has read every byte passed to it, and every answer
/// owed has ended), the answer is looked up in the same ``ReplayStore`` under the same key, and its
/// bytes, made once a second, are written as they are. Parsing the head, turning it into HTTP
/// types, and the outbound handlers were most of a repeated answer's time (perf): none of them
/// decides anything for a request that has nothing in it to decide on.
///
/// Anything else goes to the codec, as before: a head with any other field, a query, a body, a
/// second request in the same read (pipelined), part of a head, a byte outside printable ASCII,
/// and any request while the connection cannot take more bytes (its client is not reading).
/// Once a read that is not one such head has gone to the codec, every later read of the
/// connection goes there too, since the codec may hold part of a request. ``RequestHeadRules``
/// is told of each answer, so that its timeout for the next head counts from it.
///
/// This hand-written reading of a head is deliberately narrow: it says "plain" only for what
/// SwiftNIO's parser reads the same way, and "ask the codec" for everything else.
final class WireReplay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The longest head read here; a longer one goes to the codec, whose limit is its own.
    static let maxHeadBytes = 4096

    private let store: ReplayStore
    private let stamp: @Sendable () -> ReplayStamp?
    private let log: (@Sendable (String) -> Void)?
    private let unixSeconds: @Sendable () -> Int64
    private let rules: RequestHeadRules
    /// Whether a read has gone to the codec that was not one whole plain head: the codec may then
    /// hold part of a request, and every read is its from then on.
    private var passedPart = false

    init(
        store: ReplayStore, stamp: @escaping @Sendable () -> ReplayStamp?, log: (@Sendable (String) -> Void)?,
        unixSeconds: @escaping @Sendable () -> Int64, rules: RequestHeadRules
    ) {
        self.store = store
        self.stamp = stamp
        self.log = log
        self.unixSeconds = unixSeconds
        self.rules = rules
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !passedPart else { return context.fireChannelRead(data) }
        let bytes = unwrapInboundIn(data)
        guard let key = Self.plainKey(bytes) else {
            passedPart = true
            return context.fireChannelRead(data)
        }
        let since = log == nil ? nil : ContinuousClock.now
        // A client that does not read what it is sent has its next request go to the router,
        // whose writes wait for the connection: answers are not heaped up here.
        guard rules.isIdle, context.channel.isWritable, let now = stamp(),
            let (wire, bodyBytes) = store.wire(key, at: now, dated: unixSeconds())
        else {
            return context.fireChannelRead(data)
        }
        rules.answeredBelow(context: context)
        context.writeAndFlush(wrapOutboundOut(wire), promise: nil)
        if let log, let since {
            log(
                RequestLogMiddleware.line(
                    method: "GET", path: key.path, status: 200, bytes: bodyBytes, elapsed: ContinuousClock.now - since))
        }
    }

    /// The key of `bytes` when they are one whole plain `GET` head, and nothing more.
    static func plainKey(_ bytes: ByteBuffer) -> ReplayStore.Key? {
        guard bytes.readableBytes <= maxHeadBytes else { return nil }
        return bytes.withUnsafeReadableBytes { head -> ReplayStore.Key? in
            var reader = HeadReader(bytes: head)
            return reader.plainKey()
        }
    }
}

/// Reads one request head from raw bytes, saying yes only to a plain `GET`.
private struct HeadReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    /// The names of ``ResponseReplay/plainFields``, in lower case: what a plain request may carry
    /// besides `Host` is decided there, once.
    static let plainNames = ResponseReplay.plainFields.map { Array($0.canonicalName.utf8) }

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func plainKey() -> ReplayStore.Key? {
        guard let line = nextLine(), line.count > 14,
            matches(line.prefix(4), "GET ".utf8, anyCase: false),
            matches(line.suffix(9), " HTTP/1.1".utf8, anyCase: false)
        else { return nil }
        let target = line.dropFirst(4).dropLast(9)
        guard target.first == UInt8(ascii: "/"),
            !target.contains(where: { $0 == UInt8(ascii: "?") || $0 == Self.space })
        else { return nil }
        var host: Slice<UnsafeRawBufferPointer>?
        var fields = 0
        while let line = nextLine() {
            if line.isEmpty {
                // The head ends here, and so must the read.
                guard at == bytes.count, let host else { return nil }
                return ReplayStore.Key(
                    method: .get, authority: String(decoding: host, as: UTF8.self),
                    path: String(decoding: target, as: UTF8.self))
            }
            fields += 1
            guard fields <= 16, let colon = line.firstIndex(of: Self.colon) else { return nil }
            let name = line[line.startIndex..<colon]
            var value = line[(colon + 1)...]
            while let first = value.first, first == Self.space || first == Self.tab { value = value.dropFirst() }
            while let last = value.last, last == Self.space || last == Self.tab { value = value.dropLast() }
            if matches(name, "host".utf8) {
                guard host == nil, !value.isEmpty else { return nil }
                host = value
            } else if Self.plainNames.contains(where: { matches(name, $0) }) {
                // `Connection: close` is Hummingbird's to act on, as `ResponseReplay.key` says.
                if matches(name, "connection".utf8), !matches(value, "keep-alive".utf8) { return nil }
            } else {
                return nil
            }
        }
        return nil
    }

    /// The next line without its CRLF, when it is printable ASCII ending in CRLF.
    private mutating func nextLine() -> Slice<UnsafeRawBufferPointer>? {
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == Self.cr {
                guard at + 1 < bytes.count, bytes[at + 1] == Self.lf else { return nil }
                let line = bytes[start..<at]
                at += 2
                return line
            }
            guard (0x20...0x7E).contains(byte) || byte == Self.tab else { return nil }
            at += 1
        }
        return nil
    }

    /// Whether `bytes` are `text` (lowercase), its ASCII letters in any case unless `anyCase` is false.
    private func matches(
        _ bytes: Slice<UnsafeRawBufferPointer>, _ text: some Collection<UInt8>, anyCase: Bool = true
    ) -> Bool {
        guard bytes.count == text.count else { return false }
        return zip(bytes, text).allSatisfy { byte, wanted in
            let folded = anyCase && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            return folded == wanted
        }
    }
}
