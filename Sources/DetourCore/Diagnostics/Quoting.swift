/// Puts user text into messages without letting it control a terminal.
///
/// Trip files come from anywhere; a name holding an escape sequence must not recolour or retitle
/// the terminal that shows our error about it.
public enum Quoting {
    /// `value` in double quotes, with control characters and quotes written as escapes.
    public static func quoted(_ value: String, limit: Int = 80) -> String {
        var out = "\""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out += escapedIfControl(scalar)
            }
        }
        return out + "\""
    }

    /// `text` with every C0, DEL and C1 control character (and bidi controls) written as `\u{…}`.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { out += escapedIfControl(scalar) }
        return out
    }

    /// Whether a scalar is a control character or a bidirectional formatting character.
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escapedIfControl(_ scalar: Unicode.Scalar) -> String {
        guard isUnprintable(scalar) else { return String(scalar) }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{\(hex)}"
    }
}
