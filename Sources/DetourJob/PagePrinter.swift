import DetourCore
import DetourRender

/// Something that prints a self-contained HTML page to PDF: a browser engine, which only an
/// executable starts (see `ChromiumPrinter` in DetourCommandLine), or a fake in tests.
///
/// A job with PDF among its formats is handed one in ``RenderJob/Options/printing``. It may be
/// called from several threads at once, one page each: a batch run prints `-j` pages at a time.
public protocol PagePrinter: Sendable {
    /// The PDF of `page`, as the browser printed it (``PDFStamp`` makes it reproducible).
    func print(_ page: PrintPage) throws(PrintFailure) -> [UInt8]
}

/// The paper a PDF is printed on.
public enum Paper: String, CaseIterable, Sendable {
    /// ISO A4, 210 × 297 mm: the default.
    case a4
    /// US Letter, 8.5 × 11 in.
    case letter

    /// Width and height in inches, as the DevTools protocol takes them.
    public var inches: (width: Double, height: Double) {
        switch self {
        case .a4: return (210 / 25.4, 297 / 25.4)
        case .letter: return (8.5, 11)
        }
    }
}

/// One page to print: the HTML report, and what goes in each page's footer.
public struct PrintPage: Sendable {
    /// The report, self-contained HTML (it loads nothing).
    public var html: [UInt8]
    /// The paper.
    public var paper: Paper
    /// The footer the browser draws in each page's bottom margin, HTML with the browser's
    /// `pageNumber` and `totalPages` placeholders: the trip's title and "page N of M".
    public var footer: String

    public init(html: [UInt8], paper: Paper, footer: String) {
        self.html = html
        self.paper = paper
        self.footer = footer
    }

    /// The footer of a report titled `title`: the title on the left, "page N of M" on the right,
    /// in 8-point type inside the report's side margins (14 mm, the report's `@page` rule).
    ///
    /// The browser draws footers in a separate document with no styles of the page's, so every
    /// style is given here, and its default font size (zero) is replaced.
    public static func footer(title: String) -> String {
        """
        <div style="font: 8pt sans-serif; color: #555; width: 100%; margin: 0 14mm; \
        display: flex; justify-content: space-between; gap: 6mm;">\
        <span style="overflow: hidden; white-space: nowrap; text-overflow: ellipsis;">\(Escaping.html(title))</span>\
        <span style="white-space: nowrap;">page <span class="pageNumber"></span> of <span class="totalPages"></span></span>\
        </div>
        """
    }
}

/// Why a page could not be printed.
public enum PrintFailure: Error, Sendable, Equatable {
    /// No browser was found, or the one named cannot be started; the message says how to get one.
    case noBrowser(String)
    /// The browser started and then failed: it ended, stopped answering, or refused the page.
    case failed(String)

    /// The diagnostic for it, with its stable code.
    public var diagnostic: Diagnostic {
        switch self {
        case .noBrowser(let reason): return Diagnostic(.noBrowser, reason)
        case .failed(let reason): return Diagnostic(.printFailed, "the browser could not print the report: \(reason)")
        }
    }
}
