import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import DetourServer

/// A request's head before any route.
///
/// An absolute-form target names the Host it carries, and the head comes in time. The channel's clock is advanced by hand: nothing here waits.
@Suite struct RequestHeadRulesTests {
    func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            RequestHeadRules(headerTimeout: .seconds(10), maxBodyBytes: 1 << 20))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    func head(_ target: String, hosts: [String] = ["127.0.0.1:8080"], length: Int? = nil) -> HTTPServerRequestPart {
        var headers = HTTPHeaders()
        for host in hosts { headers.add(name: "Host", value: host) }
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        return .head(
            HTTPRequestHead(version: .http1_1, method: length == nil ? .GET : .POST, uri: target, headers: headers))
    }

    /// Whether `part`, the head on its way in, went on (`nil`), or was refused with `status` and
    /// the problem `code` and the connection closed (`false` when anything else happened).
    func expectPassesOrIsRefused(
        _ part: HTTPServerRequestPart, end: Bool = false, passes: Bool, status: HTTPResponseStatus, code: String
    ) throws {
        let channel = try channel()
        try channel.writeInbound(part)
        if end { try channel.writeInbound(HTTPServerRequestPart.end(nil)) }
        let passed = try channel.readInbound(as: HTTPServerRequestPart.self)
        let answered = try channel.readOutbound(as: HTTPServerResponsePart.self)
        if passes {
            #expect(passed != nil)
            #expect(answered == nil)
        } else {
            #expect(passed == nil, "the request goes no further")
            guard case .head(let response) = answered else {
                Issue.record("no answer")
                return
            }
            #expect(response.status == status)
            guard case .body(.byteBuffer(let body)) = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
                Issue.record("no body")
                return
            }
            #expect(String(buffer: body).contains("\"code\":\"\(code)\""))
            #expect(!channel.isActive, "and the connection closes")
        }
        _ = try? channel.finish()
    }

    /// `count` bytes of a body.
    func bytes(_ count: Int) -> HTTPServerRequestPart {
        .body(ByteBuffer(repeating: UInt8(ascii: "x"), count: count))
    }

    @Test(arguments: [
        ("/trips/x", ["127.0.0.1:8080"], true), ("*", ["127.0.0.1:8080"], true),
        ("http://127.0.0.1:8080/trips/x", ["127.0.0.1:8080"], true),
        ("HTTP://LOCALHOST:8080?x", ["localhost:8080"], true), ("127.0.0.1:8080", ["127.0.0.1:8080"], true),
        ("http://evil.example/", ["127.0.0.1:8080"], false), ("http://127.0.0.1:8081/", ["127.0.0.1:8080"], false),
        ("http://127.0.0.1:8080/", [], false), ("http://127.0.0.1:8080/", ["127.0.0.1:8080", "127.0.0.1:8080"], false),
    ])
    func anAbsoluteTargetNamesTheHostItCarries(_ target: String, _ hosts: [String], _ passes: Bool) throws {
        try expectPassesOrIsRefused(
            head(target, hosts: hosts), end: true, passes: passes, status: .badRequest, code: "target-host-mismatch")
    }

    @Test func aConnectionWithoutAHeadIsClosedAtTheTimeout() throws {
        let channel = try channel()
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// The head disarms the timeout until its response ends, however long that takes.
    ///
    /// Then the next head has its own time. A pipelined head is not timed again.
    @Test func eachHeadHasItsTimeFromTheLastResponse() throws {
        let channel = try channel()
        try channel.writeInbound(head("/a"))
        try channel.writeInbound(head("/b"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "a slow answer is not a slow head")
        let ok = HTTPResponseHead(version: .http1_1, status: .ok)
        try channel.writeOutbound(HTTPServerResponsePart.head(ok))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "the pipelined request is still answered")
        try channel.writeOutbound(HTTPServerResponsePart.head(ok))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "no next head within 10 s of the last response")
    }

    /// A body declared larger than any route takes is refused from the head, at the limit's edge.
    @Test(arguments: [(1 << 20, true), ((1 << 20) + 1, false), (999_999_999, false)])
    func aBodyDeclaredPastTheLimitIsRefusedFromTheHead(_ length: Int, _ passes: Bool) throws {
        try expectPassesOrIsRefused(
            head("/login", length: length), passes: passes, status: .payloadTooLarge, code: "body-too-large")
    }

    /// A byte every five seconds keeps no connection: once the head's time has passed, the body
    /// comes at 240 bytes a second on average or the connection closes.
    @Test func aTricklingBodyIsCutOff() throws {
        let channel = try channel()
        try channel.writeInbound(head("/login", length: 100))
        try channel.writeInbound(bytes(1))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        try channel.writeInbound(bytes(1))
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive, "within the head's time")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "2 bytes in 10 s")
    }

    /// A body that comes at the rate is never cut, however long it takes; once it is in, the
    /// answer may take as long as it takes.
    @Test func aSteadyBodyIsNotCutOff() throws {
        let channel = try channel()
        try channel.writeInbound(head("/api/v1/trips/x", length: 300 * 60))
        for _ in 0..<60 {
            try channel.writeInbound(bytes(300))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            #expect(channel.isActive)
        }
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(channel.isActive, "a slow answer is no slow body")
        _ = try? channel.finish()
    }
}
