/// A day on the proleptic Gregorian calendar, with no time and no time zone.
///
/// Trips are planned in calendar days: a stay from `2026-12-01` to `2026-12-05` is four nights
/// wherever the reader happens to be. Parsing is strict: `2026-02-30` is an error, never
/// March 2nd, and `2026-12-1` is not a day.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// Creates a day, or `nil` when the three numbers do not name a day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CalendarDay.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// 1970-01-01.
    public static let unixEpoch = CalendarDay(checkedYear: 1970, month: 1, day: 1)

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`, or returns `nil`.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = CalendarDay.number(bytes[0..<4]),
            let month = CalendarDay.number(bytes[5..<7]),
            let day = CalendarDay.number(bytes[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day that contains a moment given in seconds since 1970-01-01T00:00:00Z, in UTC.
    public init?(unixSeconds: Int64) {
        let (days, _) = unixSeconds.quotientAndRemainder(dividingBy: 86_400)
        let floorDays = unixSeconds < 0 && unixSeconds % 86_400 != 0 ? days - 1 : days
        self.init(daysSinceEpoch: Int(floorDays))
    }

    /// The day a number of days after 1970-01-01 (negative before it).
    public init?(daysSinceEpoch: Int) {
        // Howard Hinnant's civil_from_days: exact for the whole proleptic Gregorian calendar.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whole days from `self` to `other`: positive when `other` is later.
    public func days(to other: CalendarDay) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    /// The day `count` days later (earlier when negative), if it is still a day we can name.
    public func adding(days count: Int) -> CalendarDay? {
        CalendarDay(daysSinceEpoch: daysSinceEpoch + count)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        // Ten digits and dashes written in place (a year has four digits, 1 to 9999): a report
        // writes each day of every stay, and joining five strings for each was a twentieth of a
        // large trip's JSON report.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var rest = value
                for index in (offset..<offset + width).reversed() {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            return String(decoding: buffer, as: UTF8.self)
        }
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whether `year` has a February 29th.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension CalendarDay {
    /// The days a text that is not `YYYY-MM-DD` was probably meant as, each with how it was read.
    ///
    /// `2027-4-1` is `2027-04-01`; `2027-14-04`, month and day swapped, `2027-04-14`;
    /// `10/04/2027` either `2027-04-10` (day first) or `2027-10-04` (month first). Empty when
    /// no reading is a day.
    public static func likelyMeant(_ text: String) -> [(day: CalendarDay, reading: String)] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let day = { (year: Substring, month: Substring, day: Substring) -> CalendarDay? in
            guard let year = Int(year), let month = Int(month), let day = Int(day) else { return nil }
            return CalendarDay(year: year, month: month, day: day)
        }
        if let match = trimmed.wholeMatch(of: /([0-9]{4})[-\/.]([0-9]{1,2})[-\/.]([0-9]{1,2})/) {
            if let found = day(match.1, match.2, match.3) { return [(found, "")] }
            if let swapped = day(match.1, match.3, match.2) { return [(swapped, "month and day swapped")] }
            return []
        }
        if let match = trimmed.wholeMatch(of: /([0-9]{1,2})[-\/.]([0-9]{1,2})[-\/.]([0-9]{4})/) {
            let readings = [
                (day(match.3, match.2, match.1), "day first"), (day(match.3, match.1, match.2), "month first"),
            ]
            let found = readings.compactMap { found, reading in found.map { ($0, reading) } }
            // 04/04/2027 reads the same either way.
            if found.count == 2, found[0].0 == found[1].0 { return [(found[0].0, "")] }
            return found.count == 1 ? [(found[0].0, "")] : found
        }
        return []
    }

    /// `; did you mean "2027-04-01"?`, or both readings of a day that has two, for a text
    /// ``likelyMeant(_:)`` reads; else empty.
    public static func meantHint(_ text: String) -> String {
        let readings = likelyMeant(text)
        switch readings.count {
        case 0: return ""
        case 1:
            let note = readings[0].reading.isEmpty ? "" : " (\(readings[0].reading))"
            return "; did you mean \(Quoting.quoted(readings[0].day.description))\(note)?"
        default:
            return "; write "
                + readings.map { "\(Quoting.quoted($0.day.description)) (\($0.reading))" }.joined(separator: " or ")
        }
    }
}
