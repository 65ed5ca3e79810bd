import DetourTestSupport
import Foundation
import Testing

/// `render TRIP… -d OUT`: many trips in one run, on the real binary.
@Suite struct BatchTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-batch")
    }

    /// The README's example: the bundled samples render as one batch, and with `-r` their GPX
    /// twins too, into a folder of their own, without a clash of names.
    @Test(arguments: [[], ["-r"]])
    func theSamplesFolderRendersAsTheReadmeSays(_ recursive: [String]) throws {
        let out = scratch.appendingPathComponent("samples-out-\(recursive.count)")
        let result = try cli.run([Fixtures.samples.path, "-d", out.path, "--today", "2026-11-24"] + recursive)
        #expect(result.status == 0, "\(result.stderr)")
        let json = Fixtures.sampleTrips()
        for name in json {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name.dropLast(5) + ".html").path))
        }
        let gpx = Fixtures.sampleTrips(extension: "gpx").map { "gpx/" + $0.dropLast(4) + ".html" }
        for name in gpx {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path) == !recursive.isEmpty)
        }
        let count = json.count + (recursive.isEmpty ? 0 : gpx.count)
        #expect(result.stderr.contains("\(count) written, 0 invalid, 0 unreadable"), "\(result.stderr)")
    }

    /// A folder of trips: the JSON samples, `count` copies of Lisbon under other names, and the
    /// extra files given (name: text).
    func trips(copies count: Int = 0, extra: [String: String] = [:]) throws -> URL {
        let folder = scratch.appendingPathComponent("trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in Fixtures.sampleTrips() {
            let url = Fixtures.samples.appendingPathComponent(name)
            try FileManager.default.copyItem(at: url, to: folder.appendingPathComponent(url.lastPathComponent))
        }
        let lisbon = Fixtures.samples.appendingPathComponent("lisbon-city-break.json")
        for number in 0..<count {
            try FileManager.default.copyItem(at: lisbon, to: folder.appendingPathComponent("copy-\(number).json"))
        }
        for (name, text) in extra {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    func out(_ name: String = UUID().uuidString) -> URL {
        scratch.appendingPathComponent("out-\(name)")
    }

    /// Every file under `folder`, by relative path, with its bytes.
    func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        for case let relative as String in enumerator {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    func index(in folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "detour-report-index/1")
        return try #require(object["trips"] as? [[String: Any]])
    }

    static let today = ["--today", "2026-11-22"]

    @Test func aBadTripAmongGoodOnesGetsNoReportButAnIndexEntryAndTheExitCode() throws {
        let folder = try trips(extra: ["broken.json": "{\"title\": 3}"])
        let target = out()
        let result = try cli.run([folder.path, "-d", target.path] + Self.today)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let written = try files(in: target)
        #expect(written["broken.html"] == nil)
        for file in Fixtures.sampleTrips() {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            #expect(written["\(name).html"] != nil, "\(name).html missing")
        }
        #expect(
            result.stderr.contains("\(folder.path)/broken.json:1:11: error: title: must be a string"),
            "\(result.stderr)")
        let count = Fixtures.sampleTrips().count
        #expect(result.stderr.hasSuffix("\(count) written, 1 invalid, 0 unreadable\n"), "\(result.stderr)")
        let broken = try #require(try index(in: target).first { $0["name"] as? String == "broken" })
        #expect(broken["status"] as? String == "invalid")
        #expect((broken["first_error"] as? String)?.hasPrefix("1:1: error: destinations:") == true, "\(broken)")
        #expect((broken["reports"] as? [Any])?.isEmpty == true)
        let html = String(decoding: try #require(written["index.html"]), as: UTF8.self)
        #expect(html.contains("<span class=\"status invalid\">invalid</span>"))
        #expect(html.contains("1:1: error: destinations: a trip needs a list of destinations"))
        #expect(html.contains("<a href=\"lisbon-city-break.html\">HTML</a>"))
    }

    @Test func anUnreadableTripOutranksAnInvalidOneAndTheRestAreWritten() throws {
        let folder = try trips(extra: ["broken.json": "{\"title\": 3}"])
        let target = out()
        let missing = scratch.appendingPathComponent("missing.json").path
        let result = try cli.run([folder.path, missing, "-d", target.path, "--quiet"] + Self.today)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr.contains("\(missing): error: cannot read the trip: No such file or directory [read-failed]"))
        #expect(!result.stderr.contains("written,"), "--quiet prints no summary")
        let entry = try #require(try index(in: target).first { $0["name"] as? String == "missing" })
        #expect(entry["status"] as? String == "unreadable")
        #expect(try files(in: target)["lisbon-city-break.html"] != nil)
    }

    @Test func outputsAreTheSameBytesWhateverTheNumberOfWorkers() throws {
        let gpx = try String(contentsOf: Fixtures.sampleURL("nordic-budget.gpx"), encoding: .utf8)
        let folder = try trips(
            copies: 12,
            extra: [
                "broken.json": "{\"title\": 3}", "warned.json": "{\"title\": \"W\", \"destinations\": [], \"odd\": 1}",
                "from-gpx.gpx": gpx,
            ])
        var outputs: [[String: Data]] = []
        var errors: [String] = []
        for jobs in ["1", "2", "5"] {
            let target = out("j\(jobs)")
            let result = try cli.run(
                [folder.path, "-d", target.path, "-j", jobs, "--format", "html,markdown,json,gpx"] + Self.today)
            #expect(result.status == 65, "\(result.stderr)")
            outputs.append(try files(in: target))
            errors.append(result.stderr)
        }
        #expect(outputs[0].count == (Fixtures.sampleTrips().count + 14) * 4 + 3, "\(outputs[0].keys.sorted())")
        // A GPX trip in a folder is read as GPX, and gives the report its JSON twin gives.
        #expect(outputs[0]["from-gpx.html"] != nil)
        #expect(outputs[0]["from-gpx.json"] == outputs[0]["nordic-budget.json"])
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
        // Diagnostics come in input order, whichever worker finished first.
        #expect(errors[0] == errors[1])
        #expect(errors[0] == errors[2])
        #expect(errors[0].contains("warned.json:1:36: warning: odd: unknown key"), "\(errors[0])")
    }

    @Test func aReportIsTheSameAsTheOneTripCommandWrites() throws {
        let folder = try trips()
        let target = out()
        _ = try cli.run([folder.path, "-d", target.path, "--format", "md,json"] + Self.today)
        let single = try cli.run(
            [folder.appendingPathComponent("scandinavia-rail.json").path, "--format", "markdown"] + Self.today)
        #expect(try Data(contentsOf: target.appendingPathComponent("scandinavia-rail.md")) == single.stdout)
        let written = try files(in: target)
        #expect(written["index.md"] != nil, "Markdown reports get a Markdown index")
        #expect(written.keys.filter { $0.hasSuffix(".html") } == ["index.html"])
    }

    @Test func shardsSplitTheSortedListAndTheirIndexesJoinIntoTheWholeRunsIndex() throws {
        let folder = try trips(copies: 7, extra: ["broken.json": "{\"title\": 3}"])
        let whole = out("whole")
        _ = try cli.run([folder.path, "-d", whole.path, "--format", "html,markdown", "--quiet"] + Self.today)
        let sharded = out("sharded")
        var seen: [String] = []
        for part in 0..<3 {
            let result = try cli.run(
                [folder.path, "-d", sharded.path, "--shard", "\(part)/3", "--format", "html,markdown", "--quiet"]
                    + Self.today)
            #expect([0, 65].contains(result.status), "\(result.stderr)")
            let data = try Data(contentsOf: sharded.appendingPathComponent("index.\(part)-of-3.json"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let names = try #require(object["trips"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            // The samples, seven copies and the broken trip, split in three.
            let total = Fixtures.sampleTrips().count + 8
            #expect(names.count >= total / 3 && names.count <= (total + 2) / 3, "every third trip: \(names)")
            seen += names
        }
        let all = try index(in: whole).compactMap { $0["name"] as? String }
        #expect(seen.sorted() == all.sorted(), "each trip in exactly one shard")
        #expect(
            !FileManager.default.fileExists(atPath: sharded.appendingPathComponent("index.html").path),
            "a shard writes only its part")
        let joined = try cli.run(["index", sharded.path])
        #expect(joined.status == 0, "\(joined.stderr)")
        for name in ["index.json", "index.html", "index.md"] {
            #expect(
                try Data(contentsOf: sharded.appendingPathComponent(name))
                    == Data(contentsOf: whole.appendingPathComponent(name)),
                "\(name) joined from the shards differs from the whole run's")
        }
        var report = try files(in: sharded)
        report = report.filter { !$0.key.hasPrefix("index") }
        #expect(report == (try files(in: whole)).filter { !$0.key.hasPrefix("index") })

        try FileManager.default.removeItem(at: sharded.appendingPathComponent("index.1-of-3.json"))
        let partial = try cli.run(["index", sharded.path])
        #expect(partial.status == 0)
        #expect(
            partial.stderr.contains(
                "warning: shard 1/3 has not written its index; its trips are not listed [index-shard-missing]"),
            "\(partial.stderr)")
    }

    @Test func clashingNamesStopTheRunBeforeAnythingIsWritten() throws {
        let folder = try trips(extra: ["Lisbon-City-Break.gpx": "<gpx/>", "sub/x.json": "{}"])
        let target = out()
        let result = try cli.run(
            [folder.path, folder.appendingPathComponent("sub/x.json").path, "-d", target.path] + Self.today)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "Lisbon-City-Break.gpx\" and \"\(folder.path)/lisbon-city-break.json\" would write reports of names that differ only in case"
            ), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing is written, not even the folder")

        let index = try cli.run([try trips(extra: ["index.json": "{}"]).path, "-d", out().path])
        #expect(index.status == 64)
        #expect(index.stderr.contains("which the run's index uses [output-name-clash]"), "\(index.stderr)")
    }

    @Test func aReportNeverReplacesATripOfTheRun() throws {
        let folder = try trips()
        let before = try files(in: folder)
        let result = try cli.run([folder.path, "-d", folder.path, "--format", "json"] + Self.today)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("would replace the trip"), "\(result.stderr)")
        #expect(try files(in: folder) == before)
    }

    @Test func foldersInsideFoldersAreRenderedWithRecursiveOnly() throws {
        let folder = try trips(extra: [
            "europe/oslo trip#1.json": try String(
                contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"), encoding: .utf8)
        ])
        let flat = out()
        _ = try cli.run([folder.path, "-d", flat.path] + Self.today)
        #expect(try files(in: flat).keys.contains { $0.hasPrefix("europe") } == false)
        let deep = out()
        let result = try cli.run([folder.path, "-r", "-d", deep.path] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: deep.appendingPathComponent("europe/oslo trip#1.html").path))
        // The index links to it, percent-encoded, and the link leads to the file.
        let html = String(decoding: try Data(contentsOf: deep.appendingPathComponent("index.html")), as: UTF8.self)
        #expect(html.contains("<a href=\"europe/oslo%20trip%231.html\">HTML</a>"), "\(html)")
        #expect(FileManager.default.fileExists(atPath: deep.appendingPathComponent("europe/oslo trip#1.html").path))
    }

    /// Hidden files and folders (an editor's `.draft.json`, a `.git`), files that are not trips,
    /// and a link to a folder are left out of a folder's trips; a trip's extension is in lower
    /// case, and a file whose extension is in another case is left out with a warning that names
    /// it, from a batch run and from `validate`.
    @Test func onlyVisibleTripFilesOfAFolderAreRendered() throws {
        let lisbon = try String(
            contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"), encoding: .utf8)
        let folder = try trips(extra: [
            ".draft.json": lisbon, ".hidden/deep.json": lisbon, "notes.txt": "not a trip", "LOUD.JSON": lisbon,
            "sub/inner.json": lisbon,
        ])
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link"), withDestinationURL: folder.appendingPathComponent("sub"))
        let output = out()
        let result = try cli.run([folder.path, "-r", "-d", output.path, "--quiet"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try index(in: output).compactMap { $0["name"] as? String }.sorted()
        #expect(names == (Fixtures.sampleTrips().map { String($0.dropLast(5)) } + ["sub/inner"]).sorted())
        let warning =
            "\(folder.path)/LOUD.JSON: warning: not read: a trip file in a folder ends in \".json\" or \".gpx\" in lower case; rename it \"LOUD.json\" [trip-extension-case]\n"
        #expect(result.stderr.hasPrefix(warning), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "trip-extension-case").count == 2, "once")
        let validate = try cli.run(["validate", folder.path, "-r"])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.hasPrefix(warning), "\(validate.stderr)")
    }

    /// A trip whose file name is not UTF-8 (`caf` and a Latin-1 `é`, the byte E9) is opened by
    /// its own bytes; its reports are named by the name as shown, with U+FFFD for that byte.
    @Test func aFileNameThatIsNotUTF8IsReadByItsOwnBytes() throws {
        let folder = scratch.appendingPathComponent("latin1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lisbon = try Data(contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"))
        let name = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".json".utf8) + [0]
        let descriptor = open(name.map { CChar(bitPattern: $0) }, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0, "cannot create a file with a name that is not UTF-8 here")
        let written = lisbon.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == lisbon.count)
        let output = out()
        let result = try cli.run([folder.path, "-d", output.path, "--quiet"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try index(in: output).compactMap { $0["name"] as? String } == ["caf\u{FFFD}"])
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("caf\u{FFFD}.html").path))
    }

    @Test func batchOptionsNeedAnOutputFolder() throws {
        let sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let cases: [([String], String)] = [
            ([sample, sample], "several trips need -d DIR"),
            ([sample, "--format", "html,json"], "several formats need -d DIR"),
            ([sample, "-j", "2"], "-j needs -d DIR"),
            ([sample, "--shard", "0/2"], "--shard needs -d DIR"),
            ([Fixtures.samples.path], "is a folder; give -d DIR"),
            ([sample, "-d", out().path, "-o", "x.html"], "-o and -d cannot be used together"),
            ([sample, "-d", out().path, "--shard", "2/2"], "--shard must be K/N with 0 <= K < N"),
            ([sample, "-d", out().path, "-j", "0"], "-j must be between 1 and 1024"),
            (["-", "-d", out().path], "-d cannot read standard input"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func noProgressLineWhenStandardErrorIsNotATerminal() throws {
        let folder = try trips(copies: 3)
        let result = try cli.run([folder.path, "-d", out().path] + Self.today)
        #expect(result.status == 0)
        #expect(!result.stderr.contains("\r"))
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(
            result.stderr == "\(Fixtures.sampleTrips().count + 3) written, 0 invalid, 0 unreadable\n"
                || result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test(.enabled(if: Tool.usable("script"), "needs script (util-linux) to give the run a terminal"))
    func aProgressLineOnATerminalUpdatesInPlace() throws {
        let folder = try trips(copies: 8)
        let total = Fixtures.sampleTrips().count + 8
        #expect(total >= 10 && total < 100, "the count is padded to the total's width")
        let command = "'\(cli.executable.path)' '\(folder.path)' -d '\(out().path)' -j 1 --today 2026-11-22 2>&1"
        let script = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("script"))))
        let result = try script.run(["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("[ 1/\(total)] "), "\(result.output.debugDescription)")
        #expect(result.output.contains("\r\u{1B}[K[ 2/\(total)] "), "\(result.output.debugDescription)")
        #expect(result.output.contains("[\(total)/\(total)]"))
        #expect(
            result.output.contains("\r\u{1B}[K\(total) written, 0 invalid, 0 unreadable"),
            "\(result.output.debugDescription)")
        let quiet = try script.run([
            "-qec", command.replacingOccurrences(of: " -j 1", with: " -j 1 --quiet"), "/dev/null",
        ])
        #expect(!quiet.output.contains("[ 1/"))
    }

    /// Without COLUMNS (shells seldom export it), the line fits the terminal's own width, so it
    /// never wraps: here 30 columns, and trip paths longer than that.
    @Test(.enabled(if: Tool.usable("script"), "needs script (util-linux) to give the run a terminal"))
    func theProgressLineFitsTheTerminalsWidth() throws {
        let folder = try trips(copies: 2)
        let run = "'\(cli.executable.path)' '\(folder.path)' -d '\(out().path)' -j 1 --today 2026-11-22 2>&1"
        let command = "stty cols 30 rows 10 && unset COLUMNS && \(run)"
        let script = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("script"))))
        let result = try script.run(["-qec", command, "/dev/null"], removing: ["COLUMNS"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.output.components(separatedBy: "\r\u{1B}[K").map {
            $0.components(separatedBy: "\n").last ?? ""
        }
        let progress = lines.filter { $0.hasPrefix("[") }
        #expect(progress.count >= 5, "\(result.output.debugDescription)")
        for line in progress {
            #expect(line.unicodeScalars.count <= 29, "\(line.debugDescription)")
            #expect(line.contains("…"), "\(line.debugDescription)")
        }
    }

    /// Hostile and real-world files from other apps, on several threads: the same reports and
    /// the same diagnostics as on one, and nothing printed by libxml2 itself (its error handler is
    /// per thread).
    @Test func theCorporaGiveTheSameOutputAndDiagnosticsOnOneThreadAndOnSeveral() throws {
        let hostile = Fixtures.corpus.appendingPathComponent("hostile").path
        let real = Fixtures.corpus.appendingPathComponent("gpx-real").path
        var outputs: [[String: Data]] = []
        var errors: [String] = []
        for jobs in ["1", "2"] {
            let target = out("corpus-j\(jobs)")
            let result = try cli.run([hostile, real, "-d", target.path, "-j", jobs, "--format", "json"] + Self.today)
            #expect([65, 66].contains(result.status), "\(result.stderr)")
            outputs.append(try files(in: target))
            errors.append(result.stderr)
        }
        #expect(outputs[0] == outputs[1])
        #expect(errors[0] == errors[1])
        let lines = errors[0].split(separator: "\n")
        #expect(lines.count > 40)
        let foreign = lines.filter { line in
            !line.contains(": error: ") && !line.contains(": warning: ") && !line.contains(" written, ")
        }
        #expect(foreign.isEmpty, "lines not from detour-report's printer: \(foreign.prefix(5))")
    }
}

extension BatchTests {
    /// Names of CJK characters take two columns each: the progress line is cut by columns, so
    /// it stays on one line of a 30-column terminal, as Python's East Asian Width counts them.
    @Test(
        .enabled(if: Tool.usable("script"), "needs script (util-linux) to give the run a terminal"),
        .enabled(if: Tool.path("python3") != nil, "needs python3 to count display columns"))
    func theProgressLineCountsColumnsNotCharacters() throws {
        let lisbon = try String(
            contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"), encoding: .utf8)
        let folder = try trips(extra: ["東京大阪京都名古屋札幌福岡.json": lisbon, "ソウルと釜山と済州島の旅.json": lisbon])
        let run = "'\(cli.executable.path)' '\(folder.path)' -d '\(out().path)' -j 1 --today 2026-11-22 2>&1"
        let command = "stty cols 30 rows 10 && unset COLUMNS && \(run)"
        let script = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("script"))))
        let result = try script.run(["-qec", command, "/dev/null"], removing: ["COLUMNS"])
        #expect(result.status == 0, "\(result.stderr)")
        let progress = result.output.components(separatedBy: "\r\u{1B}[K").map {
            $0.components(separatedBy: "\n").last ?? ""
        }.filter { $0.hasPrefix("[") }
        let wide = progress.filter { $0.unicodeScalars.contains { $0.value >= 0x3000 } }
        #expect(!wide.isEmpty, "\(progress)")
        let python = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("python3"))))
        let measure =
            "import sys, unicodedata; print(max(sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in l) for l in sys.argv[1:]))"
        let widest = try python.run(["-c", measure] + wide)
        #expect(
            Int(String(decoding: widest.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99
                <= 29)
    }
}
