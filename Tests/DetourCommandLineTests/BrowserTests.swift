import DetourCore
import DetourJob
import DetourTestSupport
import Foundation
import Synchronization
import Testing

@testable import DetourCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which browser prints: `--browser`, then `DETOUR_BROWSER`, then Chromium's names on `PATH`.
@Suite struct BrowserSearchTests {
    let folder: ScratchFolder
    var root: URL { folder.url }

    init() throws {
        folder = try ScratchFolder("detour-browser-search")
    }

    /// Makes `path` (under the scratch folder) a file, runnable or not.
    @discardableResult
    func file(_ path: String, runnable: Bool = true) throws -> String {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: url)
        chmod(url.path, runnable ? 0o755 : 0o644)
        return url.path
    }

    func find(_ named: String?, _ environment: [String: String]) -> Result<String, PrintFailure> {
        Result { () throws(PrintFailure) in try BrowserSearch.find(named: named, environment: environment) }
    }

    func find(_ environment: [String: String]) -> Result<String, PrintFailure> {
        find(nil, environment)
    }

    @Test func pathIsSearchedInOrderForEachNameInOrder() throws {
        let chrome = try file("a/google-chrome")
        let chromium = try file("b/chromium")
        try file("a/chromium-browser", runnable: false)
        let path = "\(root.path)/a:\(root.path)/b"
        #expect(try find(["PATH": path]).get() == chromium)
        try FileManager.default.removeItem(atPath: chromium)
        #expect(try find(["PATH": path]).get() == chrome)
    }

    @Test func theOptionBeatsTheVariableWhichBeatsPath() throws {
        let onPath = try file("bin/chromium")
        let variable = try file("v/browser")
        let option = try file("o/browser")
        let environment = ["PATH": "\(root.path)/bin", "DETOUR_BROWSER": variable]
        #expect(try find(option, environment).get() == option)
        #expect(try find(environment).get() == variable)
        #expect(try find(["PATH": "\(root.path)/bin", "DETOUR_BROWSER": ""]).get() == onPath)
        // A command name is looked up on PATH.
        #expect(try find("chromium", ["PATH": "\(root.path)/bin"]).get() == onPath)
    }

    @Test func aNamedBrowserThatCannotRunIsAnErrorNotAFallBack() throws {
        try file("bin/chromium")
        let text = try file("plain", runnable: false)
        let environment = ["PATH": "\(root.path)/bin"]
        for named in [text, root.path, "\(root.path)/missing", "no-such-command"] {
            guard case .failure(.noBrowser(let message)) = find(named, environment) else {
                Issue.record("\(named) was accepted")
                continue
            }
            #expect(message.hasPrefix("--browser names \""))
            #expect(message.hasSuffix(BrowserSearch.hint))
        }
        guard case .failure(.noBrowser(let message)) = find(["PATH": "", "DETOUR_BROWSER": text]) else {
            Issue.record("DETOUR_BROWSER naming a plain file was accepted")
            return
        }
        #expect(message.hasPrefix("DETOUR_BROWSER names \""))
    }

    /// Without PATH, the usual folders are searched.
    @Test func withoutPathTheUsualFoldersAreSearched() throws {
        let found = try find("sh", [:]).get()
        #expect(found == "/usr/bin/sh" || found == "/bin/sh" || found == "/usr/local/bin/sh", "\(found)")
    }

    @Test func noBrowserAnywhereSaysHowToGetOne() {
        guard case .failure(let failure) = find(["PATH": root.path]) else {
            Issue.record("a browser was found in an empty folder")
            return
        }
        #expect(
            failure.diagnostic.message
                == "no browser to print PDF with (chromium, chromium-browser, google-chrome on PATH); \(BrowserSearch.hint)"
        )
        #expect(failure.diagnostic.code == .noBrowser)
        #expect(!failure.diagnostic.message.contains("\n"))
    }
}

/// The browser driven over its pipe, played by a fake that fails on demand.
///
/// `Tests/Fakes/fake-browser` answers the protocol: what it is asked, what comes back, and that
/// it is always ended and its profile removed.
@Suite(
    .enabled(if: CI.runs(whenAvailable: Tool.usable("python3")), "the fake browser is a python3 script"))
struct ChromiumPrinterTests {
    let folder: ScratchFolder
    var log: URL { folder.url.appendingPathComponent("browser.log") }

    init() throws {
        folder = try ScratchFolder("detour-browser")
    }

    func browser(mode: String) throws -> String {
        try FakeBrowser(in: folder.url, mode: mode).path
    }

    /// The one browser the test started: its process ID, profile, and the log's lines.
    func logged() throws -> (pid: pid_t, profile: String, lines: [String]) {
        let fake = try FakeBrowser(in: folder.url, mode: "log")
        let start = try #require(try fake.starts().first)
        return (start.pid, start.profile, try fake.lines().map(String.init))
    }

    func methods(_ lines: [String]) -> [String] {
        lines.compactMap { line in (try? FakeBrowser.command(Substring(line)))?["method"] as? String }
    }

    /// The process has exited and been waited for, and the profile folder is gone.
    func expectEnded(_ pid: pid_t, profile: String) {
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the browser \(pid) is still running")
        #expect(!FileManager.default.fileExists(atPath: profile), "the profile \(profile) was left")
    }

    static let page = PrintPage(html: Array("<p>Oslo</p>".utf8), paper: .letter, footer: "<span>f</span>")

