import Testing

@testable import DetourServer

/// Each client address holds at most its share of the connections.
@Suite struct ClientConnectionsTests {
    @Test func aClientHoldsItsShareAndNotOneMore() {
        let clients = ClientConnections(limit: 2, exempt: nil)
        #expect(clients.open("10.0.0.1"))
        #expect(clients.open("10.0.0.1"))
        #expect(!clients.open("10.0.0.1"))
        // Another address has a share of its own.
        #expect(clients.open("10.0.0.2"))
        clients.close("10.0.0.1")
        #expect(clients.open("10.0.0.1"))
        #expect(!clients.open("10.0.0.1"))
    }

    @Test func closingWhatWasNeverCountedTakesNoShareAway() {
        let clients = ClientConnections(limit: 1, exempt: nil)
        clients.close("10.0.0.1")
        #expect(clients.open("10.0.0.1"))
        clients.close("10.0.0.1")
        clients.close("10.0.0.1")
        #expect(clients.open("10.0.0.1"))
        #expect(!clients.open("10.0.0.1"))
    }

    @Test func theTrustedProxyIsNotHeldToAShare() {
        let clients = ClientConnections(limit: 1, exempt: "127.0.0.1")
        for _ in 0..<5 { #expect(clients.open("127.0.0.1")) }
        clients.close("127.0.0.1")
        #expect(clients.open("10.0.0.1"))
        #expect(!clients.open("10.0.0.1"))
    }
}
