import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

@testable import DetourRender

/// The calendar export: RFC 5545's rules that calendar parsers do not check, and what the events say.
@Suite struct ICSExportTests {
    /// RFC 5545 §3.1 unfolding: every CRLF followed by one space or tab goes.
    static func unfold(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A,
                bytes[index + 2] == 0x20 || bytes[index + 2] == 0x09
            {
                index += 3
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }

    /// The physical lines of a calendar, split at CRLF, without it.
    static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
                continue
            }
            current.append(bytes[index])
            index += 1
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The logical lines (unfolded content lines) of a calendar.
    static func contentLines(_ text: String) -> [String] {
        physicalLines(unfold(Array(text.utf8))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// RFC 5545 §3.3.11: the text a TEXT value stands for.
    static func unescaped(_ value: String) -> String? {
        // Scalar by scalar: a backslash and a combining mark after it are one Character.
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "\\", ";", ",": out.append(scalar)
                case "n", "N": out.append("\n")
                default: return nil
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return escaping ? nil : String(out)
    }

    /// Random text from every width of UTF-8 sequence, with the characters TEXT escapes, line
    /// breaks and combining marks.
    static func randomText(_ random: inout SplitMix, maxLength: Int) -> String {
        let pools: [[Unicode.Scalar]] = [
            Array("abc XYZ 019".unicodeScalars), Array("\\;,:\"\n".unicodeScalars),
            Array("éßøÆ\u{0301}\u{0308}".unicodeScalars),  // two octets
            Array("€—中文ひらがな\u{FFFD}".unicodeScalars),  // three octets
            Array("😀🇵🇹𝄞🜲".unicodeScalars),  // four octets
        ]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &random) {
            let pool = pools[Int.random(in: 0..<pools.count, using: &random)]
            text.append(pool[Int.random(in: 0..<pool.count, using: &random)])
        }
        return String(text)
    }

    @Test func foldingThenUnfoldingGivesTheLineBack() {
        var random = SplitMix(seed: 12)
        for _ in 0..<2000 {
            let line = "DESCRIPTION:" + Self.randomText(&random, maxLength: 300)
            let folded = ContentLines.folded(line)
            #expect(folded.suffix(2) == [0x0D, 0x0A])
            #expect(Self.unfold(Array(folded.dropLast(2))) == Array(line.utf8), "\(line)")
        }
    }

    @Test func noFoldedLineIsLongerThan75OctetsOrSplitsAUTF8Sequence() {
        var random = SplitMix(seed: 5545)
        var longest = 0
        for _ in 0..<2000 {
            let folded = ContentLines.folded("SUMMARY:" + Self.randomText(&random, maxLength: 400))
            for (number, line) in Self.physicalLines(folded).enumerated() {
                longest = max(longest, line.count)
                #expect(line.count <= 75)
                // Each physical line alone decodes: no sequence was cut at a fold.
                #expect(String(validating: line, as: UTF8.self) != nil, "line \(number) cuts a UTF-8 sequence")
                #expect(number == 0 || line.first == 0x20)
            }
        }
        // The texts were long enough to fold, and folds fill lines.
        #expect(longest >= 72)
    }

    @Test func aLineOf75OctetsIsNotFoldedAndOneOf76Is() {
        let exact = String(repeating: "a", count: 75)
        #expect(ContentLines.folded(exact) == Array((exact + "\r\n").utf8))
        #expect(ContentLines.folded(exact + "b") == Array((exact + "\r\n b\r\n").utf8))
        // A three-octet character that would end at octet 76 moves whole to the next line.
        let euro = String(repeating: "a", count: 73) + "€"
        #expect(ContentLines.folded(euro) == Array((String(repeating: "a", count: 73) + "\r\n €\r\n").utf8))
    }

    @Test(arguments: [
        ("plain", "plain"), ("a;b", "a\\;b"), ("a,b", "a\\,b"), ("back\\slash", "back\\\\slash"),
        ("two\nlines", "two\\nlines"), ("crlf\r\nend", "crlf\\nend"), ("cr\rend", "cr\\nend"),
        ("tab\tkept", "tab\tkept"), ("colon: as is", "colon: as is"), ("bell\u{07}", "bell\u{FFFD}"),
    ])
    func textValuesAreEscaped(_ text: String, _ escaped: String) {
        #expect(ContentLines.escaped(text) == escaped)
    }

    @Test func escapingThenUnescapingGivesTheTextBack() {
        var random = SplitMix(seed: 11)
        for _ in 0..<2000 {
            let text = Self.randomText(&random, maxLength: 80)
            #expect(Self.unescaped(ContentLines.escaped(text)) == text)
        }
    }

    /// RFC 5545's rules on every sample's calendar: CRLF line ends and nothing else, folded lines
    /// of at most 75 octets that each decode alone, and TEXT values escaped.
    @Test(arguments: Fixtures.sampleTrips())
    func everySampleCalendarFollowsTheLineAndTextRules(_ sample: String) throws {
        let text = try RenderFixture.export(Fixtures.sample(sample), as: .ics)
        let bytes = Array(text.utf8)
        #expect(bytes.suffix(2) == [0x0D, 0x0A])
        let lines = Self.physicalLines(bytes)
        for line in lines {
            #expect(line.count <= 75)
            #expect(!line.contains(0x0D) && !line.contains(0x0A), "a bare CR or LF")
            #expect(String(validating: line, as: UTF8.self) != nil)
        }
        let content = Self.contentLines(text)
        #expect(content.first == "BEGIN:VCALENDAR")
        #expect(content.last == "END:VCALENDAR")
        #expect(content.contains("PRODID:-//detour-report//detour-report \(ProgramVersion.number)//EN"))
        for line in content {
            let name = line.prefix { $0 != ":" && $0 != ";" }
            guard ["SUMMARY", "DESCRIPTION", "LOCATION", "X-WR-CALNAME"].contains(String(name)) else { continue }
            let value = String(line.drop { $0 != ":" }.dropFirst())
            #expect(Self.unescaped(value) != nil, "\(line)")
            // An unescaped `;` or `,` would split the value into several.
            let bare = value.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\;", with: "")
                .replacingOccurrences(of: "\\,", with: "")
            #expect(!bare.contains(";") && !bare.contains(","), "\(line)")
        }
    }

    /// The Fiji sample's names hold `,`, `;`, `&`, `°` and `—`, and its descriptions run long.
    @Test func theFijiCalendarEscapesAndFoldsItsNames() throws {
        let text = try RenderFixture.export(Fixtures.sample("fiji-date-line.json"), as: .ics)
        let content = Self.contentLines(text)
        #expect(content.contains("SUMMARY:Savusavu\\, Vanua Levu"))
        #expect(content.contains("SUMMARY:Hot springs\\, copra sheds & harbour"))
        #expect(content.contains("LOCATION:Hot springs\\, copra sheds & harbour"))
        #expect(text.contains("\r\n "), "nothing was folded")
    }

    static func events(_ text: String) -> [[String: String]] {
        var events: [[String: String]] = []
        var current: [String: String]?
        for line in contentLines(text) {
            if line == "BEGIN:VEVENT" {
                current = [:]
            } else if line == "END:VEVENT", let event = current {
                events.append(event)
                current = nil
            } else if current != nil, let colon = line.firstIndex(of: ":") {
                current?[String(line[..<colon])] = String(line[line.index(after: colon)...])
            }
        }
        return events
    }

    @Test func aStayRunsFromArrivalToTheDayAfterDeparture() throws {
        let text = try RenderFixture.export(Fixtures.sample("lisbon-city-break.json"), as: .ics)
        let stay = try #require(Self.events(text).first { $0["UID"]?.hasPrefix("stay-") == true })
        #expect(stay["DTSTART;VALUE=DATE"] == "20261201")
        #expect(stay["DTEND;VALUE=DATE"] == "20261206")
        #expect(stay["SUMMARY"] == "Lisbon")
        #expect(stay["GEO"] == "38.7223;-9.1393")
        #expect(stay["DESCRIPTION"]?.contains("Ride Tram 28 or Walk the Alfama: Ride Tram 28") == true)
    }

    /// The last stay a trip may have ends its event on 9999-12-31, the last day there is, and
    /// so does a side on its last day.
    @Test func aStayOnTheLastDaysEndsOnTheLastDay() throws {
        let trip = """
            {"title": "T", "destinations": [{"name": "End", "location": {"lat": 0, "lon": 0},
              "arrival": "9999-12-29", "departure": "9999-12-30", "detours": [{"tasks": [
               {"name": "A", "duration": "1h", "cost": {"amount": 0, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}},
               {"name": "B", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"}, "location": {"lat": 0, "lon": 0}}]}]}]}
            """
        let events = Self.events(try RenderFixture.export(Array(trip.utf8), as: .ics))
        #expect(events.map { $0["DTEND;VALUE=DATE"] } == ["99991231", "99991230"])
    }

    @Test func aSideLongerThanADaySpansItsDays() throws {
        let text = try RenderFixture.export(Fixtures.sample("fiji-date-line.json"), as: .ics)
        let ferry = try #require(
            Self.events(text).first { $0["SUMMARY"]?.hasPrefix("Ferry to the 180° meridian") == true })
        #expect(ferry["DTSTART;VALUE=DATE"] == "20270310")
        #expect(ferry["DTEND;VALUE=DATE"] == "20270312")
        #expect(ferry["GEO"] == "-16.7889;-179.989")
        #expect(
            ferry["DESCRIPTION"]
                == "Detour: Ferry to the 180° meridian on Taveuni or Liveaboard dive on the Rainbow Reef\\nDuration: 6 h\\n"
                + "Cost: 85.50 FJD\\nTravel: transit\\, 7 h 16 min there and back\\nStay: Savusavu\\, Vanua Levu"
        )
    }

    /// One event per stay and one per side the schedule places; none for an unscheduled or
    /// undecided side.
    @Test(arguments: Fixtures.sampleTrips())
    func thereIsAnEventPerStayAndPerScheduledSide(_ sample: String) throws {
        let (plan, _) = try RenderFixture.plan(Fixtures.sample(sample))
        let destinations = plan.sections.flatMap(\.destinations)
        let scheduled = destinations.flatMap(\.schedule).flatMap(\.items).count
        let events = Self.events(String(decoding: ICSExport.bytes(plan: plan), as: UTF8.self))
        #expect(events.count == destinations.count + scheduled)
        #expect(events.filter { $0["UID"]?.hasPrefix("stay-") == true }.count == destinations.count)
        #expect(Set(events.compactMap { $0["UID"] }).count == events.count, "UIDs repeat")
    }

    /// A UID names the event, not the export: another day's plan (another DTSTAMP) keeps them.
    @Test(arguments: Fixtures.sampleTrips())
    func uidsAreTheSameOnAnotherDayAndTheStampIsThePlansDay(_ sample: String) throws {
        let later = try #require(CalendarDay(iso: "2027-06-30"))
        let first = try RenderFixture.export(Fixtures.sample(sample), as: .ics)
        let second = try RenderFixture.export(Fixtures.sample(sample), as: .ics, today: later)
        #expect(Self.events(first).map { $0["UID"] } == Self.events(second).map { $0["UID"] })
        #expect(Self.events(first).allSatisfy { $0["DTSTAMP"] == "20261122T000000Z" })
        #expect(Self.events(second).allSatisfy { $0["DTSTAMP"] == "20270630T000000Z" })
    }

    @Test func anotherTripTitleGivesOtherUIDs() throws {
        let lisbon = try String(
            contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"), encoding: .utf8)
        let renamed = lisbon.replacingOccurrences(of: "\"Lisbon in December\"", with: "\"Lisbon again\"")
        let first = Self.events(try RenderFixture.export(Array(lisbon.utf8), as: .ics)).compactMap { $0["UID"] }
        let second = Self.events(try RenderFixture.export(Array(renamed.utf8), as: .ics)).compactMap { $0["UID"] }
        #expect(!first.isEmpty && Set(first).isDisjoint(with: second))
    }
}
