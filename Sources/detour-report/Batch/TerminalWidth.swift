/// How many columns of a terminal text takes: 2 for a wide character (CJK ideographs, kana,
/// Hangul, fullwidth forms, emoji), 0 for a mark or a format character that joins the one before,
/// 1 for the rest.
///
/// Hand-written because Swift's Unicode properties give no East Asian Width and no allowed
/// dependency has `wcwidth`; the table holds the Unicode 15 ranges of East Asian Wide (W) and
/// Fullwidth (F) characters outside the emoji, which `isEmojiPresentation` covers. The progress
/// line needs this to stay on one line: a line wider than the terminal wraps and is no longer
/// redrawn in place.
enum TerminalWidth {
    /// The columns `text` takes.
    static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// The columns one character (a grapheme cluster) takes.
    static func columns(of character: Character) -> Int {
        if character.unicodeScalars.contains(where: \.properties.isEmojiPresentation) { return 2 }
        return character.unicodeScalars.reduce(0) { $0 + columns(of: $1) }
    }

    private static func columns(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let value = scalar.value
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (EastAsianWidth.txt), the emoji left to their property.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` cut from the left to at most `room` columns, `…` in front when cut.
    static func fitted(_ text: String, room: Int) -> String {
        guard columns(text) > room else { return text }
        var rest = Substring(text)
        while !rest.isEmpty, columns(rest) + 1 > room { rest = rest.dropFirst() }
        return "…" + rest
    }
}
