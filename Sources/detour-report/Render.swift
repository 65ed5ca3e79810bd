import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import SystemPackage

/// `detour-report [render] TRIP`: the main job, a trip in and a report out; with `-d OUT`, any
/// number of trips into a folder, on every core.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Write the trip's itinerary as HTML, Markdown, JSON or PDF, or export it as a calendar or a map.",
        discussion: """
            With -d OUT, renders every trip given (files, or folders: every *.json and *.gpx directly \
            inside, or below with -r) into OUT, one report per trip and format, plus OUT/index.html \
            (and index.md with Markdown) listing them all. One bad trip does not stop the others; the \
            exit code is the most serious one met (74, 73, 69, 66, 65, then 0).
            """)

    @Argument(
        help: ArgumentHelp(
            "The trip file (JSON or GPX), or - for standard input; with -d, any number of trips and folders of trips.",
            valueName: "trip"), completion: .tripFiles)
    var inputs: [String] = []

    @OptionGroup var trip: TripOptions

    /// The one trip of a run without -d.
    var input: String { inputs.first ?? "-" }

    /// Where problems go: named after the trip.
    var printer: DiagnosticPrinter { trip.printer(file: input) }

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the report to this file instead of standard output; its extension (.html, .md, .json, .pdf, .gpx, .ics, .geojson) sets the format.",
            valueName: "file"), completion: .file())
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The output format: html, markdown or json (reports), pdf (the HTML report printed by headless Chromium), ics (a calendar), geojson (a map), or gpx (the trip itself, for a phone or GPS); with -d, a comma list such as html,markdown,json.",
            valueName: "format"))
    var format: FormatList?

    @Option(
        name: [.customShort("d"), .customLong("output-dir")],
        help: ArgumentHelp(
            "Write each trip's reports into this folder, named after the trip (lisbon.json -> DIR/lisbon.html).",
            valueName: "dir"), completion: .directory)
    var outputDir: String?

    @Flag(
        name: [.customShort("r"), .customLong("recursive")],
        help: "With -d, also render the trips in folders inside the folders given.")
    var recursive = false

    @Option(
        name: [.customShort("j"), .customLong("jobs")],
        help: ArgumentHelp("With -d, render this many trips at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "With -d, render only the K-th (from 0) of N parts (N at most 100000) of the sorted trips, and write OUT/index.K-of-N.json for 'detour-report index'.",
            valueName: "K/N"))
    var shard: String?

    @Flag(help: "With -d, print no progress line and no summary; problems are still printed.")
    var quiet = false

    @Flag(
        help:
            "Write nothing: compare what would be written (-o FILE, or -d DIR with its index) with the files there, print each that differs, and exit 1 if any does."
    )
    var check = false

    @Option(
        help: ArgumentHelp(
            "The day the plan is as of (YYYY-MM-DD). Default: the UTC day of SOURCE_DATE_EPOCH when set, else today's local date.",
            valueName: "day"))
    var today: String?

    @Option(
        help: ArgumentHelp(
            "Load report.html.mustache, report.md.mustache and the index templates from this folder; the built-in template serves each one absent.",
            valueName: "dir"), completion: .directory)
    var templates: String?

    @OptionGroup var print: PrintOptions

    @OptionGroup var plan: PlanOptions

    /// The checks of the command line that ArgumentParser cannot make itself, run when the
    /// command runs rather than in `validate()`: ArgumentParser validates before it reports an
    /// unknown option, and `--formt md` makes `md` a second trip, so `validate()` would blame the
    /// trips for a mistyped option.
    func checkUsage() throws(UsageMistake) {
        if let first = inputs.first, let command = CommandSuggestion.mistyped(first, among: DetourReport.commandNames) {
            throw UsageMistake(message: "unknown command '\(first)'; did you mean '\(command)'?")
        }
        if inputs.isEmpty { throw UsageMistake(message: "Missing expected argument '<trip>'", command: Render.self) }
        do throws(ValidationError) {
            try validateBatch()
        } catch {
            throw UsageMistake(message: error.message, command: Render.self)
        }
    }

    /// The format: the option, else the output file's extension, else HTML.
    var outputFormat: OutputFormat {
        format?.formats.first ?? output.flatMap { OutputFormat(fileName: $0) } ?? .html
    }

    func run() throws {
        try checkUsage()
        StandardStreams.turnWriteSignalsIntoErrors()
        Interrupts.removeTemporariesAndExit()
        // The browser a PDF run starts is ended on every way out, errors too (signals: Interrupts).
        defer {
            ChromiumPrinter.endAll()
            Interrupts.letTheHandlerExit()
        }
        if outputDir != nil { return try runBatch() }
        try checkTargets()
        let (job, _) = try job(formats: [outputFormat])
        let result = job.run(path: FilePath(input), store: fileStore)
        printer.print(result.diagnostics)
        if !result.status.isValid { throw result.status.exitCode }
        if check, let target = self.output {
            let bytes = result.outputs.flatMap { (try? $0.bytes()) ?? [] }
            let differences = Check.compare(bytes, withFileAt: FilePath(target)).map { [$0] } ?? []
            let code = Check.report(differences, checked: 1, printer: printer, file: target)
            if code != ExitCodes.success { throw code }
            return
        }
        for output in result.outputs {
            try CommandOutput.write(to: self.output, printer: printer) { sink throws(Delivery.Failure) in
                try output.write(to: sink)
            }
        }
    }

    /// The checks on the command line that look at files: the trip is no folder, an `-o` file's
    /// extension tells its format, and `-o` is not the trip itself; each a mistake shown with
    /// render's usage.
    func checkTargets() throws(UsageMistake) {
        if (try? fileStore.info(FilePath(input), followLinks: true))?.kind == .directory, input != "-" {
            throw UsageMistake(
                message: "'\(input)' is a folder; give -d DIR to render every trip in it", command: Render.self)
        }
        guard let output else { return }
        // Only a file needs its extension; a device, a FIFO or standard output takes HTML as
        // standard output does.
        if format == nil, OutputFormat(fileName: output) == nil,
            case .file = try? Delivery.destination(of: FilePath(output), store: fileStore)
        {
            throw UsageMistake(
                message:
                    "cannot tell the format of '\(output)' from its extension; use .html, .md, .json, .pdf, .gpx, .ics or .geojson, or pass --format",
                command: Render.self)
        }
        if isTrip(output) {
            throw UsageMistake(
                message: "-o '\(output)' is the trip itself; writing there would replace the trip with its report",
                command: Render.self)
        }
    }

    /// Whether `output` is the trip's own file (standard input for `-`): the same regular file,
    /// which a report written there would replace.
    func isTrip(_ output: String) -> Bool {
        guard output != "-", let target = try? fileStore.info(FilePath(output), followLinks: true),
            target.kind == .regular
        else { return false }
        let source =
            input == "-"
            ? fileStore.standardInputIdentity : (try? fileStore.info(FilePath(input), followLinks: true))?.identity
        return source == target.identity
    }

    /// The job this command's options ask for, making `formats`, and its templates with the
    /// built-in ones `extra` too: the day, the day hours and the templates settled, each a usage
    /// or template error when it cannot be.
    func job(formats: [OutputFormat], alsoLoading extra: [String] = []) throws(ExitCode) -> (RenderJob, ReportTemplates)
    {
        let day = try DayOptions.today(today, printer: printer)
        let reports = formats.compactMap { $0 == .pdf ? .html : $0.report }
        let templates = try loadTemplates(builtIn: reports.flatMap(\.templateNames) + extra)
        let job = trip.job(
            formats: formats, today: day, planner: try plan.planner(printer: printer),
            renderer: ReportRenderer(templates: templates), printing: try printing(for: formats))
        return (job, templates)
    }

    /// A started browser and `--paper` when `formats` has PDF; exit 69 with a hint when no
    /// browser can be found or started.
    func printing(for formats: [OutputFormat]) throws(ExitCode) -> RenderJob.Printing? {
        guard formats.contains(.pdf) else { return nil }
        do {
            return RenderJob.Printing(
                printer: try ChromiumPrinter(browser: try print.browserPath()), paper: print.paper)
        } catch {
            printer.print([error.diagnostic], file: "detour-report")
            throw ExitCodes.unavailable
        }
    }

    /// The templates: from `--templates`, the reports' and any index templates there, checked;
    /// else only the built-in ones `names`.
    func loadTemplates(builtIn names: [String]) throws(ExitCode) -> ReportTemplates {
        try TemplateFolder.load(
            templates, builtIn: names, required: ReportTemplates.requiredNames, optional: ReportTemplates.indexNames,
            printer: printer)
    }
}

/// `--format`: one format, or with `-d` a comma list of them (`html,markdown,json`).
struct FormatList: ExpressibleByArgument, Equatable {
    /// The formats, in the order given, each once.
    var formats: [OutputFormat]

    init?(argument: String) {
        var formats: [OutputFormat] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let format = OutputFormat(name: TokenText.trimmed(String(part))) else { return nil }
            if !formats.contains(format) { formats.append(format) }
        }
        guard !formats.isEmpty else { return nil }
        self.formats = formats
    }

    static var allValueStrings: [String] { OutputFormat.allCases.map(\.rawValue) }

    /// Shell completions offer each format (one; a comma list is typed by hand).
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension ReportFormat {
    /// The built-in templates a report in this format renders from (none for JSON).
    var templateNames: [String] {
        switch self {
        case .html: return [ReportTemplates.htmlName]
        case .markdown: return [ReportTemplates.markdownName]
        case .json: return []
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
