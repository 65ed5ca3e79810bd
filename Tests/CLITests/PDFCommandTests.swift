import DetourTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format pdf` on the real binary, with `Tests/Fakes/fake-browser` as the browser: which
/// browser is used, what it is asked, one browser for a batch, and what is left when it fails
/// or the run is interrupted (nothing written, the browser ended, its profile removed).
@Suite(.enabled(if: CI.runs(whenAvailable: Tool.usable("python3")), "the fake browser is a python3 script"))
struct PDFCommandTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    var lisbon: String { Fixtures.sampleURL("lisbon-city-break.json").path }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-pdf")
    }

    /// The fake in `mode`, logging to the folder's `browser.log` unless told otherwise.
    func browser(mode: String = "print", delay: Double = 30, log: URL? = nil) throws -> FakeBrowser {
        try FakeBrowser(in: scratch, mode: mode, delay: delay, log: log)
    }

    /// The log every fake of the test writes to, unless told otherwise.
    var fake: FakeBrowser { get throws { try browser(mode: "log") } }

    func expectEnded(_ browser: FakeBrowser? = nil) throws {
        let browser = try browser ?? fake
        #expect(try !browser.starts().isEmpty)
        let starts = try browser.starts()
        #expect(try browser.allEnded(), "a browser or its profile was left: \(starts)")
    }

    @Test func aPDFIsWrittenToOWithTheDatesOfThePlansDay() throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        let run = try cli.run([lisbon, "-o", target.path, "--today", "2026-11-24", "--browser", try browser().path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty && run.stdout.isEmpty)
        let pdf = String(decoding: try Data(contentsOf: target), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-1.4"))
        #expect(pdf.contains("/CreationDate (D:20261124000000+00'00')"))
        #expect(pdf.contains("trailer\n<</ID [<"))
        #expect(try fake.starts().count == 1)
        try expectEnded()
        // To standard output, the same bytes.
        let piped = try cli.run([lisbon, "--format", "pdf", "--today", "2026-11-24", "--browser", try browser().path])
        #expect(piped.stdout == (try Data(contentsOf: target)))
    }

    @Test func theReportIsTheHTMLReportAndThePaperIsAsked() throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        let browser = try browser().path
        for paper in ["LETTER", "a4"] {
            let run = try cli.run([lisbon, "-o", target.path, "--paper", paper, "--browser", browser])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let lines = try fake.lines()
        let prints = lines.filter { $0.contains("Page.printToPDF") }
        #expect(prints.count == 2)
        let papers = try prints.map { line in
            let params = try FakeBrowser.params(line)
            return [params["paperWidth"] as? Double ?? 0, params["paperHeight"] as? Double ?? 0]
        }
        let expected = [[8.5, 11], [210 / 25.4, 297 / 25.4]]
        #expect(zip(papers.joined(), expected.joined()).allSatisfy { abs($0 - $1) < 1e-9 }, "\(papers)")
        for line in prints {
            let footer = try FakeBrowser.params(line)["footerTemplate"] as? String ?? ""
            #expect(footer.contains("Lisbon in December</span>") && footer.contains("pageNumber"), "\(footer)")
        }
        let html = try cli.run([lisbon, "--format", "html"])
        let document = try #require(lines.first { $0.contains("Page.setDocumentContent") })
        #expect(try FakeBrowser.params(document)["html"] as? String == html.output)
        let bad = try cli.run([lisbon, "-o", target.path, "--paper", "legal", "--browser", browser])
        #expect(bad.status == 64)
    }

    @Test func theOptionBeatsTheVariableWhichBeatsPath() throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        let second = scratch.appendingPathComponent("variable.log")
        let named = try browser()
        let variable = try browser(mode: "print-variable", log: second)
        var run = try cli.run([lisbon, "-o", target.path], environment: ["DETOUR_BROWSER": variable.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try variable.starts().count == 1)
        run = try cli.run(
            [lisbon, "-o", target.path, "--browser", named.path], environment: ["DETOUR_BROWSER": variable.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try variable.starts().count == 1)
        #expect(try named.starts().count == 1)
    }

    /// No browser: 69, one line saying how to get one, and nothing written, not even a folder.
    @Test func withoutABrowserNothingIsWrittenAndTheExitIs69() throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        try Data("old".utf8).write(to: target)
        let empty = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let environment = ["PATH": empty.path]
        let single = try cli.run([lisbon, "-o", target.path], environment: environment, removing: ["DETOUR_BROWSER"])
        #expect(single.status == 69)
        #expect(
            single.stderr == """
                detour-report: error: no browser to print PDF with (chromium, chromium-browser, google-chrome on PATH); \
                install Chromium (Debian and Ubuntu: apt-get install chromium) or Google Chrome, or name one with \
                --browser PATH or DETOUR_BROWSER [no-browser]

                """)
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        let out = scratch.appendingPathComponent("out")
        let batch = try cli.run(
            [Fixtures.samples.path, "-d", out.path, "--format", "html,pdf"], environment: environment,
            removing: ["DETOUR_BROWSER"])
        #expect(batch.status == 69)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let named = try cli.run([lisbon, "-o", target.path, "--browser", empty.path])
        #expect(named.status == 69)
        #expect(named.stderr.contains("--browser names \"\(empty.path)\", which is not a program that can be run"))
    }

    @Test(arguments: ["exit-on-print", "refuse", "garbage", "exit-at-once"])
    func aBrowserThatFailsLeavesTheOldFileAndNoTemporaryAndIsEnded(_ mode: String) throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        try Data("old".utf8).write(to: target)
        let run = try cli.run([lisbon, "-o", target.path, "--browser", try browser(mode: mode).path])
        #expect(run.status == 69)
        #expect(run.stderr.contains(mode == "exit-at-once" ? "[no-browser]" : "[print-failed]"), "\(run.stderr)")
        #expect(try Data(contentsOf: target) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") }.isEmpty)
        try expectEnded()
    }

    /// A batch starts one browser, prints `-j` pages at a time, and links every PDF from the index.
    @Test func aBatchDrivesOneBrowserAndPrintsPagesAtOnce() throws {
        let out = scratch.appendingPathComponent("out")
        let run = try cli.run(
            [
                Fixtures.samples.path, "-d", out.path, "--format", "html,pdf", "-j", "2", "--quiet", "--browser",
                try browser(mode: "slow", delay: 0.2).path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let samples = Fixtures.sampleTrips()
        for sample in samples {
            let name = String(sample.dropLast(".json".count))
            let pdf = try Data(contentsOf: out.appendingPathComponent(name + ".pdf"))
            #expect(pdf.starts(with: Data("%PDF".utf8)))
        }
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.components(separatedBy: ".pdf\">PDF</a>").count - 1 == samples.count, "\(index)")
        let (starts, methods) = (try fake.starts(), try fake.methods())
        #expect(starts.count == 1)
        #expect(methods.filter { $0 == "Page.printToPDF" }.count == samples.count)
        // With two workers, a second tab is opened before the first is closed.
        let firstClose = try #require(methods.firstIndex(of: "Target.closeTarget"))
        #expect(methods[..<firstClose].filter { $0 == "Target.createTarget" }.count == 2, "\(methods)")
        try expectEnded()
    }

    @Test func withOneWorkerOnePageIsOpenAtATime() throws {
        let out = scratch.appendingPathComponent("out")
        let run = try cli.run(
            [
                Fixtures.samples.path, "-d", out.path, "--format", "pdf", "-j", "1", "--quiet", "--browser",
                try browser().path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let tabs = try fake.methods().filter { $0 == "Target.createTarget" || $0 == "Target.closeTarget" }
        #expect(tabs == Array(repeating: ["Target.createTarget", "Target.closeTarget"], count: 5).flatMap { $0 })
    }

    /// A browser that fails in a batch: the other reports are written, the PDFs are not, the
    /// index says so, and the exit is 69.
    @Test func aBatchWhoseBrowserFailsWritesTheRestAndExits69() throws {
        let out = scratch.appendingPathComponent("out")
        let run = try cli.run(
            [
                Fixtures.samples.path, "-d", out.path, "--format", "html,pdf", "--quiet", "--browser",
                try browser(mode: "exit-on-print").path,
            ])
        #expect(run.status == 69, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names.filter { $0.hasSuffix(".html") }.count == 6)
        #expect(names.filter { $0.hasSuffix(".pdf") || $0.hasPrefix(".") }.isEmpty, "\(names)")
        #expect(run.stderr.contains("[print-failed]"))
        try expectEnded()
    }

    /// Ctrl-C while a page prints: exit 130, the browser ended, its profile and the PDF's
    /// temporary file removed.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedBatchEndsTheBrowser(_ signal: Int32) throws {
        let out = scratch.appendingPathComponent("out")
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = [
            Fixtures.samples.path, "-d", out.path, "--format", "pdf", "--quiet", "--browser",
            try browser(mode: "slow", delay: 60).path,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printing = FolderEvents.wait(in: scratch) {
            (try? fake.methods().contains("Page.printToPDF")) == true || !process.isRunning
        }
        try #require(printing && process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        try expectEnded()
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(left.filter { $0.hasSuffix(".pdf") || $0.hasPrefix(".") }.isEmpty, "\(left)")
    }

    @Test func checkComparesAPDFAsItComparesAnyReport() throws {
        let target = scratch.appendingPathComponent("plan.pdf")
        let browser = try browser().path
        let arguments = [lisbon, "-o", target.path, "--today", "2026-11-24", "--browser", browser]
        #expect(try cli.run(arguments).status == 0)
        let same = try cli.run(arguments + ["--check"])
        #expect(same.status == 0, "\(same.stderr)")
        let other = try cli.run([lisbon, "-o", target.path, "--today", "2026-11-25", "--browser", browser, "--check"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("[report-differs]"))
    }
}

/// `--format pdf` with the real browser (headless Chromium), read back with poppler: the title
/// and dates a reader's PDF viewer shows, the paper, every stay and detour on the pages, and the
/// same bytes on every run, alone or in a batch of any `-j`.
@Suite(
    .enabled(
        if: CI.runs(whenAvailable: Tool.usable("chromium") && Tool.usable("pdfinfo") && Tool.usable("pdftotext")),
        "needs chromium and poppler-utils (Debian: chromium poppler-utils)"))
struct PDFChromiumTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-pdf-chromium")
    }

    /// The title and the names a report of `sample` shows: each stay and each detour's tasks.
    static func names(_ sample: String) throws -> (title: String, names: [String]) {
        let object = try JSONSerialization.jsonObject(with: Data(try Fixtures.sample(sample))) as? [String: Any]
        let destinations = object?["destinations"] as? [[String: Any]] ?? []
        var names: [String] = []
        for destination in destinations {
            names.append(destination["name"] as? String ?? "")
            for detour in destination["detours"] as? [[String: Any]] ?? [] {
                for task in detour["tasks"] as? [[String: Any]] ?? [] { names.append(task["name"] as? String ?? "") }
            }
        }
        return (object?["title"] as? String ?? "", names)
    }

    @Test(arguments: Fixtures.sampleTrips())
    func eachSamplePrintsWithItsTitleDatesAndEveryName(_ sample: String) throws {
        let pdf = scratch.appendingPathComponent("plan.pdf")
        let run = try cli.run([Fixtures.sampleURL(sample).path, "-o", pdf.path, "--today", "2026-11-24"])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try Poppler.info(pdf)
        let (title, names) = try Self.names(sample)
        #expect(info["Title"] == title)
        #expect(info["CreationDate"] == "2026-11-24T00:00:00Z")
        #expect(info["ModDate"] == "2026-11-24T00:00:00Z")
        #expect(info["Page size"] == "595.92 x 841.92 pts (A4)")
        let text = try Poppler.run("pdftotext", [pdf.path, "-"]).split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        for name in names {
            #expect(text.contains(name.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(name)")
        }
        let pages = Int(info["Pages"] ?? "") ?? 0
        #expect(text.contains("page \(pages) of \(pages)"))
    }

    /// Two runs, and a batch with two pages at a time, give the very same bytes; Letter is Letter.
    @Test func thePDFIsTheSameOnEveryRunAloneOrInABatch() throws {
        let sample = Fixtures.sampleURL("scandinavia-rail.json").path
        let first = scratch.appendingPathComponent("first.pdf")
        let second = scratch.appendingPathComponent("second.pdf")
        for target in [first, second] {
            let run = try cli.run([sample, "-o", target.path, "--today", "2026-11-24"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        let out = scratch.appendingPathComponent("out")
        let batch = try cli.run(
            [Fixtures.samples.path, "-d", out.path, "--format", "pdf", "-j", "2", "--today", "2026-11-24", "--quiet"])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("scandinavia-rail.pdf")) == Data(contentsOf: first))

        let letter = scratch.appendingPathComponent("letter.pdf")
        let run = try cli.run([sample, "-o", letter.path, "--paper", "letter", "--today", "2026-11-27"])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try Poppler.info(letter)
        #expect(info["Page size"] == "612 x 792 pts (letter)")
        #expect((Int(info["Pages"] ?? "") ?? 99) <= 6)
    }
}
