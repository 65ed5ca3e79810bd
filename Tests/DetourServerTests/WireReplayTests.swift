import DetourCore
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Testing

@testable import DetourServer

/// A repeated answer written from the bytes a request came in: only for one whole plain head,
/// only while the connection has nothing under way, byte for byte what SwiftNIO's encoder
/// writes, and with the head timeout counted from it.
@Suite struct WireReplayTests {
    typealias Shared = ResponseReplayTests.Shared

    /// SwiftNIO's HTTP/1.1 server pipeline as Hummingbird sets it up, with ``RequestHeadRules``
    /// after the decoder and the handler in front; the test is the router, at the tail.
    final class Harness {
        let store = ReplayStore()
        let stamp = Shared<ReplayStamp?>(ReplayStamp(epoch: 1, day: ResponseReplayTests.day))
        let lines = Shared<[String]>([])
        let seconds = Shared<Int64>(1_796_083_199)
        let channel = EmbeddedChannel()

        init() throws {
            let (stamp, lines, seconds) = (stamp, lines, seconds)
            let operations = channel.pipeline.syncOperations
            try operations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
            let rules = RequestHeadRules(headerTimeout: .seconds(10), maxBodyBytes: 1 << 20)
            try operations.addHandler(rules)
            let wire = WireReplay(
                store: store, stamp: { stamp.value }, log: { line in lines.update { $0.append(line) } },
                unixSeconds: { seconds.value }, rules: rules)
            try operations.addHandler(wire, position: .before(operations.handler(type: HTTPResponseEncoder.self)))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        }

        /// Keeps `body` as the answer to `GET path` from `127.0.0.1`.
        func keep(_ path: String = "/trips/lisbon.html", body: String = "<html>", length: Bool = true) {
            var fields: HTTPFields = [.contentType: "text/html"]
            if length { fields[.contentLength] = String(body.utf8.count) }
            guard let stamp = stamp.value else { return }
            store.keep(
                ReplayStore.Entry(
                    head: HTTPResponse(status: .ok, headerFields: fields), body: ByteBuffer(string: body), stamp: stamp),
                for: ReplayStore.Key(method: .get, authority: "127.0.0.1", path: path))
        }

        /// Sends `text` as one read; what was written back, and the parts the router got.
        func send(_ text: String) throws -> (written: String, passed: [HTTPServerRequestPart]) {
            try channel.writeInbound(ByteBuffer(string: text))
            return (try written(), try passed())
        }

        func written() throws -> String {
            var text = ""
            while let bytes = try channel.readOutbound(as: IOData.self) {
                guard case .byteBuffer(let buffer) = bytes else { continue }
                text += String(buffer: buffer)
            }
            return text
        }

        func passed() throws -> [HTTPServerRequestPart] {
            var parts: [HTTPServerRequestPart] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            return parts
        }

