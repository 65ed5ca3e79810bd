import ArgumentParser
import DetourCore
import DetourIO
import DetourRender
import Foundation

/// `detour-report [render] TRIP`: the main job, a trip in and a report out; with `-d OUT`, any
/// number of trips into a folder, on every core.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract:
            "Write the trip's itinerary as HTML (default), Markdown or JSON, or export it as a calendar or a map.",
        discussion: """
            With -d OUT, renders every trip given (files, or folders: every *.json and *.gpx directly \
            inside, or below with -r) into OUT, one report per trip and format, plus OUT/index.html \
            (and index.md with Markdown) listing them all. One bad trip does not stop the others; the \
            exit code is the most serious one met (74, 73, 66, 65, then 0).
            """)

    @OptionGroup var trip: TripOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the report to this file instead of standard output; its extension (.html, .md, .json, .gpx, .ics, .geojson) sets the format.",
            valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The output format: html, markdown or json (reports), ics (a calendar), geojson (a map), or gpx (the trip itself, for a phone or GPS); with -d, a comma list such as html,markdown,json.",
            valueName: "format"))
    var format: FormatList?

    @Option(
        name: [.customShort("d"), .customLong("output-dir")],
        help: ArgumentHelp(
            "Write each trip's reports into this folder, named after the trip (lisbon.json -> DIR/lisbon.html).",
            valueName: "dir"))
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
            "With -d, render only the K-th (from 0) of N parts of the sorted trips, and write OUT/index.K-of-N.json for 'detour-report index'.",
            valueName: "K/N"))
    var shard: String?

    @Flag(help: "With -d, print no progress line and no summary; problems are still printed.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "The day the plan is as of (YYYY-MM-DD). Default: the UTC day of SOURCE_DATE_EPOCH when set, else today's local date.",
            valueName: "day"))
    var today: String?

    @Option(
        help: ArgumentHelp(
            "Load report.html.mustache and report.md.mustache from this folder instead of the built-in ones.",
            valueName: "dir"))
    var templates: String?

    @Option(
        help: ArgumentHelp(
            "Travel this way to every task (walk, cycle, transit, drive), whatever the trip says.", valueName: "mode"))
    var travel: TravelMode?

    @Option(
        help: ArgumentHelp(
            "Recommend the side with the least total time (default), the lower cost, or the shorter distance.",
            valueName: "rule"))
    var prefer: Preference = .time

    @Option(
        name: .customLong("day-hours"),
        help: ArgumentHelp(
            "Hours a day for detours at every stay (more than 0, at most 24, whole minutes), whatever the trip says.",
            valueName: "hours"))
    var dayHours: String?

    func validate() throws {
        try validateBatch()
        // Only a file needs its extension; a device, a FIFO or standard output takes HTML as
        // standard output does.
        if let output, format == nil, OutputFormat(fileName: output) == nil,
            case .file = try? Files.destination(of: output)
        {
            throw ValidationError(
                "cannot tell the format of '\(output)' from its extension; use .html, .md, .json, .gpx, .ics or .geojson, or pass --format"
            )
        }
        if let output, Files.isTrip(output, input: trip.input) {
            throw ValidationError(
                "-o '\(output)' is the trip itself; writing there would replace the trip with its report")
        }
    }

    /// The format: the option, else the output file's extension, else HTML.
    var outputFormat: OutputFormat {
        format?.formats.first ?? output.flatMap { OutputFormat(fileName: $0) } ?? .html
    }

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        if outputDir != nil { return try runBatch() }
        let day = try resolveToday()
        let format = outputFormat
        if format == .gpx {
            let (loaded, _) = try trip.loadTrip()
            do {
                try Files.writeReport(try TripGPXWriter.write(loaded), to: output, printer: trip.printer)
            } catch let error as TripGPXWriter.WriteError {
                trip.printer.report(.writeFailed, "cannot write GPX: \(error.message)", file: "detour-report")
                throw ExitCodes.ioError
            }
            return
        }
        let hours = try resolveDayHours()
        let renderer = ReportRenderer(templates: try loadTemplates(builtIn: format.report?.templateNames ?? []))
        let (loaded, warnings) = try trip.loadTrip()
        let plan = Planner.plan(
            loaded, today: day, options: Planner.Options(travel: travel, preference: prefer, dayHours: hours))
        trip.printer.print(plan.warnings)
        try Files.writeReport(to: output, printer: trip.printer) { sink in
            _ = format.write(plan, warnings: warnings, renderer: renderer, to: sink)
        }
    }

    /// `--day-hours`, checked by the same rule as a trip's `day_hours`.
    func resolveDayHours() throws(ExitCode) -> DayHours? {
        guard let dayHours else { return nil }
        do {
            return try DayHours.parse(dayHours)
        } catch {
            trip.printer.report(
                .badDayHours, "--day-hours: \(DayHours.message(error, text: dayHours))", file: "detour-report")
            throw ExitCodes.usage
        }
    }

    func resolveToday() throws(ExitCode) -> CalendarDay {
        do {
            return try Today.resolve(
                option: today,
                sourceDateEpoch: ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"],
                localDay: Render.localDay)
        } catch {
            switch error {
            case .badOption(let text):
                trip.printer.report(
                    .badToday, "--today \(Quoting.quoted(text)) is not a calendar day (YYYY-MM-DD)",
                    file: "detour-report")
            case .badSourceDateEpoch(let text):
                trip.printer.report(
                    .badSourceDateEpoch,
                    "SOURCE_DATE_EPOCH \(Quoting.quoted(text)) is not a number of seconds since 1970",
                    file: "detour-report")
            }
            throw ExitCodes.usage
        }
    }

    /// Today's date on the local calendar: the one place detour-report reads the clock.
    private static func localDay() -> CalendarDay {
        guard let today = SystemCalls.localDate() else { return .unixEpoch }
        return CalendarDay(year: today.year, month: today.month, day: today.day) ?? .unixEpoch
    }

    /// The templates: from `--templates`, the reports' and any index templates there, checked;
    /// else only the built-in ones `names`.
    func loadTemplates(builtIn names: [String]) throws(ExitCode) -> ReportTemplates {
        try TemplateFolder.load(
            templates, builtIn: names, required: ReportTemplates.requiredNames, optional: ReportTemplates.indexNames,
            printer: trip.printer)
    }
}

