import DetourCore
import Testing

@Suite struct TaskDurationTests {
    @Test(arguments: [
        ("PT1H30M", 90), ("P1DT2H", 1560), ("PT45M", 45), ("P1W", 10_080), ("PT90S", 0), ("PT120S", 2),
        ("1h30m", 90), ("90m", 90), ("2h", 120), ("1d 2h", 1560), ("1d2h30m", 1590), ("PT2H0M", 120),
    ])
    func readsBothForms(_ text: String, _ minutes: Int) {
        if minutes == 0 {
            #expect(throws: TaskDuration.ParseError.partialMinute) { try TaskDuration.parse(text) }
        } else {
            #expect((try? TaskDuration.parse(text))?.minutes == minutes)
        }
    }

    @Test(arguments: [
        ("PT", TaskDuration.ParseError.notADuration), ("P", .notADuration), ("P1DT", .notADuration),
        ("PT1M1H", .notADuration), ("1m1h", .notADuration), ("h", .notADuration), ("1.5h", .notADuration),
        ("PT1.5H", .notADuration), ("1 hour", .notADuration), ("", .notADuration), ("P1M", .calendarUnit),
        ("P1Y", .calendarUnit), ("-PT2H", .notPositive), ("PT0M", .notPositive), ("0m", .notPositive),
        ("P31D", .tooLong), ("PT30S", .partialMinute), ("P9999999999D", .notADuration),
    ])
    func refusesWhatIsNotAPositiveWholeMinuteDuration(_ text: String, _ error: TaskDuration.ParseError) {
        #expect(throws: error) { try TaskDuration.parse(text) }
    }

    @Test func writesBothFormsBackReadably() throws {
        let duration = try TaskDuration.parse("P1DT2H30M")
        #expect(duration.description == "1d 2h 30m")
        #expect(duration.iso8601 == "P1DT2H30M")
        #expect(try TaskDuration.parse(duration.description) == duration)
        #expect(try TaskDuration.parse(duration.iso8601) == duration)
    }

    @Test func everyDurationRoundTripsThroughBothForms() throws {
        for minutes in Array(1...3000) + [TaskDuration.maximumMinutes] {
            guard let duration = TaskDuration(minutes: minutes) else {
                Issue.record("\(minutes) minutes refused")
                continue
            }
            #expect(try TaskDuration.parse(duration.description) == duration)
            #expect(try TaskDuration.parse(duration.iso8601) == duration)
        }
    }
}
