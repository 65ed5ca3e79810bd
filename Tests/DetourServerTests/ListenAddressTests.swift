import Testing

@testable import DetourServer

/// Which addresses `serve` may listen on without a token: loopback only.
@Suite struct ListenAddressTests {
    @Test(
        arguments: [
            ("0.0.0.0", false, false), ("0.0.0.0", true, true), ("::", false, false), ("::1", false, true),
            ("localhost", false, true), ("127.1.2.3", false, true), ("192.168.1.2", false, false),
            ("192.168.1.2", true, true), ("127.0.0.1.example.org", false, false), ("127.evil", false, false),
            ("127.0.0.256", false, false), ("127.0.0", false, false), ("127.255.255.254", false, true),
        ] as [(String, Bool, Bool)])
    func aNonLoopbackAddressNeedsAToken(_ host: String, _ hasToken: Bool, _ accepted: Bool) {
        let refusal = ListenAddress.refusal(host: host, hasToken: hasToken)
        #expect((refusal == nil) == accepted, "\(host)")
        if let refusal { #expect(refusal.contains("--host \(host) is not a loopback address")) }
    }

    @Test func theWildcardAddressesListenEverywhere() {
        #expect(ListenAddress.isWildcard("0.0.0.0"))
        #expect(ListenAddress.isWildcard("::"))
        #expect(!ListenAddress.isWildcard("127.0.0.1"))
    }
}
