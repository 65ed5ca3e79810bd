import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourJob
import DetourRender
import SystemPackage

/// `detour-report validate TRIP… [-r]`: checks each trip named, and each in the folders named,
/// and reports every problem, writing no report.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check trip files and print their problems; write no report.",
        discussion: """
            Each trip named, and each *.json and *.gpx file in a folder named (hidden files left \
            out, as a batch render reads folders), is checked; one line a trip says how it went, and its problems go to \
            standard error. The exit status is the worst of the trips': 66 if any is unreadable, \
            else 65 if any is invalid, else 0.
            """)

    @Argument(
        help: ArgumentHelp(
            "Trip files (JSON or GPX) and folders of trips, or - for standard input.", valueName: "trip"),
        completion: .tripFiles)
    var inputs: [String] = []

    @OptionGroup var trip: TripOptions

    @Flag(
        name: [.customShort("r"), .customLong("recursive")],
        help: "Also check the trips in folders inside the folders given.")
    var recursive = false

    func run() throws {
        // Checked here, not in `validate()`, which ArgumentParser runs before it reports an
        // unknown option (see `Render.checkUsage`).
        if inputs.isEmpty {
            throw UsageMistake(message: "Missing expected argument '<trip>'", command: Validate.self)
        }
        StandardStreams.turnWriteSignalsIntoErrors()
        // What planning finds (budgets, rates, days) is worth knowing before rendering too; the
        // day only sorts stays into sections, which a check does not show.
        let job = trip.job(
            formats: [], today: .unixEpoch, planner: Planner.Options(),
            renderer: ReportRenderer(templates: .compiled))
        var codes: [Int32] = []
        var seen: Set<FilePath> = []
        for input in inputs {
            let inputs = BatchInputs([input], recursive: recursive)
            inputs.warnOfMisspelled { trip.printer(file: $0) }
            let found = inputs.jobs
            if found.isEmpty {
                // A folder with no trip in it is a mistake worth a line, not a silent success.
                trip.printer(file: input).report(
                    .readFailed,
                    "the folder holds no trip file (*.json, *.gpx)\(recursive ? "" : "; -r looks in its folders")",
                    file: input)
                codes.append(ExitCodes.noInput.rawValue)
            }
            for source in found where seen.insert(source.source).inserted {
                codes.append(try check(source, with: job))
            }
        }
        let worst = ExitCodes.mostSerious(codes)
        if worst != ExitCodes.success { throw worst }
    }

    /// Checks one trip: prints its problems and its line, and returns its exit status.
    private func check(_ source: BatchInputs.Job, with job: RenderJob) throws -> Int32 {
        let printer = trip.printer(file: source.shown)
        let name = DiagnosticText.displayName(source.shown)
        if let reason = source.unlisted {
            printer.report(.readFailed, "cannot list the folder: \(reason)")
            try say("\(name): \(TripStatus.unreadable)")
            return TripStatus.unreadable.exitCode.rawValue
        }
        let result = job.run(path: source.source, store: fileStore)
        printer.print(result.diagnostics)
        let warnings = Quoting.counted(result.diagnostics.warnings.count, "warning")
        let status = result.status
        if let trip = result.trip {
            let detours = trip.destinations.reduce(0) { $0 + $1.detours.count }
            try say(
                "\(name): \(status) trip: \(Quoting.counted(trip.destinations.count, "destination")), "
                    + "\(Quoting.counted(detours, "detour")), \(warnings)")
        } else if status == .invalid {
            let errors = result.diagnostics.filter { $0.severity == .error }.count
            try say("\(name): \(status) trip: \(Quoting.counted(errors, "error")), \(warnings)")
        } else {
            try say("\(name): \(status)")
        }
        return status.exitCode.rawValue
    }

    /// One line on standard output.
    private func say(_ line: String) throws {
        try CommandOutput.write(Quoting.printable(line) + "\n", to: nil, printer: trip.printer(file: "detour-report"))
    }
}
