import DetourCore
import DetourIO
import DetourRender
import SystemPackage

/// The one way a trip becomes its outputs: bytes → reader → validator → planner → outputs.
///
/// `render`, `render -d`, `index` and `serve` all run trips through this; none of them wires the
/// pipeline itself. A job does no I/O of its own: it reads from a source it is handed (or opens
/// one through a ``FileStore``), and its outputs are written by whoever asked for them, chunk by
/// chunk, into a sink.
public struct RenderJob: Sendable {
    /// What every trip of a job shares.
    public struct Options: Sendable {
        /// The formats to make, in order; none for a check only (`validate`).
        public var formats: [OutputFormat]
        /// The day the plan is as of: a command's, fixed for its run.
        ///
        /// A server's day moves on, and is given with each run (``RenderJob/run(bytes:name:today:)``).
        public var today: CalendarDay
        /// Travel mode, preference and day hours given on the command line.
        public var planner: Planner.Options
        /// The templates for HTML and Markdown, compiled once.
        public var renderer: ReportRenderer
        /// The trip format when a file's name does not tell it.
        public var inputFormat: TripFormat?
        /// How much a reader takes in.
        public var limits: ReadLimits
        /// The browser and paper for PDF; a PDF asked for without them is not printed.
        public var printing: Printing?

        /// Options; by default HTML with the built-in templates and the standard limits.
        public init(
            formats: [OutputFormat] = [.html], today: CalendarDay, planner: Planner.Options = Planner.Options(),
            renderer: ReportRenderer, inputFormat: TripFormat? = nil, limits: ReadLimits = .standard,
            printing: Printing? = nil
        ) {
            self.formats = formats
            self.today = today
            self.planner = planner
            self.renderer = renderer
            self.inputFormat = inputFormat
            self.limits = limits
            self.printing = printing
        }
    }

    /// How PDFs are printed: by which browser, on which paper.
    public struct Printing: Sendable {
        public var printer: any PagePrinter
        public var paper: Paper

        public init(printer: any PagePrinter, paper: Paper = .a4) {
            self.printer = printer
            self.paper = paper
        }
    }

    public var options: Options

    public init(_ options: Options) {
        self.options = options
    }

    /// Reads the trip at `path` (standard input for `-`) through `store`, then runs it.
    public func run(path: FilePath, store: some FileStore) -> RenderResult {
        do {
            return run(try store.openForReading(path), name: path.string)
        } catch {
            return .unreadable(Diagnostic(.readFailed, "cannot read the trip: \(error.reason)"))
        }
    }

    /// Runs the trip in `bytes`, named `name` (its extension may tell the format).
    public func run(bytes: [UInt8], name: String) -> RenderResult {
        run(MemoryFile(bytes), name: name)
    }

    /// Runs the trip in `bytes` as of `today` rather than the options' day.
    public func run(bytes: [UInt8], name: String, today: CalendarDay) -> RenderResult {
        var job = self
        job.options.today = today
        return job.run(bytes: bytes, name: name)
    }

    /// One calendar of the valid trips among `results`, named `name`, as of `today`: a folder's
    /// trips in one feed.
    public func calendar(of results: [RenderResult], name: String, today: CalendarDay) -> [UInt8] {
        ICSExport.bytes(plans: results.compactMap(\.plan), name: name, today: today)
    }

    /// The index of a folder's trips in `format`, from the job's templates.
    public func index(_ index: TripIndex, as format: ReportFormat) -> String {
        options.renderer.renderIndex(index, as: format)
    }

    /// Runs the trip `file` holds, named `name`: GPX streams, so a file of millions of track
    /// points never sits in memory whole; JSON is read whole, up to the input limit.
    public func run(_ file: any ReadableFile, name: String) -> RenderResult {
        let validated: TripValidator.Outcome
        do {
            validated = try TripInput.read(file, name: name, format: options.inputFormat, limits: options.limits)
        } catch {
            return .unreadable(Diagnostic(.readFailed, "cannot read the trip: \(error)"))
        }
        return plan(validated)
    }

