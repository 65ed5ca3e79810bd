import ArgumentParser
import DetourCore
import DetourRender
import Foundation

/// `detour-report [render] TRIP`: the main job, a trip in and a report out.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the trip's itinerary as HTML (default), Markdown or JSON.")

    @OptionGroup var trip: TripOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the report to this file instead of standard output; its extension (.html, .md, .json) sets the format.",
            valueName: "file"))
    var output: String?

    @Option(help: "The report format: html, markdown or json.")
    var format: ReportFormat?

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

    func validate() throws {
        if let output, format == nil, ReportFormat(fileName: output) == nil {
            throw ValidationError(
                "cannot tell the format of '\(output)' from its extension; use .html, .md or .json, or pass --format")
        }
        if let today, CalendarDay(iso: today) == nil {
            throw ValidationError("--today '\(today)' is not a calendar day (YYYY-MM-DD)")
        }
    }

    /// The format: the option, else the output file's extension, else HTML.
    var reportFormat: ReportFormat {
        format ?? output.flatMap { ReportFormat(fileName: $0) } ?? .html
    }

    func run() throws {
        StandardStreams.ignoreBrokenPipeSignal()
        let day = try resolveToday()
        let renderer = ReportRenderer(templates: try loadTemplates())
        let (loaded, warnings) = try trip.loadTrip()
        let plan = Planner.plan(loaded, today: day)
        let report = renderer.render(plan, warnings: warnings, as: reportFormat)
        try write(report)
    }

    private func resolveToday() throws(ExitCode) -> CalendarDay {
        do {
            return try Today.resolve(
                option: today,
                sourceDateEpoch: ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"],
                localDay: Render.localDay)
        } catch {
            switch error {
            case .badOption(let text):
                StandardStreams.writeError("error: --today '\(Quoting.printable(text))' is not a calendar day (YYYY-MM-DD)\n")
            case .badSourceDateEpoch(let text):
                StandardStreams.writeError(
                    "error: SOURCE_DATE_EPOCH '\(Quoting.printable(text))' is not a number of seconds since 1970\n")
            }
            throw ExitCodes.usage
        }
    }

    /// Today's date on the local calendar: the one place detour-report reads the clock.
    private static func localDay() -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return CalendarDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CalendarDay.unixEpoch
    }

    private func loadTemplates() throws(ExitCode) -> ReportTemplates {
        do throws(ReportTemplates.LoadError) {
            guard let folder = templates else { return try ReportTemplates.bundled.get() }
            var files: [String: String] = [:]
            for name in ReportTemplates.requiredNames {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                guard let bytes = try? Files.read(path) else { throw .missing(path) }
                files[name] = String(decoding: bytes, as: UTF8.self)
            }
            return try ReportTemplates(files: files)
        } catch {
            StandardStreams.writeError("error: \(Quoting.printable(error.description))\n")
            throw ExitCodes.badTemplates
        }
    }

    private func write(_ report: String) throws(ExitCode) {
        if let output {
            do {
                try Files.replace(output, with: report)
            } catch {
                StandardStreams.writeError("error: cannot write '\(Quoting.printable(output))': \(error.reason)\n")
                throw ExitCodes.cannotCreate
            }
            return
        }
        do {
            try StandardStreams.writeOutput(report)
        } catch {
            switch error {
            case .brokenPipe:
                // The reader stopped listening (`| head`): nothing to say, but not a success.
                throw ExitCodes.ioError
            case .failed(let reason):
                StandardStreams.writeError("error: cannot write the report to standard output: \(reason)\n")
                throw ExitCodes.ioError
            }
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
