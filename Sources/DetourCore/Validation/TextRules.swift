/// The rules every piece of user text follows, whatever field it is in.
///
/// Control characters are refused (they can recolour a terminal or hide text in a report), and so
/// are U+FFFE and U+FFFF, which are not characters: XML cannot hold them, so a trip that had them
/// could not be written as GPX, nor read by other programs. Tab,
/// CR and LF are white space: a one-line field (a name, a title) folds each run of white space
/// into one space and trims the ends; a field where a line break can stand (pros, cons) keeps
/// line breaks as LF.
///
/// A text is blank when it has no visible character: white space (any Unicode `White_Space`, so
/// also U+00A0 and U+3000) and invisible characters (format characters such as U+200B and U+FEFF,
/// and default-ignorable ones such as U+034F and the Hangul fillers) alone are blank. Such
/// characters are kept as written in a text that is not blank.
public enum TextRules {
    /// Why a text was refused.
    public enum Problem: Error, Sendable, Equatable {
        /// A control character other than tab, CR and LF, with its code point.
        case controlCharacter(UInt32)
        /// U+FFFE or U+FFFF, which Unicode sets aside as not characters and XML refuses.
        case noncharacter(UInt32)
        /// Nothing but white space and invisible characters.
        case blank
    }

    /// A one-line text: white space folded to single spaces, ends trimmed, not blank.
    public static func singleLine(_ text: String) throws(Problem) -> String {
        if isPlainLine(text) { return text }
        try check(text)
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isFoldable(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out += " " }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        guard hasVisible(out) else { throw .blank }
        return out
    }

    /// A text that may hold line breaks: CRLF and CR become LF, ends trimmed, not blank.
    public static func multiLine(_ text: String) throws(Problem) -> String {
        if isPlainLine(text) { return text }
        try check(text)
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                previousWasCR = true
                continue
            }
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = false
            out.append(scalar)
        }
        let trimmed = String(out).trimmingWhiteSpace()
        guard hasVisible(trimmed) else { throw .blank }
        return trimmed
    }

    /// `text` as a one-line label for messages: folded like a name, and kept as it is if it is
    /// not a valid name (the message about that comes from elsewhere).
    public static func foldedForLabel(_ text: String) -> String {
        (try? singleLine(text)) ?? text
    }

    /// The message for a problem, naming what kind of text it was.
    public static func message(_ problem: Problem, what: String) -> String {
        switch problem {
        case .blank:
            return "\(what) must not be blank"
        case .controlCharacter(let value):
            return "\(what) contains the control character \(Quoting.codePoint(value)), which is not allowed"
        case .noncharacter(let value):
            return "\(what) contains \(Quoting.codePoint(value)), which is not a character (XML and GPX cannot hold it)"
        }
    }

    /// Whether `text` is already a clean one-line text: no control or separator characters, no space at either end or
    /// twice in a row, not blank.
    ///
    /// Most text is, and is then kept as it is.
    static func isPlainLine(_ text: String) -> Bool {
        // Works on UTF-8 bytes: C1 controls are C2 80...C2 9F, U+2028 and U+2029 are E2 80 A8/A9.
        var previous: UInt8 = 0x20  // a leading space counts as a double space
        var beforePrevious: UInt8 = 0
        var sawVisibleASCII = false
        for byte in text.utf8 {
            switch byte {
            case 0x21...0x7E: sawVisibleASCII = true
            case 0x00...0x1F, 0x7F: return false
            case 0x20 where previous == 0x20: return false
            case 0x80...0x9F where previous == 0xC2: return false
            case 0xA8...0xA9 where previous == 0x80 && beforePrevious == 0xE2: return false
            // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
            case 0xBE...0xBF where previous == 0xBF && beforePrevious == 0xEF: return false
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        // One ASCII letter settles it; only text without one needs its scalars looked at.
        return previous != 0x20 && (sawVisibleASCII || hasVisible(text))
    }

    /// Whether `text` has a character that is neither white space nor invisible.
    static func hasVisible(_ text: String) -> Bool {
        text.unicodeScalars.contains { !isInvisible($0) }
    }

    /// Unicode white space, format characters (Cf) and default-ignorable code points.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isWhitespace || properties.isDefaultIgnorableCodePoint
            || properties.generalCategory == .format
    }

    /// Refuses control characters other than tab, CR and LF, and U+FFFE and U+FFFF, in any text,
    /// without folding it: what a traveller's email address or any other text passes first.
    public static func check(_ text: String) throws(Problem) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: continue
            case 0x00...0x1F, 0x7F...0x9F: throw .controlCharacter(scalar.value)
            case 0xFFFE, 0xFFFF: throw .noncharacter(scalar.value)
            default: continue
            }
        }
    }

    /// Tab, CR, LF, space, and the Unicode line and paragraph separators.
    static func isFoldable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\r", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }
}

extension String {
    /// The string without foldable white space at either end.
    func trimmingWhiteSpace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !TextRules.isFoldable($0) }),
            let end = scalars.lastIndex(where: { !TextRules.isFoldable($0) })
        else { return "" }
        return String(scalars[start...end])
    }
}