/// `--format`: one format, or with `-d` a comma list of them (`html,markdown,json`).
struct FormatList: ExpressibleByArgument, Equatable {
    /// The formats, in the order given, each once.
    var formats: [OutputFormat]

    init?(argument: String) {
        var formats: [OutputFormat] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let format = OutputFormat(rawValue: name == "md" ? "markdown" : name) else { return nil }
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

/// What `--format` can ask for: a report, an export (calendar, map), or the trip itself as GPX.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case html
    case markdown
    case json
    case gpx
    case ics
    case geojson

    /// The format a file name's extension implies.
    init?(fileName: String) {
        if let report = ReportFormat(fileName: fileName) {
            self.init(rawValue: report.rawValue)
        } else if let export = ExportFormat(fileName: fileName) {
            self.init(rawValue: export.rawValue)
        } else if fileName.lowercased().hasSuffix(".gpx") {
            self = .gpx
        } else {
            return nil
        }
    }

    /// The report format, or `nil` for an export or GPX.
    var report: ReportFormat? { ReportFormat(rawValue: rawValue) }

    /// The export format, or `nil` for a report or GPX.
    var export: ExportFormat? { ExportFormat(rawValue: rawValue) }

    /// Writes the plan in this format, a report or an export, into `sink`, with the trip's
    /// `warnings` (which only reports show); `false`, writing nothing, for GPX, which is the trip
    /// itself rather than its plan.
    func write(_ plan: Plan, warnings: [Diagnostic], renderer: ReportRenderer, to sink: @escaping ReportSink) -> Bool {
        if let report {
            renderer.render(plan, warnings: warnings, as: report, to: sink)
            return true
        }
        guard let export else { return false }
        sink(export.bytes(plan))
        return true
    }
}

extension TravelMode: ExpressibleByArgument {}
extension Preference: ExpressibleByArgument {}
