import DetourTestSupport
import Foundation
import Testing

/// Under `--diagnostics json`, every problem is one JSON object with the keys every diagnostic
/// has: the command line's own mistakes, which ArgumentParser wrote as text, and a batch run's
/// summary.
@Suite struct UsageDiagnosticsTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    static let keys: Set = ["severity", "code", "path", "file", "line", "column", "message"]
    static let lisbon = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-usage")
    }

    func record(_ line: Substring) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(line)")
    }

    static let mistakes: [[String]] = [
        [lisbon, "--bogus"],
        [lisbon, "--format", "nope"],
        [lisbon, "-o", lisbon],
        ["render", lisbon, "-d", "/tmp/x", "-j", "0"],
        ["render", lisbon, "-d", "/tmp/x", "--shard", "5/2"],
        ["render", lisbon, "-r"],
        [lisbon, "--max-input-mib", "0"],
        ["render"],
    ]

    @Test(arguments: mistakes)
    func aUsageErrorIsOneJSONObjectWithItsCode(_ arguments: [String]) throws {
        for spelling in [["--diagnostics", "json"], ["--diagnostics=json"]] {
            let result = try cli.run(arguments + spelling)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            try #require(lines.count == 1, "\(arguments): \(result.stderr)")
            let object = try record(lines[0])
            #expect(Set(object.keys) == Self.keys)
            #expect(object["code"] as? String == "usage")
            #expect(object["severity"] as? String == "error")
            #expect((object["message"] as? String)?.isEmpty == false)
        }
        // In text, ArgumentParser's own words and usage line, as before.
        let text = try cli.run(arguments)
        #expect(text.status == 64)
        #expect(text.stderr.hasPrefix("Error: "), "\(text.stderr)")
    }

    /// A value after `--` is an argument, not the option.
    @Test func theFormatIsReadOnlyFromOptions() throws {
        let result = try cli.run([Self.lisbon, "--bogus", "--", "--diagnostics", "json"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: "))
    }

    @Test func theBatchSummaryHasEveryKeyAndItsCounts() throws {
        let output = folder.url.appendingPathComponent("out")
        let result = try cli.run(
            [Self.lisbon, "-d", output.path, "--diagnostics", "json", "--today", "2026-11-22"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try record(try #require(result.stderr.split(separator: "\n").last))
        #expect(Set(last.keys) == Self.keys.union(["counts"]))
        #expect(last["severity"] as? String == "info")
        #expect(last["code"] as? String == "summary")
        #expect(last["message"] as? String == "1 written, 0 invalid, 0 unreadable")
        #expect(
            last["counts"] as? [String: Int] == [
                "written": 1, "invalid": 0, "unreadable": 0, "failed": 0, "removed": 0,
            ])
        // Run again with JSON reports only: the HTML report and index page go, and are counted.
        let again = try cli.run(
            [Self.lisbon, "-d", output.path, "--format", "json", "--diagnostics", "json", "--today", "2026-11-22"])
        let summary = try record(try #require(again.stderr.split(separator: "\n").last))
        #expect(
            summary["message"] as? String
                == "1 written, 0 invalid, 0 unreadable; 1 removed: a format no longer asked for")
        #expect((summary["counts"] as? [String: Int])?["removed"] == 1)
    }
}
