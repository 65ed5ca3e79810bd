import DetourRender
import Testing

@Suite struct EscapingTests {
    @Test func htmlEscapesTheFiveSpecialCharacters() {
        #expect(Escaping.html(#"<a href="x">Tom & 'Jerry'</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(Escaping.html("&lt;already&gt;") == "&amp;lt;already&amp;gt;")
    }

    @Test func htmlEscapesAQuoteEvenWithACombiningMarkAfterIt() {
        // `"` + U+0301 is one Character; escaping by Character would miss the quote.
        #expect(Escaping.html("a\"\u{301}b") == "a&quot;\u{301}b")
        #expect(Escaping.html("<\u{338}") == "&lt;\u{338}")
    }

    @Test func markdownEscapesEveryASCIIPunctuationAndFoldsLineBreaks() {
        #expect(Escaping.markdown("Zürich | HB") == "Zürich \\| HB")
        #expect(Escaping.markdown("# [x](y) <b> `c` *e* _f_ \\") == "\\# \\[x\\]\\(y\\) \\<b\\> \\`c\\` \\*e\\* \\_f\\_ \\\\")
        #expect(Escaping.markdown("a\r\nb\rc\nd\u{2028}e") == "a b c d e")
        #expect(Escaping.markdown("&lt;") == "\\&lt\\;")
    }

    @Test func markdownEscapingLeavesNoUnescapedPipe() {
        let hostile = ["|", "\\|", "||", "a\\", "`|`", "| --- |", "\\\\|"]
        for text in hostile {
            let escaped = Array(Escaping.markdown(text).unicodeScalars)
            for (index, scalar) in escaped.enumerated() where scalar == "|" {
                // Count the backslashes right before the pipe: an odd number escapes it.
                var slashes = 0
                var back = index - 1
                while back >= 0, escaped[back] == "\\" {
                    slashes += 1
                    back -= 1
                }
                #expect(slashes % 2 == 1, "unescaped | in \(String(String.UnicodeScalarView(escaped)))")
            }
        }
    }
}

@Suite struct FormattingTests {
    @Test func distancesReadNaturally() {
        #expect(Formatting.distance(0) == "0 m")
        #expect(Formatting.distance(849.6) == "850 m")
        #expect(Formatting.distance(999.4) == "999 m")
        #expect(Formatting.distance(999.6) == "1.0 km")
        #expect(Formatting.distance(12_345) == "12.3 km")
        #expect(Formatting.distance(99_960) == "100 km")
        #expect(Formatting.distance(1_234_567) == "1235 km")
    }

    @Test func fixedPointIsLocaleFreeAndRoundsHalfAway() {
        #expect(Formatting.fixed(2.25, digits: 1) == "2.3")
        #expect(Formatting.fixed(-2.25, digits: 1) == "-2.3")
        #expect(Formatting.fixed(-0.04, digits: 1) == "0.0")
        #expect(Formatting.fixed(10, digits: 0) == "10")
        #expect(Formatting.fixed(0.05, digits: 2) == "0.05")
    }

    @Test func daysCarryTheirWeekday() {
        func day(_ text: String) -> String { CalendarDayFixture.day(text).map(Formatting.day) ?? "?" }
        #expect(day("2026-12-01") == "Tue 1 Dec 2026")
        #expect(day("1970-01-01") == "Thu 1 Jan 1970")
        #expect(day("1969-12-31") == "Wed 31 Dec 1969")
        #expect(day("2024-02-29") == "Thu 29 Feb 2024")
    }

    @Test func coordinatesNameTheirHemisphere() throws {
        let point = try #require(CoordinateFixture.point(38.7223, -9.1393))
        #expect(Formatting.coordinate(point) == "38.7223° N, 9.1393° W")
    }
}
