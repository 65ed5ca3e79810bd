import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourJob
import DetourRender
import SystemPackage

/// `detour-report validate TRIP`: checks a trip and reports every problem, writing no report.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a trip file and print its problems; write no report.")

    @OptionGroup var trip: TripOptions

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        // What planning finds (budgets, rates, days) is worth knowing before rendering too; the
        // day only sorts stays into sections, which a check does not show.
        let job = trip.job(
            formats: [], today: .unixEpoch, planner: Planner.Options(),
            renderer: ReportRenderer(templates: .compiled))
        let result = job.run(path: FilePath(trip.input), store: fileStore)
        trip.printer.print(result.diagnostics)
        if let code = TripOptions.exitCode(result.outcome) { throw code }
        let trip = result.trip?.destinations ?? []
        let detours = trip.reduce(0) { $0 + $1.detours.count }
        let summary =
            "\(DiagnosticText.displayName(self.trip.input)): valid trip: "
            + "\(count(trip.count, "destination")), \(count(detours, "detour")), "
            + "\(count(result.diagnostics.warnings.count, "warning"))"
        try Output.write(Quoting.printable(summary) + "\n", to: nil, printer: self.trip.printer)
    }

    private func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
