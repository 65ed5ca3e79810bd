import DetourTestSupport
import Foundation
import Testing

/// The test helpers themselves: CI must never skip.
@Suite struct TestSupportTests {
    @Test func underCIEveryTestRunsWhateverIsMissing() {
        #expect(CI.isRequired(["CI": "true"]))
        #expect(CI.isRequired(["CI": "1"]))
        #expect(!CI.isRequired(["CI": "false"]))
        #expect(!CI.isRequired([:]))
        #expect(CI.runs(whenAvailable: true))
        #expect(CI.runs(whenAvailable: false) == CI.isRequired)
        #expect(Tool.usable("detour-no-such-command") == CI.isRequired)
        #expect(!Tool.available("detour-no-such-command"))
    }
}
