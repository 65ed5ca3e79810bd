import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import DetourServer

/// `Expect: 100-continue` is answered from the head (RFC 9110 §10.1.1): 100 for a body that
/// fits, nothing for one past the limit (its route answers 413), and the routes never see the
/// expectation.
@Suite struct ExpectContinueTests {
    /// What the handler, with a limit of 1,000 bytes, writes back and passes on for `fields`.
    func pass(_ fields: HTTPFields) throws -> (written: [HTTPResponsePart], passed: [HTTPRequestPart]) {
        let channel = EmbeddedChannel(handler: ExpectContinue(maxBodyBytes: 1000))
        let head = HTTPRequest(
            method: .put, scheme: "http", authority: "127.0.0.1", path: "/api/v1/trips/x", headerFields: fields)
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{}")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        var written: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { written.append(part) }
        var passed: [HTTPRequestPart] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) { passed.append(part) }
        _ = try channel.finish()
        return (written, passed)
    }

    /// The head passed on, or `nil`.
    func passedHead(_ parts: [HTTPRequestPart]) -> HTTPRequest? {
        guard case .head(let head) = parts.first else { return nil }
        return head
    }

    @Test(arguments: [
        ([HTTPField(name: .expect, value: "100-continue"), HTTPField(name: .contentLength, value: "1000")], true),
        ([HTTPField(name: .expect, value: "100-Continue ")], true),
        ([HTTPField(name: .expect, value: "100-continue"), HTTPField(name: .contentLength, value: "1001")], false),
    ])
    func aBodyThatFitsIsAskedForAndOnePastTheLimitIsNot(_ fields: [HTTPField], _ continues: Bool) throws {
        let (written, passed) = try pass(HTTPFields(fields))
        #expect(written == (continues ? [.head(HTTPResponse(status: .continue))] : []))
        #expect(passed.count == 3, "head, body and end go on")
        #expect(passedHead(passed)?.headerFields[.expect] == nil, "the routes never see the expectation")
        #expect(passedHead(passed)?.headerFields[.contentLength] == fields.first { $0.name == .contentLength }?.value)
    }

    @Test func anyOtherRequestPassesAsItCame() throws {
        for fields: HTTPFields in [[:], [.expect: "something-else"], [.contentLength: "5000"]] {
            let (written, passed) = try pass(fields)
            #expect(written.isEmpty)
            #expect(passedHead(passed)?.headerFields == fields)
        }
    }
}
