import DetourTestSupport
import Foundation
import Testing

/// What a report may and may not do to its reader, and what a failed write may not do to a file.
@Suite(.serialized) struct SafeOutputTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-safe")
    }

    static let hostileNames = """
        {"title": "Trip \u{202E}gnp.exe", "destinations": [{"name": "# Heading | [link](https://x.invalid) <b>bold</b>",
          "location": {"lat": 38.7, "lon": -9.1}, "arrival": "2026-12-01", "departure": "2026-12-05",
          "detours": [{"tasks": [
            {"name": "`code | span` \\\\| ||", "duration": "1h", "cost": {"amount": 1, "currency": "EUR"},
             "pros": ["line one\\nline two", "> quote", "- item", "[ref]: https://x.invalid"], "cons": ["&lt;b&gt;"]},
            {"name": "Plain", "duration": "1h", "cost": {"amount": 2, "currency": "EUR"}}]}]}]}
        """

    func write(_ text: String, _ name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func aRightToLeftOverrideIsIsolatedInHTML() throws {
        let trip = try write(Self.hostileNames, "names.json")
        let html = try cli.run([trip, "--today", "2026-11-22"]).output
        #expect(html.contains("<h1><bdi>Trip \u{202E}gnp.exe</bdi></h1>"))
        #expect(html.contains("bdi { unicode-bidi: isolate; }"))
    }

    /// The Markdown is parsed by a real GitHub-flavoured Markdown parser (cmark-gfm, through
    /// Python's cmarkgfm): every detour table keeps three columns, the overview six, and no input
    /// text becomes markup.
    @Test(
        .enabled(if: Tool.pythonModuleUsable("cmarkgfm"), "needs Python's cmarkgfm (python3 -m pip install cmarkgfm)"))
    func aGFMParserSeesNoMarkupFromTheInput() throws {
        let trip = try write(Self.hostileNames, "names.json")
        let markdown = try cli.run([trip, "--today", "2026-11-22", "--format", "markdown"])
        #expect(markdown.status == 0)
        let script = """
            import sys, cmarkgfm, html.parser
            out = cmarkgfm.github_flavored_markdown_to_html(sys.stdin.read())
            class P(html.parser.HTMLParser):
                def __init__(self):
                    super().__init__(); self.tags = []; self.rows = []; self.cells = 0
                def handle_starttag(self, tag, attrs):
                    self.tags.append(tag)
                    if tag == "tr": self.cells = 0
                    if tag in ("td", "th"): self.cells += 1
                def handle_endtag(self, tag):
                    if tag == "tr": self.rows.append(self.cells)
            p = P(); p.feed(out)
            print("tags", sorted(set(p.tags)))
            print("rows", sorted(set(p.rows)))
            print("h1", p.tags.count("h1"), "a", p.tags.count("a"), "b", p.tags.count("b"), "blockquote", p.tags.count("blockquote"), "code", p.tags.count("code"))
            """
        let parsed = try cli.run(["-c", "exec python3 -c \"$0\"", script], stdin: markdown.stdout, viaShell: true)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let lines = parsed.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("rows [3, 6]"), "\(parsed.output)")
        // One h1 (the title), no link but the stay's map link, no bold from <b>, no quote, no
        // code span from the data.
        #expect(lines.contains("h1 1 a 1 b 0 blockquote 0 code 0"), "\(parsed.output)")
    }

    @Test func anExistingTargetKeepsItsPermissions() throws {
        let target = scratch.appendingPathComponent("plan.html")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target.path)
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let result = try cli.run([sample, "-o", target.path])
        #expect(result.status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["plan.html"])
    }

    @Test func aClosedPipeEndsQuietlyWithAFailureCode() throws {
        // A report far larger than a pipe's buffer, so the writer meets the closed end.
        var destinations: [String] = []
        for index in 0..<3000 {
            destinations.append(
                #"{"name": "Stay \#(index)", "location": {"lat": 1, "lon": 1}, "arrival": "2026-12-01", "departure": "2026-12-02"}"#
            )
        }
        let trip = try write(
            #"{"title": "Big", "destinations": ["# + destinations.joined(separator: ",") + "]}", "big.json")
        let result = try cli.run(
            [
                "-c", "\"$0\" \"$1\" | head -c 10 > /dev/null; echo \"status=${PIPESTATUS[0]}\"", cli.executable.path,
                trip,
            ],
            viaShell: true, shell: "/bin/bash")
        #expect(result.output.contains("status=74"), "\(result.output) \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(!result.stderr.contains("error:"))
    }

    @Test func aWriteCutShortByAFileSizeLimitExits74AndLeavesNoTemporaryFile() throws {
        let folder = scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("plan.html")
        try Data("old\n".utf8).write(to: target)
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        // One 512-byte block: the report's first write fails part-way with EFBIG (and SIGXFSZ,
        // which must not kill the binary before it has removed its temporary file).
        let result = try cli.run(
            ["-c", "ulimit -f 1; exec \"$0\" \"$1\" -o \"$2\"", cli.executable.path, sample, target.path],
            viaShell: true)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "plan.html: error: writing to the file failed part-way: File too large [write-failed]"))
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOf: target, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.html"])
    }

    /// Reports are written a chunk at a time as they are made; a file still appears whole or not
    /// at all, and every format reaches a file exactly as it reaches standard output.
    @Test func aReportOfManyChunksIsWholeInAFileAndOnStandardOutput() throws {
        var destinations: [String] = []
        for index in 0..<400 {
            destinations.append(
                #"{"name": "Stay \#(index)", "location": {"lat": 1, "lon": 1}, "arrival": "2026-12-01", "departure": "2026-12-02", "#
                    + #""detours": [{"tasks": [{"name": "A \#(index)", "duration": "1h", "cost": {"amount": 3.50, "currency": "EUR"}, "#
                    + #""location": {"lat": 1.01, "lon": 1}}, {"name": "B", "duration": "2h", "cost": {"amount": 1, "currency": "EUR"}}]}]}"#
            )
        }
        let trip = try write(
            #"{"title": "Big", "destinations": ["# + destinations.joined(separator: ",") + "]}", "chunks.json")
        for format in ["html", "markdown", "json"] {
            let target = scratch.appendingPathComponent("report-of-chunks.\(format)")
            let toFile = try cli.run([trip, "--format", format, "-o", target.path, "--today", "2026-11-22"])
            let toStandardOutput = try cli.run([trip, "--format", format, "--today", "2026-11-22"])
            #expect(toFile.status == 0 && toStandardOutput.status == 0, "\(toFile.stderr)")
            let written = try Data(contentsOf: target)
            #expect(written.count > 4 * 65_536, "\(format) should span several chunks")
            // Compared as a Bool: a diff of two megabytes would take the test run minutes to print.
            let same = written == toStandardOutput.stdout
            #expect(same, "\(format): the file and standard output differ")
        }
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: scratch.appendingPathComponent("report-of-chunks.json")))
        let sections = (json as? [String: Any])?["sections"] as? [[String: Any]] ?? []
        #expect(sections.reduce(0) { $0 + (($1["destinations"] as? [Any])?.count ?? 0) } == 400)
        let html = try String(contentsOf: scratch.appendingPathComponent("report-of-chunks.html"), encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test func aWriteCutShortAfterSeveralChunksExits74AndLeavesTheOldFile() throws {
        var destinations: [String] = []
        for index in 0..<400 {
            destinations.append(
                #"{"name": "Stay \#(index)", "location": {"lat": 1, "lon": 1}, "arrival": "2026-12-01", "departure": "2026-12-02"}"#
            )
        }
        let trip = try write(
            #"{"title": "Big", "destinations": ["# + destinations.joined(separator: ",") + "]}", "cut.json")
        let folder = scratch.appendingPathComponent("cut")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("plan.html")
        try Data("old\n".utf8).write(to: target)
        // 256 blocks of 512 bytes: two 64 KiB chunks fit, the third does not.
        let result = try cli.run(
            ["-c", "ulimit -f 256; exec \"$0\" \"$1\" -o \"$2\"", cli.executable.path, trip, target.path],
            viaShell: true)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("writing to the file failed part-way: File too large [write-failed]"))
        #expect(try String(contentsOf: target, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.html"])
    }

    @Test func aFullDeviceTargetExits74WithTheReason() throws {
        let full = DeviceNodes.device("full", in: scratch)
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let result = try cli.run([sample, "-o", full])
        #expect(result.status == 74)
        #expect(result.stderr.contains("No space left on device"))
        #expect(result.stdout.isEmpty)
    }

    @Test func validateToAFullStandardOutputSaysSoAndExits74() throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let result = try cli.run(
            ["-c", "exec \"$0\" validate \"$1\" > /dev/full", cli.executable.path, sample], viaShell: true)
        #expect(result.status == 74)
        #expect(result.stderr.contains("No space left on device"))
    }

    @Test func validateToAClosedPipeExits74() throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = ["validate", sample]
        let pipe = Pipe()
        // The reading end is closed before the binary starts, so its first write meets no reader.
        try pipe.fileHandleForReading.close()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 74)
    }

    @Test func anOversizedTripNamesTheLimitAndTheFlag() throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let small = try cli.run([sample, "--max-input-mib", "1"])
        #expect(small.status == 0)
        var padding = String(repeating: " ", count: 2 << 20)
        padding += "{}"
        let big = try write(padding, "padded.json")
        let result = try cli.run([big, "--max-input-mib", "1"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("larger than the 1 MiB limit"))
        #expect(result.stderr.contains("--max-input-mib"))
    }
}
