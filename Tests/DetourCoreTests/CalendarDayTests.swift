import DetourCore
import Testing

@Suite struct CalendarDayTests {
    @Test func parsesExactlyYearMonthDay() {
        let day = CalendarDay(iso: "2026-12-01")
        #expect(day?.year == 2026)
        #expect(day?.month == 12)
        #expect(day?.day == 1)
        #expect(day?.description == "2026-12-01")
    }

    @Test(arguments: [
        "2026-02-30", "2026-02-29", "2100-02-29", "2026-13-01", "2026-00-10", "2026-04-31",
        "2026-12-1", "2026-12-01junk", " 2026-12-01", "2026/12/01", "0000-01-01", "+2026-12-01", "",
    ])
    func refusesTextThatIsNotADay(_ text: String) {
        #expect(CalendarDay(iso: text) == nil)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "1970-01-01", "9999-12-31", "0001-01-01"])
    func acceptsEveryRealDay(_ text: String) {
        #expect(CalendarDay(iso: text)?.description == text)
    }

    @Test func countsDaysBetweenDays() {
        let arrival = CalendarDay(iso: "2026-12-01")
        let departure = CalendarDay(iso: "2027-01-03")
        #expect(arrival.flatMap { a in departure.map { a.days(to: $0) } } == 33)
        #expect(CalendarDay(iso: "1970-01-01")?.daysSinceEpoch == 0)
        #expect(CalendarDay(iso: "2000-03-01")?.daysSinceEpoch == 11_017)
    }

    @Test func dayNumbersRoundTripForEveryDayOfFourHundredYears() {
        // The Gregorian cycle is 146,097 days; walking one whole cycle covers every leap rule.
        var previous: CalendarDay?
        for number in -20_000...(146_097 - 20_000) {
            guard let day = CalendarDay(daysSinceEpoch: number) else {
                Issue.record("no day for \(number)")
                return
            }
            #expect(day.daysSinceEpoch == number)
            if let previous, !(previous < day) {
                Issue.record("\(previous) is not before \(day)")
                return
            }
            previous = day
        }
    }

    @Test func unixSecondsGiveTheUTCDay() {
        #expect(CalendarDay(unixSeconds: 0)?.description == "1970-01-01")
        #expect(CalendarDay(unixSeconds: 86_399)?.description == "1970-01-01")
        #expect(CalendarDay(unixSeconds: -1)?.description == "1969-12-31")
        #expect(CalendarDay(unixSeconds: 1_795_305_600)?.description == "2026-11-22")
    }
}

/// Every month's last day is a day and the day after it is not, in a common and in a leap year.
@Suite struct MonthLengthTests {
    static let common = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    static func text(_ year: Int, _ month: Int, _ day: Int) -> String {
        let padded = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(padded(month))-\(padded(day))"
    }

    @Test(arguments: [2026, 2024, 2000, 2100])
    func everyMonthEndsOnItsLastDay(_ year: Int) {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        for (index, length) in Self.common.enumerated() {
            let month = index + 1
            let last = month == 2 && leap ? 29 : length
            #expect(CalendarDay(iso: Self.text(year, month, last))?.day == last, "\(Self.text(year, month, last))")
            #expect(CalendarDay(iso: Self.text(year, month, last + 1)) == nil, "\(Self.text(year, month, last + 1))")
        }
    }

    @Test(arguments: ["2026-04-31", "2026-06-31", "2026-09-31", "2026-11-31", "2024-06-31", "2024-09-31", "2024-11-31"])
    func theThirtyFirstOfAThirtyDayMonthIsRefused(_ text: String) {
        #expect(CalendarDay(iso: text) == nil)
    }

    @Test(arguments: ["2026-04-30", "2026-06-30", "2026-09-30", "2026-11-30"])
    func theThirtiethOfAThirtyDayMonthIsADay(_ text: String) {
        #expect(CalendarDay(iso: text)?.description == text)
    }

    @Test func theTwentyNinthOfFebruaryFollowsTheLeapRules() {
        #expect(CalendarDay(iso: "2024-02-29") != nil)  // divisible by 4
        #expect(CalendarDay(iso: "2000-02-29") != nil)  // divisible by 400
        #expect(CalendarDay(iso: "2026-02-29") == nil)  // not divisible by 4
        #expect(CalendarDay(iso: "2100-02-29") == nil)  // divisible by 100, not by 400
        #expect(CalendarDay(iso: "2024-02-30") == nil)
    }
}
