import DetourCore
import Foundation
import Testing

@Suite struct DayHoursTests {
    /// The text is worked out in whole numbers where it can be; `Decimal` division is the
    /// reference it must match for every possible day.
    @Test func hoursTextIsTheDecimalQuotientForEveryDay() throws {
        for minutes in 1...(24 * 60) {
            let day = try #require(DayHours(minutes: minutes))
            #expect(day.hoursText == (Decimal(minutes) / 60).description, "\(minutes) minutes")
        }
    }

    @Test(arguments: [(600, "10"), (450, "7.5"), (603, "10.05"), (15, "0.25"), (1440, "24"), (66, "1.1")])
    func daysReadAsTripFilesWriteThem(_ minutes: Int, _ text: String) throws {
        let day = try #require(DayHours(minutes: minutes))
        #expect(day.hoursText == text)
        #expect(try DayHours.parse(text) == day)
    }
}
