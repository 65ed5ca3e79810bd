import DetourTestSupport
import Foundation
import Testing

/// `--check`: golden files that check themselves.
///
/// Nothing is written; exit 1 names each file that differs, is missing, or that no trip writes.
@Suite struct CheckTests {
    let cli: CommandRunner
    let scratch: ScratchFolder
    var golden: URL { scratch.url.appendingPathComponent("golden") }

    init() throws {
        cli = try CommandRunner.built()
        scratch = try ScratchFolder("detour-check")
    }

    func batch(_ extra: [String] = []) throws -> CommandRunner.Result {
        try cli.run(
            [Fixtures.samples.path, "-d", golden.path, "--today", "2026-11-24", "--format", "html,markdown"] + extra)
    }

    /// Every file under `folder` with its bytes.
    func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            if let data = try? Data(contentsOf: url) { files[name] = data }
        }
        return files
    }

    @Test func freshReportsMatchAndNothingIsWritten() throws {
        #expect(try batch().status == 0)
        let before = try snapshot(golden)
        let result = try batch(["--check"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\(before.count) reports up to date\n"), "\(result.stderr)")
        #expect(try snapshot(golden) == before)
    }

    @Test func eachDifferingMissingOrStrayFileIsNamedAndTheRunFails() throws {
        // A run with one more trip, `gone`, whose reports the index lists: strays once it is gone.
        let gone = scratch.url.appendingPathComponent("gone.json")
        try FileManager.default.copyItem(at: Fixtures.sampleURL("lisbon-city-break.json"), to: gone)
        let first = try cli.run(
            [Fixtures.samples.path, gone.path, "-d", golden.path, "--today", "2026-11-24", "--format", "html,markdown"])
        #expect(first.status == 0)
        let html = golden.appendingPathComponent("nordic-budget.html")
        let text = try String(contentsOf: html, encoding: .utf8)
        try text.replacingOccurrences(of: "<title>", with: "<title>Old ").write(
            to: html, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: golden.appendingPathComponent("index.md"))
        // Files no index lists are not the run's: neither compared nor strays.
        try Data("kept".utf8).write(to: golden.appendingPathComponent("notes.txt"))
        try Data("kept".utf8).write(to: golden.appendingPathComponent("mine.md"))
        let before = try snapshot(golden)
        let result = try batch(["--check"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").filter {
            $0.contains("[report-differs]") || $0.hasPrefix("  ")
        }
        // The files a run writes, in order, then the strays.
        #expect(
            lines == [
                "\(golden.path)/index.html:43: error: the report differs from what render writes now, first on this line [report-differs]",
                "  on disk: <p class=\"summary\">6 written, 0 invalid, 0 unreadable</p>",
                "  now:     <p class=\"summary\">5 written, 0 invalid, 0 unreadable</p>",
                "\(golden.path)/index.json:3: error: the report differs from what render writes now, first on this line [report-differs]",
                "  on disk:   \"summary\": \"6 written, 0 invalid, 0 unreadable\",",
                "  now:       \"summary\": \"5 written, 0 invalid, 0 unreadable\",",
                "\(golden.path)/index.md: error: the report is missing [report-differs]",
                "\(golden.path)/nordic-budget.html:8: error: the report differs from what render writes now, first on this line [report-differs]",
                "  on disk: <title>Old Stockholm and Oslo on a budget</title>",
                "  now:     <title>Stockholm and Oslo on a budget</title>",
                "\(golden.path)/gone.html: error: no trip writes this report now: its trip was removed or renamed [report-differs]",
                "\(golden.path)/gone.md: error: no trip writes this report now: its trip was removed or renamed [report-differs]",
            ], "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "9 reports up to date, 3 differ, 1 missing, 2 would be removed: trips removed or renamed\n"),
            "\(result.stderr)")
        #expect(try snapshot(golden) == before, "--check writes nothing")
    }

    @Test func aMissingFolderIsEveryReportMissingAndIsNotCreated() throws {
        let result = try batch(["--check"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("index.html: error: the report is missing [report-differs]"))
        #expect(!FileManager.default.fileExists(atPath: golden.path))
    }

    @Test func oneReportIsCheckedWithO() throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let file = scratch.url.appendingPathComponent("plan.md")
        #expect(try cli.run([sample, "-o", file.path, "--today", "2026-11-24"]).status == 0)
        let same = try cli.run([sample, "-o", file.path, "--today", "2026-11-24", "--check"])
        #expect(same.status == 0)
        #expect(same.stderr == "\(file.path) is up to date\n")
        let other = try cli.run([sample, "-o", file.path, "--today", "2026-11-25", "--check"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("plan.md:"))
        #expect(other.stderr.hasSuffix("\n\(file.path) differs\n"), "\(other.stderr)")
        let missing = try cli.run([sample, "-o", file.path + ".nope", "--format", "markdown", "--check"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasSuffix("\n\(file.path).nope is missing\n"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path + ".nope"))
    }

    @Test(arguments: [["--check"], ["--check", "-o", "-"]])
    func checkNeedsFilesToCompareWith(_ options: [String]) throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let result = try cli.run([sample] + options)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--check needs -o FILE or -d DIR"))
    }

    @Test func theFirstDifferingLineIsFoundAtEitherEnd() throws {
        let base = scratch.url.appendingPathComponent("a.md")
        let sample = Fixtures.samples.appendingPathComponent("nordic-budget.json").path
        #expect(try cli.run([sample, "-o", base.path, "--today", "2026-11-24"]).status == 0)
        // One line more at the end: the first differing line is past the shorter file's end.
        var text = try String(contentsOf: base, encoding: .utf8)
        text += "extra\n"
        try text.write(to: base, atomically: true, encoding: .utf8)
        let longer = try cli.run([sample, "-o", base.path, "--today", "2026-11-24", "--check"])
        #expect(longer.status == 1)
        #expect(longer.stderr.contains("  on disk: extra\n  now:     \n"), "\(longer.stderr)")
    }
}
