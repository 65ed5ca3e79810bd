/// How long a task takes, in whole minutes.
///
/// Trip files write durations in ISO 8601 (`PT1H30M`, `P1DT2H`, `P1W`, and `PT1.5H`: a decimal
/// fraction on the smallest unit) or in the short form people type (`1h30m`, `90m`, `2h`,
/// `1d 2h`). Years and months are refused: they have no fixed length. Seconds are allowed when
/// they add up to whole minutes.
public struct TaskDuration: Sendable, Hashable, Comparable, CustomStringConvertible, ValueRule {
    /// The longest duration a task may have: a task longer than this is a typo, not a detour.
    public static let maximumMinutes = 30 * 24 * 60

    /// The length in minutes, always positive.
    public let minutes: Int

    /// Creates a duration from a positive number of minutes no greater than ``maximumMinutes``.
    public init?(minutes: Int) {
        guard minutes > 0, minutes <= TaskDuration.maximumMinutes else { return nil }
        self.minutes = minutes
    }

    /// An hour, the placeholder of a draft trip's tasks.
    static let hour = TaskDuration(checkedMinutes: 60)

    /// A duration known to be within the bounds.
    private init(checkedMinutes minutes: Int) {
        self.minutes = minutes
    }

    /// Why a duration text was refused.
    public enum ParseError: Error, Sendable, Equatable {
        /// The text follows neither form.
        case notADuration
        /// A year or month component, which has no fixed length.
        case calendarUnit
        /// Seconds that do not add up to whole minutes.
        case partialMinute
        /// Zero or negative.
        case notPositive
        /// Longer than ``TaskDuration/maximumMinutes``.
        case tooLong
    }

    /// The message for a duration written as `text` that `error` refused.
    public static func message(_ error: ParseError, text: String) -> String {
        let shown = "duration \(Quoting.quoted(text))"
        switch error {
        case .notADuration:
            return "\(shown) is not a duration\(meantHint(text)) (write PT1H30M, 1h30m, 90m or 2h)"
        case .calendarUnit:
            return "\(shown) uses years or months, which have no fixed length; use days or weeks"
        case .partialMinute:
            return "\(shown) is not a whole number of minutes"
        case .notPositive:
            return "\(shown) is not positive"
        case .tooLong:
            return "\(shown) is longer than the 30 days a task may take"
        }
    }

    /// `; did you mean "1h30m"?` for a text ``likelyMeant(_:)`` reads, else empty.
    public static func meantHint(_ text: String) -> String {
        likelyMeant(text).map { "; did you mean \(Quoting.quoted($0))?" } ?? ""
    }

    /// The short form `text` was probably meant as: `1h30` → `1h30m`, `90 min` → `90m`,
    /// `2 hours` → `2h`, `90` → `90m`, `1.5h` → `1h30m`, `1:30` → `1h30m`; `nil` when no such
    /// reading parses.
    public static func likelyMeant(_ text: String) -> String? {
        var body = text.lowercased().filter { !$0.isWhitespace }
        for (long, short) in [
            ("minutes", "m"), ("minute", "m"), ("mins", "m"), ("min", "m"), ("hours", "h"), ("hour", "h"),
            ("hrs", "h"), ("hr", "h"), ("days", "d"), ("day", "d"),
        ] {
            body = body.replacing(long, with: short)
        }
        // Hours and minutes as a clock writes them: `1:30`; a decimal fraction of one unit,
        // read as ISO 8601 reads it: `1.5h` is `PT1.5H`.
        var reading: String?
        if let clock = body.wholeMatch(of: /([0-9]{1,3}):([0-5][0-9])/) {
            reading = "PT\(clock.1)H\(clock.2)M"
        } else if let decimal = body.wholeMatch(of: /[0-9]{1,9}[.,][0-9]{1,9}([dhm])/) {
            reading = (decimal.1 == "d" ? "P" : "PT") + decimal.0.uppercased()
        }
        if let reading {
            return (try? parse(reading)).map { $0.description.filter { $0 != " " } }
        }
        // A bare number is minutes; a number after hours is minutes too (`1h30`).
        if let last = body.last, last.isNumber { body += "m" }
        guard body != text, (try? parse(body)) != nil else { return nil }
        return body
    }

    /// Every refusal is `bad-duration`.
    public static func code(_ problem: ParseError) -> DiagnosticCode { .badDuration }

    /// Parses either form, or throws why not.
    public static func parse(_ text: String) throws(ParseError) -> TaskDuration {
        var body = Substring(text)
        var negative = false
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        let seconds: Int
        if body.hasPrefix("P") {
            seconds = try parseISO(body.dropFirst())
        } else {
            seconds = try parseShort(body)
        }
        if negative || seconds == 0 { throw .notPositive }
        guard seconds % 60 == 0 else { throw .partialMinute }
        guard let duration = TaskDuration(minutes: seconds / 60) else { throw .tooLong }
        return duration
    }

    /// `1h 30m`, `45m`, `2d 3h`: the short form, which also reads back through ``parse(_:)``.
    public var description: String { TaskDuration.shortForm(minutes: minutes) }