    /// Plans a validated trip and prepares its outputs.
    func plan(_ validated: TripValidator.Outcome) -> RenderResult {
        guard let trip = validated.trip else {
            // GPX streams, so a read that fails part-way is met, and reported, by its reader.
            let unreadable = validated.diagnostics.contains { $0.code == .readFailed }
            return RenderResult(status: unreadable ? .unreadable : .invalid, found: validated.diagnostics)
        }
        let plan = Planner.plan(trip, today: options.today, options: options.planner)
        let tripWarnings = validated.diagnostics.warnings
        let outputs = options.formats.map { format in
            Output(
                format: format, plan: plan, trip: trip, tripWarnings: tripWarnings, renderer: options.renderer,
                printing: options.printing)
        }
        return RenderResult(status: .valid, found: validated.diagnostics, trip: trip, plan: plan, outputs: outputs)
    }
}

/// What running a trip gave: its diagnostics, and its outputs when it is valid.
public struct RenderResult: Sendable {
    /// How it ended: `valid`, with its outputs ready to write (warnings allowed), `invalid` or
    /// `unreadable`, with none.
    public var status: TripStatus
    /// What the reader and the validator found, in file order.
    public var found: [Diagnostic]
    /// Everything found, to print in this order: the reader's and the validator's findings in
    /// file order, then the planner's warnings.
    ///
    /// Joined only when both have some: a large trip's tens of thousands of planner warnings are
    /// not copied to be listed.
    public var diagnostics: [Diagnostic] {
        guard let warnings = plan?.warnings, !warnings.isEmpty else { return found }
        return found.isEmpty ? warnings : found + warnings
    }
    /// The valid trip.
    public var trip: Trip?
    /// Its plan.
    public var plan: Plan?
    /// One output for each format asked for, in order.
    public var outputs: [Output] = []

    /// A trip whose file could not be read.
    public static func unreadable(_ diagnostic: Diagnostic) -> RenderResult {
        RenderResult(status: .unreadable, found: [diagnostic])
    }

    /// The output in `format`, when the job made one (a valid trip, a format it was asked for).
    public func output(_ format: OutputFormat) -> Output? {
        outputs.first { $0.format == format }
    }

    /// The first error, for a trip that has no outputs.
    public var firstError: Diagnostic? { diagnostics.first { $0.severity == .error } }
}

/// One output of a trip, made when it is written: a report, an export, or the trip as GPX.
public struct Output: Sendable {
    public let format: OutputFormat
    let plan: Plan
    let trip: Trip
    let tripWarnings: [Diagnostic]
    let renderer: ReportRenderer
    let printing: RenderJob.Printing?

    /// Writes the output into `sink`, a chunk at a time; a large report is never held whole.
    public func write(to sink: @escaping ReportSink) throws(Delivery.Failure) {
        if let report = format.report {
            renderer.render(plan, warnings: tripWarnings, as: report, to: sink)
        } else if let export = format.export {
            sink(export.bytes(plan))
        } else if format == .pdf {
            sink(try pdf())
        } else {
            do {
                sink(Array(try TripGPXWriter.write(trip).utf8))
            } catch {
                throw .cutOff(FileError(.ioError, reason: "cannot write GPX: \(error.message)"))
            }
        }
    }

    /// The HTML report printed, with its dates and ID made reproducible (see ``PDFStamp``).
    ///
    /// It is printed whole before a byte is handed on, so a browser that fails leaves nothing
    /// written.
    func pdf() throws(Delivery.Failure) -> [UInt8] {
        guard let printing else { throw .unprintable(.noBrowser("no browser was given to print PDF with")) }
        var html: [UInt8] = []
        renderer.render(plan, warnings: tripWarnings, as: .html) { html += $0 }
        let page = PrintPage(html: html, paper: printing.paper, footer: PrintPage.footer(title: trip.title))
        do {
            return PDFStamp.stamped(try printing.printer.print(page), day: plan.today)
        } catch {
            throw .unprintable(error)
        }
    }

    /// The whole output.
    public func bytes() throws(Delivery.Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        try write { bytes += $0 }
        return bytes
    }
}

/// A trip already in memory, read as a file is.
final class MemoryFile: ReadableFile {
    private var source: BufferSource
    let regularFileSize: Int?

    init(_ bytes: [UInt8]) {
        source = BufferSource(bytes)
        regularFileSize = bytes.count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try source.read(into: buffer)
    }
}
