import DetourTestSupport
import Foundation
import Testing

/// `/trips/NAME.pdf` from the real server: one browser, started at the first PDF and ended with
/// the server; without one, 503 and how to get one.
@Suite(.enabled(if: CI.runs(whenAvailable: Tool.usable("python3")), "the fake browser is a python3 script"))
struct ServePDFTests {
    /// The browser's script, log and PDFs.
    let folder: ScratchFolder
    /// The served folder: Lisbon as `lisbon.json`.
    let served: ScratchFolder
    var trips: URL { served.url }

    init() throws {
        (folder, served) = (try ScratchFolder("detour-serve-pdf"), try ScratchFolder("detour-serve-pdf-trips"))
        try Data(try Fixtures.sample("lisbon-city-break.json")).write(
            to: served.url.appendingPathComponent("lisbon.json"))
    }

    @Test func oneBrowserPrintsEveryPDFAndEndsWithTheServer() throws {
        let browser = try FakeBrowser(in: folder.url)
        let server = try ServerProcess(folder: trips, arguments: ["--browser", browser.path, "--paper", "letter"])
        #expect(!FileManager.default.fileExists(atPath: browser.log.path), "no browser before a PDF is asked for")
        for _ in 0..<3 {
            let pdf = try Curl.request("\(server.base)/trips/lisbon.pdf")
            #expect(pdf.status == 200)
            #expect(pdf.header("content-type") == "application/pdf")
            #expect(pdf.text.hasPrefix("%PDF-1.4"))
            #expect(pdf.text.contains("/CreationDate (D:20261124000000+00'00')"), "dated as of the plan's day")
        }
        #expect(try browser.starts().count == 1)
        #expect(try browser.methods().filter { $0 == "Page.printToPDF" }.count == 1, "the next two were kept")
        let printed = try browser.lines().first { $0.contains("Page.printToPDF") }.orThrow("no print")
        #expect(try FakeBrowser.params(printed)["paperWidth"] as? Double == 8.5, "--paper letter")
        #expect(server.stop() == 0)
        #expect(try browser.allEnded(), "the browser ends with the server")
    }

    @Test func withoutABrowserAPDFIs503AndEveryOtherFormatIsServed() throws {
        let server = try ServerProcess(folder: trips, arguments: ["--browser", "/nonexistent/chromium"])
        let refused = try Curl.request("\(server.base)/trips/lisbon.pdf")
        #expect(refused.status == 503)
        #expect(refused.text.contains("\"code\":\"no-browser\""))
        #expect(refused.text.contains("--browser names \\\"/nonexistent/chromium\\\""), "\(refused.text)")
        #expect(try Curl.request("\(server.base)/trips/lisbon.html").status == 200)
    }

    @Test(
        .enabled(if: CI.runs(whenAvailable: Tool.usable("chromium") && Tool.usable("pdftotext")), "needs chromium"))
    func chromiumPrintsTheReport() throws {
        let server = try ServerProcess(folder: trips, arguments: ["--browser", "chromium"])
        let pdf = try Curl.request("\(server.base)/trips/lisbon.pdf")
        #expect(pdf.status == 200)
        let file = folder.url.appendingPathComponent("lisbon.pdf")
        try pdf.body.write(to: file)
        let text = try Poppler.run("pdftotext", [file.path, "-"])
        #expect(text.contains("Lisbon"), "\(text.prefix(300))")
    }
}
