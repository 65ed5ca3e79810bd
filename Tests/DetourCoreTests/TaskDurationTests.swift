import DetourCore
import Testing

@Suite struct TaskDurationTests {
    @Test(arguments: [
        ("PT1H30M", 90), ("P1DT2H", 1560), ("PT45M", 45), ("P1W", 10_080), ("PT90S", 0), ("PT120S", 2),
        ("1h30m", 90), ("90m", 90), ("2h", 120), ("1d 2h", 1560), ("1d2h30m", 1590), ("PT2H0M", 120),
        // ISO 8601's decimal fraction on the smallest unit given, after `.` or `,`.
        ("PT1.5H", 90), ("PT1,5H", 90), ("PT1.25H", 75), ("P0.5D", 720), ("P1.5W", 15_120), ("PT2H1.5M", 0),
        ("PT90.0S", 0), ("PT120.000S", 2), ("P1DT0.5H", 1470), ("PT0.5M", 0), ("PT1.333H", 0),
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
        ("PT1.5H30M", .notADuration), ("PT1.H", .notADuration), ("PT.5H", .notADuration), ("PT1.5", .notADuration),
        ("PT1.0000000001H", .notADuration), ("P0.5M", .calendarUnit), ("PT0.0H", .notPositive),
        ("1 hour", .notADuration), ("", .notADuration), ("P1M", .calendarUnit),
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

/// Both duration grammars, every arrangement of their parts against a reference written from
/// the grammar itself: parts in order, each at most once, time parts after `T`.
@Suite struct DurationGrammarTests {
    /// Every sequence of up to `length` tokens drawn from `tokens`.
    static func sequences(_ tokens: [String], upTo length: Int) -> [[String]] {
        var all: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 0..<length {
            frontier = frontier.flatMap { prefix in tokens.map { prefix + [$0] } }
            all += frontier
        }
        return all
    }

    @Test func everyArrangementOfISOPartsIsJudgedByTheGrammar() throws {
        let reference = try Regex("^P(?:([0-9]+)W)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?$")
        let scale = [7 * 86_400, 86_400, 3600, 60, 1]
        var accepted = 0
        for parts in Self.sequences(["2W", "3D", "T", "4H", "5M", "60S", "1Y"], upTo: 5) {
            let text = "P" + parts.joined()
            var expected: Int?
            if let match = try reference.wholeMatch(in: text), text != "P", !text.hasSuffix("T") {
                var seconds = 0
                for (index, unit) in scale.enumerated() {
                    if let range = match.output[index + 1].range { seconds += (Int(text[range]) ?? 0) * unit }
                }
                expected = seconds / 60
            }
            let parsed = try? TaskDuration.parse(text)
            #expect(parsed?.minutes == expected, "\(text)")
            if expected != nil { accepted += 1 }
        }
        // Of the 31 valid arrangements, all but the one of six tokens (every part at once).
        #expect(accepted == 30)
    }

    @Test func everyArrangementOfShortPartsIsJudgedByTheGrammar() throws {
        let reference = try Regex("^ *(?:([0-9]+)d)? *(?:([0-9]+)h)? *(?:([0-9]+)m)? *$")
        let scale = [1440, 60, 1]
        var accepted = 0
        for parts in Self.sequences(["1d", "2h", "3m", " ", "4s"], upTo: 4) {
            let text = parts.joined()
            var expected: Int?
            if let match = try reference.wholeMatch(in: text), text.contains(where: \.isLetter) {
                var minutes = 0
                for (index, unit) in scale.enumerated() {
                    if let range = match.output[index + 1].range { minutes += (Int(text[range]) ?? 0) * unit }
                }
                expected = minutes
            }
            let parsed = try? TaskDuration.parse(text)
            #expect(parsed?.minutes == expected, "\(text.debugDescription)")
            if expected != nil { accepted += 1 }
        }
        #expect(accepted > 20)
    }
}

/// The short form a refused duration was probably meant as.
@Suite struct LikelyDurationTests {
    @Test(arguments: [
        ("1h30", "1h30m"), ("90 min", "90m"), ("90", "90m"), ("2 hours", "2h"), ("1 Hour 15", "1h15m"),
        ("3 days", "3d"), ("45mins", "45m"),
    ])
    func meant(_ text: String, _ expected: String) {
        #expect(TaskDuration.likelyMeant(text) == expected)
    }

    @Test(arguments: ["soon", "1h30m", "0", "99999", "P1M", ""])
    func nothingMeant(_ text: String) {
        #expect(TaskDuration.likelyMeant(text) == nil)
    }

    @Test func decimalCommas() {
        #expect(NumberText.withDecimalPoint("12,50") == "12.50")
        #expect(NumberText.withDecimalPoint(" 0,5 ") == "0.5")
        #expect(NumberText.withDecimalPoint("1,250.00") == nil)
        #expect(NumberText.withDecimalPoint("1,2,3") == nil)
        #expect(NumberText.withDecimalPoint("12.50") == nil)
        #expect(NumberText.withDecimalPoint("a,b") == nil)
    }
}
