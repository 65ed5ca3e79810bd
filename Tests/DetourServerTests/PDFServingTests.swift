import DetourCore
import DetourJob
import DetourRender
import DetourTestSupport
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import DetourServer

/// A page printer that counts its pages and fails when told to.
final class CountingPrinter: PagePrinter {
    let pages = Mutex(0)
    let failure = Mutex<PrintFailure?>(nil)

    func print(_ page: PrintPage) throws(PrintFailure) -> [UInt8] {
        pages.withLock { $0 += 1 }
        if let failure = failure.withLock({ $0 }) { throw failure }
        return Array("%PDF-1.4\n%%EOF\n".utf8)
    }
}

/// `/trips/NAME.pdf`: printed by the server's one browser, kept like every output; without a
/// browser 503 with the install hint, and a print that failed is tried again.
@Suite struct PDFServingTests: SiteDriving {
    func site(printer: CountingPrinter?) throws -> DrivenSite {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        let today = Self.today
        var settings = ServerSettings(today: { today }, templates: templates)
        settings.printing = printer.map { RenderJob.Printing(printer: $0) }
        settings.noPrinting = "no browser to print PDF with; install chromium"
        let store = FakeTripStore(["nordic-budget.json": try Fixtures.sample("nordic-budget.json")])
        return DrivenSite(settings: settings, store: store)
    }

    @Test func aPDFIsPrintedOnceAndKept() async throws {
        let printer = CountingPrinter()
        let site = try site(printer: printer)
        let responses = try await site.respond(to: [
            request(.get, "/trips/nordic-budget.pdf"), request(.get, "/trips/nordic-budget.pdf"),
        ])
        for response in responses {
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/pdf")
            #expect(body(response).hasPrefix("%PDF-1.4"))
        }
        #expect(responses[0].headers[.eTag] == responses[1].headers[.eTag])
        #expect(printer.pages.withLock { $0 } == 1, "the second is the kept one")
        let index = body(try await site.respond(to: request(.get, "/trips")))
        #expect(index.contains("trips/nordic-budget.pdf"), "the index links the PDF")
    }

    @Test func withoutABrowserAPDFIs503WithTheHintAndTheIndexLinksNone() async throws {
        let site = try site(printer: nil)
        let response = try await site.respond(to: request(.get, "/trips/nordic-budget.pdf"))
        #expect(response.status == .serviceUnavailable)
        #expect(body(response).contains("\"code\":\"no-browser\""))
        #expect(body(response).contains("install chromium"))
        #expect(try await site.respond(to: request(.get, "/trips/nordic-budget.html")).status == .ok)
        #expect(!body(try await site.respond(to: request(.get, "/trips"))).contains(".pdf"))
    }

    @Test(arguments: [
        (PrintFailure.failed("the tab crashed"), 502, "print-failed"),
        (PrintFailure.noBrowser("chromium did not start; install chromium"), 503, "no-browser"),
    ])
    func aFailedPrintIsSaidAndTriedAgain(_ failure: PrintFailure, _ status: Int, _ code: String) async throws {
        let printer = CountingPrinter()
        printer.failure.withLock { $0 = failure }
        let site = try site(printer: printer)
        let failed = try await site.respond(to: request(.get, "/trips/nordic-budget.pdf"))
        #expect(failed.status.code == status)
        #expect(body(failed).contains("\"code\":\"\(code)\""))
        printer.failure.withLock { $0 = nil }
        #expect(try await site.respond(to: request(.get, "/trips/nordic-budget.pdf")).status == .ok)
        #expect(printer.pages.withLock { $0 } == 2, "a failure is not kept")
    }

    /// The browser starts at the first page, once; a start that failed is not tried again.
    @Test func theBrowserStartsOnceAtTheFirstPage() throws {
        let starts = Mutex(0)
        let started = TripServer.printer { () throws(PrintFailure) in
            starts.withLock { $0 += 1 }
            return CountingPrinter()
        }
        #expect(starts.withLock { $0 } == 0, "nothing starts before a page is asked for")
        let page = PrintPage(html: [], paper: .a4, footer: "")
        for _ in 0..<3 { _ = try started.print(page) }
        #expect(starts.withLock { $0 } == 1)
        let refused = TripServer.printer { () throws(PrintFailure) in
            starts.withLock { $0 += 1 }
            throw .noBrowser("no browser")
        }
        for _ in 0..<2 {
            #expect(throws: PrintFailure.noBrowser("no browser")) { try refused.print(page) }
        }
        #expect(starts.withLock { $0 } == 2, "the failed start is kept")
    }
}
