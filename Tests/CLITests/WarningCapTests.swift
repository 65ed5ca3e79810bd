import DetourTestSupport
import Foundation
import Testing

/// Text lists the first 20 warnings of a code and says how many more there are; JSON, and
/// `--all-warnings`, list every one.
@Suite struct WarningCapTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("detour-warnings")
    }

    /// A trip of one stay with `drafts` empty detours: one `draft-detour` warning each.
    func trip(drafts: Int, named name: String = "drafts.json") throws -> URL {
        let detours = Array(repeating: "{}", count: drafts).joined(separator: ", ")
        let text = """
            {"title": "Drafts", "destinations": [{"name": "A", "arrival": "2027-01-01", "departure": "2027-01-03",
             "location": {"lat": 0, "lon": 0}, "detours": [\(detours)]}]}
            """
        let url = scratch.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func lines(_ stderr: String, containing text: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains(text) }
    }

    @Test(arguments: [(20, 20, nil), (21, 20, 1), (25, 20, 5)] as [(Int, Int, Int?)])
    func textListsTwentyOfACodeAndCountsTheRest(drafts: Int, listed: Int, more: Int?) throws {
        let cli = try CommandRunner.built()
        let result = try cli.run([try trip(drafts: drafts).path, "--today", "2026-11-24", "-o", "/dev/null"])
        #expect(result.status == 0)
        #expect(lines(result.stderr, containing: "draft detour:").count == listed)
        let summary = lines(result.stderr, containing: "not shown")
        if let more {
            #expect(
                summary == [
                    "\(scratch.url.path)/drafts.json: warning: \(more) more draft-detour \(more == 1 ? "warning" : "warnings") not shown; --all-warnings shows every one [draft-detour]"
                ])
            #expect(result.stderr.hasSuffix(String(summary[0]) + "\n"), "the count comes last")
        } else {
            #expect(summary.isEmpty, "exactly at the limit, nothing is held back")
        }
    }

    @Test func allWarningsAndJSONListEveryOne() throws {
        let cli = try CommandRunner.built()
        let path = try trip(drafts: 25).path
        let all = try cli.run([path, "--today", "2026-11-24", "-o", "/dev/null", "--all-warnings"])
        #expect(lines(all.stderr, containing: "draft detour:").count == 25)
        #expect(lines(all.stderr, containing: "not shown").isEmpty)
        let json = try cli.run([path, "--today", "2026-11-24", "-o", "/dev/null", "--diagnostics", "json"])
        #expect(lines(json.stderr, containing: "\"code\":\"draft-detour\"").count == 25)
        let validate = try cli.run(["validate", path])
        #expect(lines(validate.stderr, containing: "draft detour:").count == 20)
    }

    @Test func aBatchCountsEachTripsWarningsOnItsOwn() throws {
        let cli = try CommandRunner.built()
        let folder = scratch.url.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a.json", "b.json"] {
            try FileManager.default.moveItem(
                at: try trip(drafts: 22, named: name), to: folder.appendingPathComponent(name))
        }
        let out = scratch.url.appendingPathComponent("out").path
        let result = try cli.run([folder.path, "-d", out, "--today", "2026-11-24", "--quiet"])
        #expect(result.status == 0)
        #expect(lines(result.stderr, containing: "draft detour:").count == 40)
        #expect(lines(result.stderr, containing: "2 more draft-detour warnings not shown").count == 2)
    }
}
