import DetourTestSupport
import Foundation
import Testing

/// The test helpers themselves: a record run must fail, and CI must never skip.
@Suite struct TestSupportTests {
    func scratchFile(_ contents: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("report.md")
        if let contents { try contents.write(to: url, atomically: true, encoding: .utf8) }
        return url
    }

    @Test func aMatchingGoldenFilePassesAndADifferentOneFailsWithADiff() throws {
        let url = try scratchFile("one\ntwo\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(Golden.check("one\ntwo\n", against: url, recording: false) == nil)
        let failure = try #require(Golden.check("one\nthree\n", against: url, recording: false))
        #expect(failure.contains("-two"))
        #expect(failure.contains("+three"))
        #expect(try String(contentsOf: url, encoding: .utf8) == "one\ntwo\n")
    }

    @Test func recordingWritesTheGoldenFileAndStillFails() throws {
        let url = try scratchFile("old\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let changed = try #require(Golden.check("new\n", against: url, recording: true))
        #expect(changed.contains(Golden.recordVariable))
        #expect(try String(contentsOf: url, encoding: .utf8) == "new\n")
        // Even when nothing changed, a record run must not pass for a normal one.
        #expect(Golden.check("new\n", against: url, recording: true) != nil)
    }

    @Test func aMissingGoldenFileIsRecordedAndFails() throws {
        let url = try scratchFile(nil)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let failure = try #require(Golden.check("first\n", against: url, recording: false))
        #expect(failure.contains("recorded a new golden file"))
        #expect(try String(contentsOf: url, encoding: .utf8) == "first\n")
    }

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
