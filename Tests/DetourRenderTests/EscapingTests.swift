import DetourRender
import Testing

@Suite struct EscapingTests {
    @Test func htmlEscapesTheFiveSpecialCharacters() {
        #expect(
            Escaping.html(#"<a href="x">Tom & 'Jerry'</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(Escaping.html("&lt;already&gt;") == "&amp;lt;already&amp;gt;")
    }

    @Test func htmlEscapesAQuoteEvenWithACombiningMarkAfterIt() {
        // `"` + U+0301 is one Character; escaping by Character would miss the quote.
        #expect(Escaping.html("a\"\u{301}b") == "a&quot;\u{301}b")
        #expect(Escaping.html("<\u{338}") == "&lt;\u{338}")
    }

    @Test func markdownEscapesEveryASCIIPunctuationAndFoldsLineBreaks() {
        #expect(Escaping.markdown("Zürich | HB") == "Zürich \\| HB")
        #expect(
            Escaping.markdown("# [x](y) <b> `c` *e* _f_ \\")
                == "\\# \\[x\\]\\(y\\) \\<b\\> \\`c\\` \\*e\\* \\_f\\_ \\\\")
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

    /// The escapers work on UTF-8 bytes; they must give what the rules say for Unicode scalars,
    /// written here scalar by scalar, on text full of what they replace next to multi-byte text.
    @Test func escapingBytesGivesWhatTheScalarRulesGive() {
        let pieces: [String] = [
            "a", "Z", "0", " ", "\t", "\r", "\n", "\r\n", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "@", "&", "<",
            ">",
            "\"", "'", "\\", "-", "_", "*", "#", "|", "[", "]", "`", "~", "é", "e\u{301}", "中", "😀", "\u{E2}", "\u{80}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            #expect(Escaping.html(text) == Self.scalarHTML(text), "\(Array(text.unicodeScalars))")
            #expect(Escaping.markdown(text) == Self.scalarMarkdown(text), "\(Array(text.unicodeScalars))")
            var bytes: [UInt8] = [0x78]
            Escaping.markdown(text, into: &bytes)
            #expect(bytes == [0x78] + Array(Self.scalarMarkdown(text).utf8))
        }
    }

    static func scalarHTML(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func scalarMarkdown(_ text: String) -> String {
        var out = ""
        var lastWasCR = false
        for scalar in text.unicodeScalars {
            defer { lastWasCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where lastWasCR: continue
            case 0x0A, 0x0D, 0x2028, 0x2029, 0x09: out += " "
            case 0x40: out += "<!-- -->\\@"
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
                out += "\\"
                out.unicodeScalars.append(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
