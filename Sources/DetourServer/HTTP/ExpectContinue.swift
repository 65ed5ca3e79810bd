import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` (RFC 9110 §10.1.1) as soon as the request's head arrives, so a
/// client that waits before sending a body does not wait for nothing.
///
/// A request whose `Content-Length` fits the body limit gets `100 Continue` at once; one past
/// the limit does not, and its route answers 413 from the head alone, before the client sends
/// a byte of the body. Either way the request goes on to the routes without its `Expect`.
/// Hummingbird's responders never see the connection, so this stands in the channel, where
/// HTTP/1.1's parts pass.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The largest body a request may carry.
    let maxBodyBytes: Int

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data), let expect = request.headerFields[.expect] else {
            context.fireChannelRead(data)
            return
        }
        // Only `100-continue` is defined; any other expectation is left for the routes to ignore.
        guard expect.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" else {
            context.fireChannelRead(data)
            return
        }
        request.headerFields[.expect] = nil
        if let length = Self.declaredLength(request), length > maxBodyBytes {
            // No 100: the route refuses the body from its head, and the client need not send it.
        } else {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    /// The body's length as `Content-Length` declares it, when it does.
    static func declaredLength(_ request: HTTPRequest) -> Int? {
        guard let field = request.headerFields[.contentLength] else { return nil }
        return Int(field)
    }
}