        /// The router's answer to the request it holds.
        func answer(_ body: String = "<router>") throws {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            try channel.writeOutbound(
                HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
            try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body))))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }
    }

    static let plain = "GET /trips/lisbon.html HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: t\r\n\r\n"
    static let answer =
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 6\r\nDate: Mon, 30 Nov 2026 23:59:59 GMT\r\n\r\n<html>"

    @Test func aPlainHeadIsAnsweredFromTheStoreWithoutTheCodec() throws {
        let site = try Harness()
        site.keep()
        let (written, passed) = try site.send(Self.plain)
        #expect(passed.isEmpty, "the router sees nothing")
        #expect(written == Self.answer)
        site.seconds.update { $0 += 1 }
        #expect(try site.send(Self.plain).written.contains("Date: Tue, 01 Dec 2026 00:00:00 GMT\r\n"))
        let lines = site.lines.value
        #expect(lines.count == 2 && lines[0].hasPrefix("GET /trips/lisbon.html 200 6 "), "\(lines)")
    }

    /// What is written is what the codec writes for the same answer, after the router's handlers.
    @Test func theBytesAreThoseSwiftNIOWrites() throws {
        let head = HTTPResponse(
            status: .ok,
            headerFields: [
                .contentType: "text/html; charset=utf-8", .eTag: "\"abc\"", .contentLength: "6",
                HTTPField.Name("X-Frame-Options") ?? .accept: "DENY", .date: "Mon, 30 Nov 2026 23:59:59 GMT",
            ])
        let body = ByteBuffer(string: "<html>")
        let codec = EmbeddedChannel()
        try codec.pipeline.syncOperations.addHandlers([HTTPResponseEncoder(), HTTP1ToHTTPServerCodec(secure: false)])
        try codec.writeOutbound(HTTPResponsePart.head(head))
        try codec.writeOutbound(HTTPResponsePart.body(body))
        try codec.writeOutbound(HTTPResponsePart.end(nil))
        var encoded = ByteBuffer()
        while case .byteBuffer(var part) = try codec.readOutbound(as: IOData.self) { encoded.writeBuffer(&part) }
        #expect(ReplayStore.wire(head, body: body).map { String(buffer: $0) } == String(buffer: encoded))
        // Without a length the encoder frames the body itself; other than 200 is never kept.
        var unframed = head
        unframed.headerFields[.contentLength] = nil
        #expect(ReplayStore.wire(unframed, body: body) == nil)
        #expect(ReplayStore.wire(HTTPResponse(status: .notFound, headerFields: head.headerFields), body: body) == nil)
    }

    @Test(arguments: [
        "GET /trips/lisbon.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /trips/lisbon.html HTTP/1.1\r\nhost:127.0.0.1  \r\n\r\n",
        "GET /trips/lisbon.html HTTP/1.1\r\nUser-Agent: wrk\r\nHOST: \t127.0.0.1\r\nAccept: */*\r\n"
            + "Accept-Encoding: gzip\r\nAccept-Language: en\r\nConnection: Keep-Alive\r\n\r\n",
    ])
    func aPlainHeadHasAKey(_ text: String) {
        #expect(
            WireReplay.plainKey(ByteBuffer(string: text))
                == ReplayStore.Key(method: .get, authority: "127.0.0.1", path: "/trips/lisbon.html"))
    }

    @Test(arguments: [
        ("not GET", "HEAD /trips/lisbon.html HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("a method is as it is written", "get /trips/lisbon.html HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("HTTP/1.0", "GET /trips/lisbon.html HTTP/1.0\r\nHost: h\r\n\r\n"),
        ("a query", "GET /trips/lisbon.html?feed=x HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("absolute form", "GET http://h/trips/lisbon.html HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("no Host", "GET /trips/lisbon.html HTTP/1.1\r\nUser-Agent: t\r\n\r\n"),
        ("an empty Host", "GET /trips/lisbon.html HTTP/1.1\r\nHost: \r\n\r\n"),
        ("two Hosts", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n"),
        ("a cookie", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nCookie: a=b\r\n\r\n"),
        ("a credential", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer x\r\n\r\n"),
        ("a condition", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"x\"\r\n\r\n"),
        ("a body", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx"),
        ("a length", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"),
        ("close", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"),
        ("a space before the colon", "GET /trips/lisbon.html HTTP/1.1\r\nHost : h\r\n\r\n"),
        ("a folded line", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\n  more\r\n\r\n"),
        ("a bare LF", "GET /trips/lisbon.html HTTP/1.1\nHost: h\n\n"),
        ("a lone CR", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\n\r"),
        ("not ASCII", "GET /trips/lisbön.html HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("a control byte", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\u{1}\r\n\r\n"),
        ("part of a head", "GET /trips/lisbon.html HTTP/1.1\r\nHost: h\r\n"),
        ("two heads", "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("a space in the target", "GET /trips/lisbon.html x HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("17 fields", "GET /a HTTP/1.1\r\nHost: h\r\n" + String(repeating: "Accept: */*\r\n", count: 16) + "\r\n"),
        (
            "over 4,096 bytes",
            "GET /a HTTP/1.1\r\nHost: h\r\nUser-Agent: " + String(repeating: "x", count: 4070) + "\r\n\r\n"
        ),
    ])
    func anyOtherReadHasNone(_ why: String, _ text: String) {
        #expect(WireReplay.plainKey(ByteBuffer(string: text)) == nil, "\(why)")
    }

    /// What a plain request may carry is `ResponseReplay`'s list, in any case, and nothing else.
    @Test func theFieldsAPlainHeadMayCarryAreResponseReplays() {
        for field in ResponseReplay.plainFields {
            let value = field == .connection ? "keep-alive" : "x"
            let head = "GET /a HTTP/1.1\r\nHost: h\r\n\(field.canonicalName.uppercased()): \(value)\r\n\r\n"
            #expect(WireReplay.plainKey(ByteBuffer(string: head)) != nil, "\(field)")
        }
        #expect(WireReplay.plainKey(ByteBuffer(string: "GET /a HTTP/1.1\r\nHost: h\r\nOrigin: x\r\n\r\n")) == nil)
    }

    @Test func theLimitsHoldAtThemselves() {
        let sixteen = "GET /a HTTP/1.1\r\nHost: h\r\n" + String(repeating: "Accept: */*\r\n", count: 15) + "\r\n"
        #expect(WireReplay.plainKey(ByteBuffer(string: sixteen)) != nil, "16 fields")
        let start = "GET /a HTTP/1.1\r\nHost: h\r\nUser-Agent: "
        let long = start + String(repeating: "x", count: WireReplay.maxHeadBytes - start.utf8.count - 4) + "\r\n\r\n"
        #expect(long.utf8.count == WireReplay.maxHeadBytes && WireReplay.plainKey(ByteBuffer(string: long)) != nil)
    }

    @Test func aHeadNotKeptOrAStaleOneGoesToTheRouter() throws {
        let site = try Harness()
        #expect(try site.send(Self.plain).passed.count == 2, "nothing kept")
        try site.answer()
        _ = try site.written()
        site.keep("/trips/lisbon.html", body: "<html>", length: false)
        #expect(try site.send(Self.plain).passed.count == 2, "kept, but the encoder would frame it")
        try site.answer()
        _ = try site.written()
        site.keep()
        site.stamp.update { $0 = ReplayStamp(epoch: 2, day: ResponseReplayTests.day) }
        #expect(try site.send(Self.plain).passed.count == 2, "made before the folder changed")
        try site.answer()
        _ = try site.written()
        site.stamp.update { $0 = nil }
        #expect(try site.send(Self.plain).passed.count == 2, "the watch is not healthy")
        try site.answer()
        _ = try site.written()
        site.stamp.update { $0 = ReplayStamp(epoch: 1, day: ResponseReplayTests.day) }
        site.keep()
        site.channel.isWritable = false
        #expect(try site.send(Self.plain).passed.count == 2, "the client is not reading")
        try site.answer()
        _ = try site.written()
        site.channel.isWritable = true
        #expect(try site.send(Self.plain).passed.isEmpty)
    }

    @Test func noAnswerIsWrittenAheadOfOneStillOwed() throws {
        let site = try Harness()
        #expect(try site.send(Self.plain).passed.count == 2)
        site.keep()
        // A second plain head, pipelined behind the one the router holds, waits its turn there.
        #expect(try site.send(Self.plain).passed.count == 2)
        try site.answer("<one>")
        try site.answer("<two>")
        let answers = try site.written()
        #expect(answers.hasSuffix("<one>HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n<two>"), "\(answers)")
        let (again, passed) = try site.send(Self.plain)
        #expect(again == Self.answer && passed.isEmpty, "once nothing is owed, it is answered here again")
    }

    @Test func afterAReadThatIsNotOnePlainHeadEveryReadGoesToTheCodec() throws {
        let site = try Harness()
        site.keep()
        #expect(
            try site.send("GET /trips/lisbon.html HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Other: 1\r\n\r\n").passed.count == 2)
        try site.answer()
        _ = try site.written()
        #expect(try site.send(Self.plain).passed.count == 2, "the codec might hold part of a request")
        // A head in two reads: the second part alone would look plain.
        let split = try Harness()
        split.keep()
        #expect(try split.send("GET /trips/lisbon.html HTTP/1.1\r\n").passed.isEmpty)
        let (written, passed) = try split.send("Host: 127.0.0.1\r\n\r\n")
        #expect(written.isEmpty && passed.count == 2)
    }

    /// The timeout for the next head counts from an answer written here, as from any other.
    @Test func theHeadTimeoutCountsFromAnAnswerWrittenHere() throws {
        let site = try Harness()
        site.keep()
        site.channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(try site.send(Self.plain).written == Self.answer)
        site.channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(site.channel.isActive, "18 s open, 9 s idle")
        site.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!site.channel.isActive)
    }
}
