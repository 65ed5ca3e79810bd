import DetourTestSupport
import Foundation
import Testing

/// `docs/detour-report.1`: made by swift-argument-parser's generate-manual from the command
/// definitions (`.ci/manual`), kept current, and readable with `man`.
@Suite struct ManualTests {
    static let page = Fixtures.repository.appendingPathComponent("docs/detour-report.1")

    /// The generate-manual tool, which SwiftPM builds beside the binary when the plugin runs
    /// (`.ci/run` runs it before the tests; so does `.ci/manual`), or in the usual build folder
    /// when the tests run from another one (`.ci/coverage` builds in `.build-coverage`): the
    /// tool reads the binary under test, whichever built it.
    static var generator: URL? {
        guard let cli = CommandRunner() else { return nil }
        let folders = [
            cli.executable.deletingLastPathComponent(), Fixtures.repository.appendingPathComponent(".build/debug"),
        ]
        return folders.flatMap { folder in
            ["generate-manual-tool", "generate-manual"].map { folder.appendingPathComponent($0) }
        }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The page without its `.Dd` line, the day it was written, which is not the command's.
    static func withoutDate(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(".Dd ") }
    }

    /// The page in the repository says what the built binary's commands say.
    ///
    /// The test runs the plugin's own tool on the binary `swift test` built, as the plugin does,
    /// instead of running `swift package plugin generate-manual`: that would build the package
    /// again inside the test (minutes, and waiting on the build folder `swift test` holds). The
    /// tool takes well under a second.
    @Test(
        .enabled(
            if: CI.runs(whenAvailable: generator != nil),
            "needs generate-manual-tool: run 'swift package plugin generate-manual --configuration debug' once"))
    func theManPageIsCurrent() throws {
        let cli = try CommandRunner.built()
        let generator = try #require(
            Self.generator,
            "generate-manual-tool is not built: run 'swift package plugin generate-manual --configuration debug'")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-manual-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner(executable: generator).run(
            [cli.executable.path, "--output-directory", folder.path, "--date", "2000-01-01"])
        try #require(result.status == 0, "\(result.stderr)")
        let generated = try Data(contentsOf: folder.appendingPathComponent("detour-report.1"))
        // Finished as `.ci/manual` finishes it: one sentence a line, exit statuses, examples.
        let python = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("python3"))))
        let finisher = Fixtures.repository.appendingPathComponent(".ci/manual-finish.py").path
        let finished = try python.run([finisher], stdin: generated)
        try #require(finished.status == 0, "\(finished.stderr)")
        let fresh = finished.output
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(fresh.contains(".Dd January 1, 2000"), "the tool did not write the page asked for")
        let difference = LineDiff.unified(
            old: committed, new: fresh, oldName: "docs/detour-report.1", newName: "generated")
        let current = Self.withoutDate(committed) == Self.withoutDate(fresh)
        #expect(current, "docs/detour-report.1 is stale; run .ci/manual\n\(difference)")
    }

    /// mandoc, the manual's own checker, has nothing to say about the page, at any level.
    @Test(.enabled(if: CI.runs(whenAvailable: Tool.usable("mandoc")), "needs mandoc (Debian: mandoc)"))
    func mandocFindsNothingToSay() throws {
        let mandoc = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("mandoc"))))
        let result = try mandoc.run(["-T", "lint", "-W", "all", Self.page.path])
        #expect(result.status == 0, "\(result.output)\(result.stderr)")
        #expect(result.output.isEmpty && result.stderr.isEmpty, "\(result.output)\(result.stderr)")
    }

    /// Every exit status the commands use is in EXIT STATUS with its meaning, and there are
    /// examples.
    @Test func theExitStatusesAndExamplesAreThere() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let status = try #require(page.range(of: ".Sh \"EXIT STATUS\""))
        let examples = try #require(page.range(of: ".Sh EXAMPLES"))
        let section = page[status.upperBound..<examples.lowerBound]
        for code in [0, 1, 64, 65, 66, 69, 73, 74, 78, 130, 143] {
            #expect(section.contains(".It \(code)\n"), "EXIT STATUS lacks \(code)")
        }
        for command in ["detour-report trip.json", "validate", "--check", "init", "import", "serve"] {
            #expect(page[examples.upperBound...].contains(command), "EXAMPLES lacks \(command)")
        }
    }

    /// No option's help says its default twice (once in words, once as ArgumentParser's
    /// `(default: …)`).
    @Test(arguments: [[], ["render"], ["validate"], ["index"], ["serve"], ["init"], ["import"]])
    func noOptionSaysItsDefaultTwice(_ command: [String]) throws {
        let cli = try CommandRunner.built()
        let help = try cli.run(command + ["--help"]).output
        let options = help.components(separatedBy: "\n  -")
        for option in options.dropFirst() {
            let count = option.lowercased().components(separatedBy: "default").count - 1
            #expect(count <= 1, "\(command): \(option)")
        }
    }

    /// `man ./docs/detour-report.1` shows the page, with every subcommand and the export formats.
    @Test(.enabled(if: Tool.usable("man"), "needs man (Debian: man-db)"))
    func theManPageRenders() throws {
        let man = try #require(Tool.path("man"), "man is not on PATH")
        let result = try CommandRunner(executable: URL(fileURLWithPath: man)).run(
            ["-l", Self.page.path], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        // generate-manual writes a help text's blank line (between paragraphs) as an empty input
        // line, which mdoc notes and renders as a paragraph break; anything else is a fault.
        let problems = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("mdoc warning: Empty input line") }
        #expect(problems.isEmpty, "\(result.stderr)")
        let text = result.output
        for expected in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "render", "validate", "index", "--format", "geojson",
            "ics",
        ] {
            #expect(text.contains(expected), "the rendered page lacks \(expected)")
        }
    }
}
