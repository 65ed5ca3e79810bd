import ArgumentParser
import DetourCore
import Foundation

/// `--today` and `--day-hours`, read the same way by every command that plans: each a usage
/// error (exit 64) with its own code when it cannot be read.
public enum DayOptions {
    /// The day plans are as of: `--today`, else the UTC day of `SOURCE_DATE_EPOCH`, else the
    /// local calendar's today.
    public static func today(_ option: String?, printer: DiagnosticPrinter) throws(ExitCode) -> CalendarDay {
        do {
            return try Today.resolve(
                option: option, sourceDateEpoch: sourceDateEpoch, localDay: SystemCalls.localDay)
        } catch {
            switch error {
            case .badOption(let text):
                printer.report(
                    .badToday,
                    "--today \(Quoting.quoted(text)) is not a calendar day (YYYY-MM-DD)\(CalendarDay.meantHint(text))",
                    file: "detour-report")
            case .badSourceDateEpoch(let text):
                printer.report(
                    .badSourceDateEpoch,
                    "SOURCE_DATE_EPOCH \(Quoting.quoted(text)) is not a number of seconds since 1970",
                    file: "detour-report")
            }
            throw ExitCodes.usage
        }
    }

    /// `SOURCE_DATE_EPOCH` from the environment, when set.
    public static var sourceDateEpoch: String? { ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] }

    /// `--day-hours`, checked by the same rule as a trip's `day_hours`.
    public static func dayHours(_ text: String?, printer: DiagnosticPrinter) throws(ExitCode) -> DayHours? {
        guard let text else { return nil }
        do {
            return try DayHours.parse(text)
        } catch {
            printer.report(.badDayHours, "--day-hours: \(DayHours.message(error, text: text))", file: "detour-report")
            throw ExitCodes.usage
        }
    }
}