    @Test func aPageIsATabSetPrintedAndClosedAndEndingStopsTheBrowser() throws {
        let printer = try ChromiumPrinter(browser: browser(mode: "print"))
        let pdf = try printer.print(Self.page)
        #expect(pdf.starts(with: Array("%PDF-1.4".utf8)))
        printer.end()
        printer.end()
        let (pid, profile, lines) = try logged()
        #expect(profile.contains("detour-browser."))
        #expect(
            methods(lines) == [
                "Browser.getVersion", "Target.createTarget", "Target.attachToTarget", "Page.getFrameTree",
                "Page.setDocumentContent", "Page.printToPDF", "Target.closeTarget",
            ])
        #expect(lines.last == "end \(pid)", "the browser was not ended by closing its pipe")
        let print = try #require(lines.first { $0.contains("Page.printToPDF") })
        for part in [#""paperWidth": 8.5"#, #""paperHeight": 11"#, #""footerTemplate": "<span>f</span>""#] {
            #expect(print.contains(part), "\(print)")
        }
        #expect(lines.contains { $0.contains(#""html": "<p>Oslo</p>""#) })
        expectEnded(pid, profile: profile)
    }

    @Test func pagesPrintedFromManyThreadsAtOnceEachGetTheirReply() throws {
        let printer = try ChromiumPrinter(browser: browser(mode: "print"))
        defer { printer.end() }
        let results = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let ok = (try? printer.print(Self.page))?.starts(with: Array("%PDF".utf8)) ?? false
            results.withLock { $0.append(ok) }
        }
        #expect(results.withLock { $0 } == Array(repeating: true, count: 8))
        #expect(methods(try logged().lines).filter { $0 == "Page.printToPDF" }.count == 8)
    }

    @Test(arguments: [
        ("exit-on-print", "the browser ended"), ("refuse", "Page.printToPDF: Printing failed"),
        ("garbage", "the browser wrote what is not the DevTools protocol"),
    ])
    func aBrowserThatFailsMidPrintIsAFailureAndIsStillEnded(_ mode: String, _ reason: String) throws {
        let printer = try ChromiumPrinter(browser: browser(mode: mode))
        #expect(throws: PrintFailure.failed(reason)) { try printer.print(Self.page) }
        printer.end()
        let (pid, profile, _) = try logged()
        expectEnded(pid, profile: profile)
    }

    @Test func aProgramThatIsNoBrowserIsNoBrowserAndLeavesNoProfile() throws {
        let browser = try browser(mode: "exit-at-once")
        #expect(
            throws: PrintFailure.noBrowser(
                "\(browser) did not start as a browser (the browser ended): fake-browser: not a browser; \(BrowserSearch.hint)"
            )
        ) {
            try ChromiumPrinter(browser: browser)
        }
        let (pid, profile, _) = try logged()
        expectEnded(pid, profile: profile)
    }

    /// A program that ends at once and says nothing: the message says only that.
    @Test func aSilentProgramIsNoBrowser() {
        #expect(
            throws: PrintFailure.noBrowser(
                "/bin/true did not start as a browser (the browser ended); \(BrowserSearch.hint)")
        ) { try ChromiumPrinter(browser: "/bin/true") }
    }

    /// Replies without a result, errors without a message: each is still an answer.
    @Test func aBareReplyIsAnEmptyResultAndABareErrorIsStillAFailure() throws {
        let printer = try ChromiumPrinter(browser: browser(mode: "bare"))
        #expect(throws: PrintFailure.failed("Page.printToPDF: an error")) { try printer.print(Self.page) }
        printer.end()
        let (pid, profile, _) = try logged()
        expectEnded(pid, profile: profile)
    }

    /// A browser that does not quit when its pipe closes is killed after the grace period.
    @Test func aBrowserThatIgnoresTheEndOfItsPipeIsKilled() throws {
        let printer = try ChromiumPrinter(browser: browser(mode: "stubborn"))
        _ = try printer.print(Self.page)
        printer.end(grace: 0.2)
        let (pid, profile, lines) = try logged()
        expectEnded(pid, profile: profile)
        #expect(lines.last != "end \(pid)", "the fake quit by itself")
    }

    /// Ending the browser while a page prints, as a signal's handler does (through
    /// ``ChromiumPrinter/endAll()``, which is not called here: it would end the printers of
    /// every other test in this process too, PrintTests' among them).
    @Test func endingEndsAPrintInProgress() throws {
        let printer = try ChromiumPrinter(browser: browser(mode: "slow"))
        let finished = Mutex<PrintFailure?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let thread = Thread {
            do throws(PrintFailure) {
                _ = try printer.print(Self.page)
            } catch {
                finished.withLock { $0 = error }
            }
            answered.signal()
        }
        thread.start()
        let printing = FolderEvents.wait(in: folder.url) {
            (try? methods(logged().lines).contains("Page.printToPDF")) == true
        }
        try #require(printing, "the print never reached the browser")
        printer.end()
        let (pid, profile, _) = try logged()
        expectEnded(pid, profile: profile)
        // The print waiting for its reply is told the browser is gone.
        #expect(answered.wait(timeout: .now() + 10) == .success, "the print was not answered")
        #expect(finished.withLock { $0 } == .failed("the browser ended"))
        #expect(throws: PrintFailure.failed("the browser was ended")) { try printer.print(Self.page) }
    }
}