    /// Any number of minutes in the short form: `1h 34m`, `2d 3h`; `0m` for none.
    public static func shortForm(minutes count: Int) -> String {
        guard count > 0 else { return "0m" }
        let days = count / 1440
        let hours = count % 1440 / 60
        let mins = count % 60
        var parts: [String] = []
        if days > 0 { parts.append("\(days)d") }
        if hours > 0 { parts.append("\(hours)h") }
        if mins > 0 { parts.append("\(mins)m") }
        return parts.joined(separator: " ")
    }

    /// `PT1H30M`: the ISO 8601 form.
    public var iso8601: String {
        let days = minutes / 1440
        let hours = minutes % 1440 / 60
        let mins = minutes % 60
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || mins > 0 { text += "T" }
        if hours > 0 { text += "\(hours)H" }
        if mins > 0 { text += "\(mins)M" }
        return text
    }

    public static func < (lhs: TaskDuration, rhs: TaskDuration) -> Bool {
        lhs.minutes < rhs.minutes
    }

    // The longest number we read: enough for any duration, far from overflow.
    private static let maxDigits = 9

    /// 10 to the power `exponent` (at most ``maxDigits``).
    private static func powerOfTen(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    /// `nW nD T nH nM nS`, after the `P`, each part optional but in order; returns seconds.
    private static func parseISO(_ text: Substring) throws(ParseError) -> Int {
        var parts = DurationScanner(text)
        var seconds = 0
        var inTime = false
        var order = 0
        var sawPart = false
        while let next = parts.peek() {
            if next == "T" {
                guard !inTime else { throw .notADuration }
                parts.advance()
                inTime = true
                sawPart = false
                continue
            }
            guard let value = parts.number(maxDigits: maxDigits) else { throw .notADuration }
            // ISO 8601 allows a decimal fraction, after `.` or `,`, on the smallest unit given.
            var fraction: (digits: Int, scale: Int)?
            if let sign = parts.peek(), sign == "." || sign == "," {
                parts.advance()
                guard let start = parts.digitCount(), let digits = parts.number(maxDigits: maxDigits) else {
                    throw .notADuration
                }
                fraction = (digits, Self.powerOfTen(start))
            }
            guard let unit = parts.take() else { throw .notADuration }
            let rank: Int
            let scale: Int
            switch (inTime, unit) {
            case (false, "Y"), (false, "M"): throw .calendarUnit
            case (false, "W"): (rank, scale) = (1, 7 * 86_400)
            case (false, "D"): (rank, scale) = (2, 86_400)
            case (true, "H"): (rank, scale) = (3, 3600)
            case (true, "M"): (rank, scale) = (4, 60)
            case (true, "S"): (rank, scale) = (5, 1)
            default: throw .notADuration
            }
            guard rank > order else { throw .notADuration }
            order = rank
            sawPart = true
            seconds += value * scale
            if let fraction {
                // The fraction is the last part, and must come to whole seconds.
                guard parts.peek() == nil else { throw .notADuration }
                let (whole, rest) = (fraction.digits * scale).quotientAndRemainder(dividingBy: fraction.scale)
                guard rest == 0 else { throw .partialMinute }
                seconds += whole
            }
        }
        // "P" alone and "P1DT" are not durations.
        guard order > 0, !inTime || sawPart else { throw .notADuration }
        return seconds
    }

    /// `1d 2h 30m`, parts in that order, spaces between them allowed; returns seconds.
    private static func parseShort(_ text: Substring) throws(ParseError) -> Int {
        var parts = DurationScanner(text)
        var seconds = 0
        var order = 0
        while true {
            parts.skipSpaces()
            guard parts.peek() != nil else { break }
            guard let value = parts.number(maxDigits: maxDigits), let unit = parts.take() else {
                throw .notADuration
            }
            let rank: Int
            let scale: Int
            switch unit {
            case "d": (rank, scale) = (1, 86_400)
            case "h": (rank, scale) = (2, 3600)
            case "m": (rank, scale) = (3, 60)
            default: throw .notADuration
            }
            guard rank > order else { throw .notADuration }
            order = rank
            seconds += value * scale
        }
        guard order > 0 else { throw .notADuration }
        return seconds
    }
}

/// Reads digits and unit letters from the front of a duration text.
private struct DurationScanner {
    private var rest: Substring.UnicodeScalarView

    init(_ text: Substring) { rest = text.unicodeScalars }

    func peek() -> Unicode.Scalar? { rest.first }

    mutating func advance() { rest = rest.dropFirst() }

    mutating func take() -> Unicode.Scalar? { rest.popFirst() }

    mutating func skipSpaces() {
        while rest.first == " " { advance() }
    }

    /// How many ASCII digits the text starts with, or `nil` for none.
    func digitCount() -> Int? {
        let count = rest.prefix { ("0"..."9").contains($0) }.count
        return count > 0 ? count : nil
    }

    /// A run of ASCII digits no longer than `maxDigits`, or `nil`.
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var count = 0
        while let scalar = rest.first, ("0"..."9").contains(scalar) {
            count += 1
            guard count <= maxDigits else { return nil }
            value = value * 10 + Int(scalar.value - 48)
            advance()
        }
        return count > 0 ? value : nil
    }
}
