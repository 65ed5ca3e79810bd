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
        try channel.pipeline.syncOperations.addHandler(RequestHeadRules(headerTimeout: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    func head(_ target: String, hosts: [String] = ["127.0.0.1:8080"]) -> HTTPServerRequestPart {
        var headers = HTTPHeaders()
        for host in hosts { headers.add(name: "Host", value: host) }
        return .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers))
    }

    @Test(arguments: [
        ("/trips/x", ["127.0.0.1:8080"], true), ("*", ["127.0.0.1:8080"], true),
        ("http://127.0.0.1:8080/trips/x", ["127.0.0.1:8080"], true),
        ("HTTP://LOCALHOST:8080?x", ["localhost:8080"], true), ("127.0.0.1:8080", ["127.0.0.1:8080"], true),
        ("http://evil.example/", ["127.0.0.1:8080"], false), ("http://127.0.0.1:8081/", ["127.0.0.1:8080"], false),
        ("http://127.0.0.1:8080/", [], false), ("http://127.0.0.1:8080/", ["127.0.0.1:8080", "127.0.0.1:8080"], false),
    ])
    func anAbsoluteTargetNamesTheHostItCarries(_ target: String, _ hosts: [String], _ passes: Bool) throws {
        let channel = try channel()
        try channel.writeInbound(head(target, hosts: hosts))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
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
            #expect(response.status == .badRequest)
            guard case .body(.byteBuffer(let body)) = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
                Issue.record("no body")
                return
            }
            #expect(String(buffer: body).contains("\"code\":\"target-host-mismatch\""))
            #expect(!channel.isActive, "and the connection closes")
        }
        _ = try? channel.finish()
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
}
