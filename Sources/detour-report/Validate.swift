import ArgumentParser
import DetourCore

/// `detour-report validate TRIP`: checks a trip and reports every problem, writing no report.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a trip file and print its problems; write no report.")

    @OptionGroup var trip: TripOptions

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        let (loaded, tripWarnings) = try trip.loadTrip()
        // What planning finds (budgets, rates, days) is worth knowing before rendering too.
        let planWarnings = Planner.plan(loaded, today: CalendarDay.unixEpoch).warnings
        trip.printer.print(planWarnings)
        let warnings = tripWarnings + planWarnings
        let detours = loaded.destinations.reduce(0) { $0 + $1.detours.count }
        let summary =
            "\(trip.input == "-" ? "<stdin>" : trip.input): valid trip: "
            + "\(count(loaded.destinations.count, "destination")), \(count(detours, "detour")), "
            + "\(count(warnings.count, "warning"))"
        try Files.writeReport(Quoting.printable(summary) + "\n", to: nil, printer: trip.printer)
    }

    private func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }
}
