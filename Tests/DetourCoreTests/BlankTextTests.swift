import Testing

@testable import DetourCore

@Suite struct BlankTextTests {
    /// White space and invisible characters outside ASCII, alone and in runs.
    static let invisibleOnly: [String] = [
        "\u{00A0}", "\u{3000}", "\u{2000}", "\u{200A}", "\u{200B}", "\u{FEFF}", "\u{2060}",
        "\u{180E}", "\u{1680}", "\u{205F}", "\u{202F}", "\u{200C}", "\u{200D}", "\u{034F}",
        "\u{00AD}", "\u{3164}", "\u{115F}", "\u{FE0F}", "\u{E0020}",
        " \u{00A0} ", "\u{200B}\u{200B}", "\u{3000}\t\u{00A0}", "\u{FEFF}\n\u{2060}",
    ]

    @Test(arguments: invisibleOnly)
    func textOfWhiteSpaceAndInvisibleCharactersOnlyIsBlank(_ text: String) {
        #expect(throws: TextRules.Problem.blank) { try TextRules.singleLine(text) }
        #expect(throws: TextRules.Problem.blank) { try TextRules.multiLine(text) }
    }

    @Test(arguments: invisibleOnly)
    func theFastPathNeverAcceptsBlankText(_ text: String) {
        #expect(!TextRules.isPlainLine(text))
    }

    @Test(arguments: [
        ("\u{00A0}Lisboa\u{00A0}", "\u{00A0}Lisboa\u{00A0}"), ("a\u{3000}b", "a\u{3000}b"),
        ("\u{200B}x", "\u{200B}x"), (" \u{00A0}é ", "\u{00A0}é"),
    ])
    func visibleTextKeepsItsUnicodeSpacesAsWritten(_ text: String, _ expected: String) throws {
        #expect(try TextRules.singleLine(text) == expected)
        #expect(try TextRules.multiLine(text) == expected)
    }

    @Test(arguments: ["Lisbon", "Zürich", "東京", "\u{301}", "a b", "😀", "\u{00A0}x"])
    func plainVisibleTextTakesTheFastPath(_ text: String) {
        #expect(TextRules.isPlainLine(text))
    }
}
