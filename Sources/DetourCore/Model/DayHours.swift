import Foundation

/// How long a day of detours is: the hours a traveller will spend on them each day of a stay.
///
/// Written in hours (`10`, `7.5`), kept in whole minutes: more than 0, at most 24 hours.
public struct DayHours: Sendable, Hashable, ValueRule {
    /// The length of the day, in minutes.
    public let minutes: Int

    /// The day when neither the trip nor the stay gives one: 10 hours.
    public static let standard = DayHours(checkedMinutes: 600)

    private init(checkedMinutes minutes: Int) {
        self.minutes = minutes
    }

    /// A day of `minutes`, or `nil` when that is not more than 0 and at most 24 hours.
    public init?(minutes: Int) {
        guard minutes > 0, minutes <= 24 * 60 else { return nil }
        self.minutes = minutes
    }

    /// The hours as trip files write them: `10`, `7.5`, `10.05`.
    ///
    /// A file can only give a multiple of 3 minutes (0.05 h), a whole number of hundredths, so
    /// those are worked out in whole numbers. Other days, made with ``init(minutes:)`` (1 minute is
    /// 0.0166… h), go through `Decimal`, whose text this matches; `DayHoursTests` checks every day
    /// from 1 minute to 24 hours.
    public var hoursText: String {
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        if rest == 0 { return String(hours) }
        guard rest % 3 == 0 else { return (Decimal(minutes) / 60).description }
        let hundredths = rest * 100 / 60
        let fraction =
            hundredths % 10 == 0 ? String(hundredths / 10) : (hundredths < 10 ? "0" : "") + String(hundredths)
        return String(hours) + "." + fraction
    }

    /// Why a day-hours text was refused.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not a number in ``NumberText``'s grammar.
        case notANumber
        /// Zero, negative, or more than 24.
        case outOfRange
        /// Not a whole number of minutes (`7.51` hours).
        case partialMinute
    }

    /// Every refusal is `bad-day-hours`.
    public static func code(_ problem: ParseError) -> DiagnosticCode { .badDayHours }

    /// Parses hours written as text: `10`, `7.5`, `0.25`.
    public static func parse(_ text: String) throws(ParseError) -> DayHours {
        guard let number = NumberText(text) else { throw .notANumber }
        if number.isNegative { throw .outOfRange }
        if let magnitude = number.magnitude, magnitude > 2 { throw .outOfRange }
        guard let hours = number.decimal else { throw .notANumber }
        let minutes = hours * 60
        guard minutes <= 24 * 60 else { throw .outOfRange }
        var whole = minutes
        var rounded = minutes
        NSDecimalRound(&rounded, &whole, 0, .plain)
        guard rounded == minutes else { throw .partialMinute }
        guard let day = DayHours(minutes: NSDecimalNumber(decimal: rounded).intValue) else { throw .outOfRange }
        return day
    }

    /// The message for a day-hours value written as `text` that `error` refused.
    public static func message(_ error: ParseError, text: String) -> String {
        let shown = "day hours \(Quoting.quoted(text))"
        switch error {
        case .notANumber: return "\(shown) is not a decimal number of hours"
        case .outOfRange: return "\(shown) is not more than 0 and at most 24"
        case .partialMinute: return "\(shown) is not a whole number of minutes"
        }
    }
}
