import DetourCore
import DetourJob
import DetourRender
import DetourTestSupport
import Foundation
import Synchronization
import SystemPackage
import Testing

/// PDF through the render job, with a fake browser: what it is asked to print, what becomes of
/// what it prints, and what a browser that fails leaves behind.
@Suite struct PDFOutputTests {
    /// A browser that prints a fixed PDF, or fails as told, and keeps the pages it was given.
    final class FakePrinter: PagePrinter {
        let failure: PrintFailure?
        let pages = Mutex<[PrintPage]>([])

        init(failing failure: PrintFailure? = nil) {
            self.failure = failure
        }

        func print(_ page: PrintPage) throws(PrintFailure) -> [UInt8] {
            pages.withLock { $0.append(page) }
            if let failure { throw failure }
            return PDFStampTests.pdf()
        }
    }

    static func job(_ formats: [OutputFormat], printer: FakePrinter?, paper: Paper = .a4) -> RenderJob {
        RenderJob(
            RenderJob.Options(
                formats: formats, today: PDFStampTests.day, renderer: ReportRenderer(templates: .compiled),
                printing: printer.map { RenderJob.Printing(printer: $0, paper: paper) }))
    }

    @Test(arguments: Paper.allCases)
    func theHTMLReportIsPrintedOnThePaperWithTheTitleInTheFooterAndStamped(_ paper: Paper) throws {
        let printer = FakePrinter()
        let bytes = try Fixtures.sample("lisbon-city-break.json")
        let result = Self.job([.html, .pdf], printer: printer, paper: paper).run(bytes: bytes, name: "lisbon.json")
        let html = try result.outputs[0].bytes()
        let pdf = try result.outputs[1].bytes()
        let page = try #require(printer.pages.withLock { $0.first })
        #expect(page.html == html)
        #expect(page.paper == paper)
        #expect(page.footer == PrintPage.footer(title: "Lisbon in December"))
        #expect(pdf == PDFStamp.stamped(PDFStampTests.pdf(), day: PDFStampTests.day))
    }

    @Test func theFooterEscapesTheTitleAndHasTheBrowsersPageCounters() {
        let footer = PrintPage.footer(title: #"<b>Ana & "Bo"</b>"#)
        #expect(footer.contains("&lt;b&gt;Ana &amp; &quot;Bo&quot;&lt;/b&gt;"))
        #expect(!footer.contains("<b>"))
        #expect(footer.contains(#"page <span class="pageNumber"></span> of <span class="totalPages"></span>"#))
    }

    @Test func aPaperIsItsSizeInInches() {
        #expect(abs(Paper.a4.inches.width - 8.2677) < 0.0001)
        #expect(abs(Paper.a4.inches.height - 11.6929) < 0.0001)
        #expect(Paper.letter.inches == (8.5, 11))
    }

    @Test(arguments: [PrintFailure.failed("the browser ended"), .noBrowser("none")])
    func aBrowserThatFailsGivesNoBytesAndItsDiagnostic(_ failure: PrintFailure) throws {
        let result = Self.job([.pdf], printer: FakePrinter(failing: failure)).run(
            bytes: try Fixtures.sample("lisbon-city-break.json"), name: "lisbon.json")
        var handed: [UInt8] = []
        #expect(throws: Delivery.Failure.self) { try result.outputs[0].write { handed += $0 } }
        #expect(handed.isEmpty)
        let caught = #expect(throws: Delivery.Failure.self) { try result.outputs[0].bytes() }
        guard case .unprintable(let given) = caught else {
            Issue.record("\(String(describing: caught))")
            return
        }
        #expect(given == failure)
        let code: DiagnosticCode = if case .failed = failure { .printFailed } else { .noBrowser }
        #expect(caught?.diagnostic(target: nil).code == code)
    }

    @Test func aJobWithoutABrowserCannotPrint() throws {
        let result = Self.job([.pdf], printer: nil).run(
            bytes: try Fixtures.sample("lisbon-city-break.json"), name: "lisbon.json")
        let caught = #expect(throws: Delivery.Failure.self) { try result.outputs[0].bytes() }
        #expect(caught?.diagnostic(target: nil).code == .noBrowser)
    }

    /// In a folder, the reports before the PDF are written, the PDF is not, and no temporary
    /// file stays; the trip is marked failed in the index.
    @Test func aFailedPrintInAFolderWritesNothingForThePDF() throws {
        let store = FakeFileStore()
        store.put("/trips/lisbon.json", String(decoding: try Fixtures.sample("lisbon-city-break.json"), as: UTF8.self))
        store.folder("/out")
        let job = Self.job([.html, .pdf], printer: FakePrinter(failing: .failed("the browser ended")))
        let rendered = job.render("/trips/lisbon.json", name: "lisbon", into: "/out", store: store)
        #expect(store.text("/out/lisbon.html") != nil)
        #expect(store.node("/out/lisbon.pdf") == nil)
        #expect(try store.entries(in: "/out").map(\.name.string) == ["lisbon.html"])
        #expect(rendered.entry.status == .failed)
        #expect(rendered.diagnostics.last?.diagnostic.code == .printFailed)
        guard case .unprintable = rendered.failure else {
            Issue.record("\(String(describing: rendered.failure))")
            return
        }
    }

    @Test func pdfIsNamedByItsExtensionAndIsNoFormatTheServerOffers() {
        #expect(OutputFormat(fileName: "Plan.PDF") == .pdf)
        #expect(OutputFormat(name: "PDF") == .pdf)
        #expect(OutputFormat.pdf.fileExtension == "pdf")
        #expect(OutputFormat.pdf.report == nil && OutputFormat.pdf.export == nil)
        #expect(OutputFormat.withoutBrowser == OutputFormat.allCases.filter { $0 != .pdf })
    }
}
