import HummingbirdCore
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import DetourServer

/// Near its cap, the server closes the connections that wait for a request, and only those.
@Suite struct IdleConnectionsTests {
    /// A connection with the server's head rules, registered with `idle`.
    func connection(_ idle: IdleConnections) throws -> (EmbeddedChannel, RequestHeadRules) {
        let channel = EmbeddedChannel()
        let rules = RequestHeadRules(headerTimeout: .seconds(10), maxBodyBytes: 1 << 20)
        try channel.pipeline.syncOperations.addHandler(rules)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        idle.add(channel, rules: rules)
        return (channel, rules)
    }

    func head() -> HTTPServerRequestPart {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1:8080")
        return .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: headers))
    }

    @Test func onlyConnectionsWaitingForARequestAreShed() throws {
        let idle = IdleConnections()
        // Nothing sent yet; a request under way; a keep-alive whose response is out.
        let (fresh, freshRules) = try connection(idle)
        let (busy, busyRules) = try connection(idle)
        try busy.writeInbound(head())
        let (kept, keptRules) = try connection(idle)
        try kept.writeInbound(head())
        try kept.writeInbound(HTTPServerRequestPart.end(nil))
        try kept.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(freshRules.isIdle && !busyRules.isIdle && keptRules.isIdle)
        #expect(idle.count == 3)
        #expect(idle.shed())
        for channel in [fresh, busy, kept] { channel.embeddedEventLoop.run() }
        #expect(!fresh.isActive && !kept.isActive)
        #expect(busy.isActive, "a request under way is never cut")
        #expect(idle.count == 1, "a closed connection leaves the registry")
        _ = try? busy.finish()
    }

    /// A clock a test moves by hand, in nanoseconds.
    final class Clock: Sendable {
        let now = Atomic<Int64>(0)
        func advance(_ nanoseconds: Int64) { now.add(nanoseconds, ordering: .relaxed) }
    }

    /// Shedding runs at most once a second, unless the server is at its cap.
    @Test func sheddingIsRateLimitedBelowTheCap() {
        let clock = Clock()
        let idle = IdleConnections(interval: .seconds(1)) { clock.now.load(ordering: .relaxed) }
        #expect(idle.shed())
        clock.advance(999_999_999)
        #expect(!idle.shed())
        #expect(idle.shed(always: true))
        clock.advance(999_999_999)
        #expect(!idle.shed(), "the forced shed counts as the last one")
        clock.advance(1)
        #expect(idle.shed())
    }

    /// The budget counts as Hummingbird's maximum does, sheds from an eighth below the cap, and
    /// at the cap sheds whenever it last did.
    @Test func theBudgetShedsNearTheCapAndRefusesAtIt() {
        let clock = Clock()
        let idle = IdleConnections(interval: .seconds(1)) { clock.now.load(ordering: .relaxed) }
        var budget = ConnectionBudget(cap: 16, idle: idle)
        #expect(budget.headroom == 2)
        for _ in 0..<13 { budget.connectionOpened() }
        clock.advance(5_000_000_000)
        #expect(idle.shed(), "no shedding below the headroom: the first is now")
        clock.advance(2_000_000_000)
        budget.connectionOpened()  // 14: sheds, a second having passed
        #expect(!idle.shed())
        budget.connectionOpened()  // 15: within the second, no shedding
        #expect(budget.isAcceptingNewConnections())
        clock.advance(999_999_999)
        budget.connectionOpened()  // 16: at the cap, sheds though a second has not passed
        #expect(!budget.isAcceptingNewConnections())
        clock.advance(2)
        #expect(!idle.shed(), "the shed at the cap is the last one, not the 14th's")
        budget.connectionClosed()
        #expect(budget.isAcceptingNewConnections() && budget.count == 15)
        #expect(ConnectionBudget(cap: 4, idle: idle).headroom == 1)
    }
}
