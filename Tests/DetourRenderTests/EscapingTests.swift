import DetourTestSupport
import Foundation
import Testing

@testable import DetourRender

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

    @Test func markdownFoldsLineBreaksAndTrimsTheEdges() {
        #expect(Escaping.markdown("a\r\nb\rc\nd\u{2028}e\u{2029}f\tg", MarkdownContext()) == "a b c d e f g")
        #expect(Escaping.markdown("  \n Zürich \r\n", MarkdownContext()) == "Zürich")
        #expect(Escaping.markdown("Zürich Hauptbahnhof 12", .conservative) == "Zürich Hauptbahnhof 12")
    }

    /// Most text in a report (`Task 12-0-A`, `3 a.m. pickup`) has nothing a rule looks at where
    /// it stands, and is written without the scan; what a place makes matter sends it through.
    @Test func textWithNothingARuleLooksAtSkipsTheScan() {
        #expect(!MarkdownEscapeRules.needsWork("Task 12-0-A".utf8, MarkdownContext()))
        #expect(!MarkdownEscapeRules.needsWork("a | b".utf8, MarkdownContext()))
        #expect(MarkdownEscapeRules.needsWork("a | b".utf8, MarkdownContext(tableCell: true)))
        #expect(MarkdownEscapeRules.needsWork("- item".utf8, MarkdownContext(lineStart: true)))
        #expect(MarkdownEscapeRules.needsWork("C #".utf8, MarkdownContext(headingEnd: true)))
        #expect(MarkdownEscapeRules.needsWork("Task 12-0-A".utf8, .conservative))
        #expect(MarkdownEscapeRules.needsWork(" a".utf8, MarkdownContext()))
        #expect(!MarkdownEscapeRules.needsWork("".utf8, MarkdownContext()))
    }

    @Test func aPipeIsEscapedInATableCellOnly() {
        #expect(Escaping.markdown("Zürich | HB", MarkdownContext(tableCell: true)) == "Zürich \\| HB")
        #expect(Escaping.markdown("Zürich | HB", MarkdownContext()) == "Zürich | HB")
        #expect(Escaping.markdown("a\\|b", MarkdownContext(tableCell: true)) == "a\\\\\\|b")
    }

    @Test func anAmpersandIsEscapedOnlyBeforeACharacterReference() {
        #expect(Escaping.markdown("&amp; &lt; &#35; &#x23;", MarkdownContext()) == "\\&amp; \\&lt; \\&#35; \\&#x23;")
        #expect(Escaping.markdown("&foo; AT&T &#; &#x; &amp", MarkdownContext()) == "&foo; AT&T &#; &#x; &amp")
    }

    @Test func aLineStartEscapesOnlyWhatWouldBeginABlock() {
        let start = MarkdownContext(lineStart: true)
        #expect(Escaping.markdown("# Lisbon", start) == "\\# Lisbon")
        #expect(Escaping.markdown("###### x", start) == "\\###### x")
        #expect(Escaping.markdown("####### x", start) == "####### x")
        #expect(Escaping.markdown("#1 pick", start) == "#1 pick")
        #expect(Escaping.markdown("1. Lisbon", start) == "1\\. Lisbon")
        #expect(Escaping.markdown("2) Porto", start) == "2\\) Porto")
        #expect(Escaping.markdown("1.5 km", start) == "1.5 km")
        #expect(Escaping.markdown("1234567890. x", start) == "1234567890. x")
        #expect(Escaping.markdown("> quote", start) == "\\> quote")
        #expect(Escaping.markdown("- item", start) == "\\- item")
        #expect(Escaping.markdown("-5 °C", start) == "-5 °C")
        #expect(Escaping.markdown("---", start) == "\\---")
        #expect(Escaping.markdown("[a]: b", start) == "\\[a]: b")
        // Inside a line nothing of this begins a block.
        for text in ["# Lisbon", "1. Lisbon", "2) Porto", "> quote", "- item", "---"] {
            #expect(Escaping.markdown(text, MarkdownContext()) == text)
        }
    }

    @Test func aHeadingEscapesATrailingRunOfHashesOnly() {
        let end = MarkdownContext(headingEnd: true)
        #expect(Escaping.markdown("Learn C #", end) == "Learn C \\#")
        #expect(Escaping.markdown("Learn C ##", end) == "Learn C \\##")
        #expect(Escaping.markdown("##", end) == "\\##")
        #expect(Escaping.markdown("Learn C#", end) == "Learn C#")
        #expect(Escaping.markdown("# of stops", end) == "# of stops")
        #expect(Escaping.markdown("Learn C #", MarkdownContext()) == "Learn C #")
    }

    @Test func aBackslashIsEscapedBeforePunctuationOnly() {
        let plain = MarkdownContext()
        #expect(Escaping.markdown(#"a\*b"#, plain) == #"a\\*b"#)
        #expect(Escaping.markdown(#"C:\Users\ana"#, plain) == #"C:\Users\ana"#)
        #expect(Escaping.markdown(#"a\"#, plain) == #"a\"#)
        // Last, before text the template does not show, it is escaped in case punctuation follows.
        #expect(Escaping.markdown(#"a\"#, MarkdownContext(openAfter: true)) == #"a\\"#)
        #expect(Escaping.markdown(#"a\"#, MarkdownContext(after: " · ")) == #"a\"#)
        #expect(Escaping.markdown(#"a\"#, MarkdownContext(after: ": ")) == #"a\\"#)
        #expect(Escaping.markdown(#"a\"#, MarkdownContext(after: "**")) == #"a\\"#)
    }

    @Test func emphasisIsEscapedOnlyWhereItWouldOpenAndClose() {
        let plain = MarkdownContext()
        #expect(Escaping.markdown("a * b", plain) == "a * b")
        #expect(Escaping.markdown("2*3 = 6", plain) == "2*3 = 6")
        #expect(Escaping.markdown("a*b*", plain) == "a*b\\*")
        #expect(Escaping.markdown("*note*", plain) == "*note\\*")
        #expect(Escaping.markdown("snake_case_name", plain) == "snake_case_name")
        #expect(Escaping.markdown("_note_", plain) == "_note\\_")
        #expect(Escaping.markdown("~~gone~~", plain) == "~~gone~\\~")
        #expect(Escaping.markdown("`code`", plain) == "\\`code`")
        #expect(Escaping.markdown("[x](y)", plain) == "\\[x](y)")
        #expect(Escaping.markdown("<b>bold</b>", plain) == "\\<b>bold\\</b>")
        #expect(Escaping.markdown("a < b > c", plain) == "a < b > c")
        // The template's own `**` around the value closes on a value's `**`.
        let pick = MarkdownContext(before: "**Chosen ", after: "**: the budget leaves no room for the pick.")
        #expect(Escaping.markdown("A**", pick) == "A\\*\\*")
        #expect(Escaping.markdown("A**", plain) == "A**")
    }

    @Test func aURLKeepsOneEscapeAndAnEmailAddressNone() {
        let plain = MarkdownContext()
        #expect(Escaping.markdown("www.example.org/a_b", plain) == "www\\.example.org/a_b")
        #expect(Escaping.markdown("see https://x.org/a?b=c", plain) == "see https\\://x.org/a?b=c")
        #expect(Escaping.markdown("ftp://x.org", plain) == "ftp\\://x.org")
        #expect(Escaping.markdown("ana@example.org", plain) == "ana@example.org")
        #expect(Escaping.markdown("mailto:ana@example.org", plain) == "mailto:ana@example.org")
        #expect(Escaping.markdown("a www b https: c", plain) == "a www b https: c")
    }

    /// Where the template is unknown, what could pair with its text is escaped: the template's own
    /// `**Pick ` before the value is out of sight.
    @Test func anUnknownTemplateEscapesWhatCouldPairWithItsText() {
        #expect(Escaping.markdown("1* x", .conservative) == "1\\* x")
        #expect(Escaping.markdown("a](b) [c", .conservative) == "a\\](b) \\[c")
        #expect(Escaping.markdown("(x) Wow!", .conservative) == "\\(x) Wow\\!")
        #expect(Escaping.markdown("===", .conservative) == "\\===")
        #expect(Escaping.markdown("--", .conservative) == "\\--")
        #expect(Escaping.markdown("AT&T: 2 < 3, ana@example.org", .conservative) == "AT&T: 2 \\< 3, ana@example.org")
        #expect(Escaping.markdown("--", MarkdownContext(lineStart: true)) == "--")
    }

    /// The context `--templates` gives (anything may stand around the value) escapes at least what
    /// the context of any place in the built-in templates does.
    @Test func theConservativeContextEscapesAtLeastWhatEverySpecificOneDoes() {
        var random = SplitMix(seed: 77)
        for _ in 0..<400 {
            let text = MarkdownEscapePropertyTests.randomText(&random)
            let conservative = Self.read(Escaping.markdown(text, .conservative))
            for place in MarkdownEscapePropertyTests.places {
                let specific = Self.read(Escaping.markdown(text, place.context))
                #expect(specific.text == conservative.text)
                #expect(
                    specific.escaped.isSubset(of: conservative.escaped),
                    "\(place.name): \(text.debugDescription) → \(Escaping.markdown(text, place.context).debugDescription), conservative \(Escaping.markdown(text, .conservative).debugDescription)"
                )
            }
        }
    }

    /// The text a reader sees in escaped Markdown and the offsets (in its UTF-8) of the characters
    /// that were escaped: a `\` before ASCII punctuation is an escape (CommonMark §2.4).
    static func read(_ escaped: String) -> (text: String, escaped: Set<Int>) {
        var text: [UInt8] = []
        var offsets: Set<Int> = []
        var bytes = escaped.utf8.makeIterator()
        var pending = bytes.next()
        while let byte = pending {
            pending = bytes.next()
            if byte == 0x5C, let next = pending, isASCIIPunctuation(next) {
                offsets.insert(text.count)
                text.append(next)
                pending = bytes.next()
            } else {
                text.append(byte)
            }
        }
        return (String(decoding: text, as: UTF8.self), offsets)
    }

    /// Expects two Markdown documents to read the same: the same text once escapes are read, and
    /// the same HTML from cmark-gfm where it is installed (always under CI).
    static func expectSameReading(
        _ markdown: String, _ other: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(read(markdown).text == read(other).text, sourceLocation: sourceLocation)
        if Tool.usable("cmark-gfm") {
            let html = try MarkdownCheck.gfm(markdown, unsafe: true)
            #expect(try html == MarkdownCheck.gfm(other, unsafe: true), sourceLocation: sourceLocation)
        }
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
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
        #expect(Formatting.distance(1_234_567) == "1,235 km")
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

    /// The escapers work on UTF-8 bytes and must give what the rules say for Unicode scalars.
    ///
    /// The rules are written here scalar by scalar, on text full of what they replace next to
    /// multi-byte text. The Markdown escaper only adds escapes: what a reader sees is the text with its line
    /// breaks folded and its edges trimmed, scalar by scalar.
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
            let markdown = Escaping.markdown(text)
            #expect(EscapingTests.read(markdown).text == Self.scalarFolded(text), "\(Array(text.unicodeScalars))")
            var bytes: [UInt8] = [0x78]
            Escaping.markdown(text, into: &bytes)
            #expect(bytes == [0x78] + Array(markdown.utf8))
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

    static func scalarFolded(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var lastWasCR = false
        for scalar in text.unicodeScalars {
            defer { lastWasCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where lastWasCR: continue
            case 0x0A, 0x0D, 0x2028, 0x2029, 0x09: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out).trimmingCharacters(in: CharacterSet(charactersIn: " "))
    }
}
