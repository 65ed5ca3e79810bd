import ArgumentParser
import DetourCore

/// How trips are planned, whatever they say: `--travel`, `--prefer` and `--day-hours`, declared
/// once for `render` and `serve`.
public struct PlanOptions: ParsableArguments {
    public init() {}

    @Option(
        help: ArgumentHelp(
            "Travel this way to every task (walk, cycle, transit, drive), whatever the trip says.", valueName: "mode"))
    public var travel: TravelMode?

    @Option(
        help: ArgumentHelp(
            "Recommend the side with the least total time, the lower cost, or the shorter distance.",
            valueName: "rule"))
    public var prefer: Preference = .time

    @Option(
        name: .customLong("day-hours"),
        help: ArgumentHelp(
            "Hours a day for detours at every stay (more than 0, at most 24, whole minutes), whatever the trip says.",
            valueName: "hours"))
    public var dayHours: String?

    /// The planner's options, `--day-hours` a usage error when it cannot be read.
    public func planner(printer: DiagnosticPrinter) throws(ExitCode) -> Planner.Options {
        Planner.Options(
            travel: travel, preference: prefer, dayHours: try DayOptions.dayHours(dayHours, printer: printer))
    }
}

extension TravelMode: ExpressibleByArgument {}
extension Preference: ExpressibleByArgument {}
