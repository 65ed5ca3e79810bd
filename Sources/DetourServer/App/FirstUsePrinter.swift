import DetourJob
import Synchronization

/// The server's one browser, started when the first PDF is asked for, not when the server starts:
/// a server nobody asks for a PDF never starts one.
///
/// The start's outcome is kept, the browser or why it did not start, so a browser that cannot
/// start is not started again for every request (a restart of the server tries again). Pages
/// are printed at once, each in a tab of its own; the render pool's width bounds how many.
final class FirstUsePrinter: PagePrinter {
    private let start: @Sendable () throws(PrintFailure) -> any PagePrinter
    private let started = Mutex<Result<any PagePrinter, PrintFailure>?>(nil)

    init(start: @escaping @Sendable () throws(PrintFailure) -> any PagePrinter) {
        self.start = start
    }

    func print(_ page: PrintPage) throws(PrintFailure) -> [UInt8] {
        // Held while the browser starts: the requests that come meanwhile wait for it.
        let printer = started.withLock { started -> Result<any PagePrinter, PrintFailure> in
            if let started { return started }
            let outcome = Result { () throws(PrintFailure) in try start() }
            started = outcome
            return outcome
        }
        return try printer.get().print(page)
    }
}
