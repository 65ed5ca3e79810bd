/// Puts user text into messages without letting it control a terminal.
///
/// Trip files come from anywhere; a name holding an escape sequence must not recolour or retitle
/// the terminal that shows our error about it.
public enum Quoting {
    /// `items` as a sentence lists them: `A`, `A and B`, `A, B and C` (or `or`, as `conjunction`
    /// says).
    public static func series(_ items: [String], _ conjunction: String) -> String {
        guard items.count > 1 else { return items.joined() }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }

    /// `value` in double quotes, with control characters and quotes written as escapes, cut at
    /// `limit` scalars (user text; `nil` keeps it whole, as file names are).
    public static func quoted(_ value: String, limit: Int? = 80) -> String {
        // A name short enough and with nothing to escape, as most are, is quoted whole: rebuilt a
        // scalar at a time, the quoting was a third of the cost of a warning, and a large trip
        // has tens of thousands.
        var short = true
        if let limit { short = value.utf8.count <= limit }
        if short, !value.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || isUnprintable($0) }) {
            return "\"" + value + "\""
        }
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

    /// A code point as Unicode writes it: `U+0009`, `U+1F600`.
    public static func codePoint(_ value: UInt32) -> String {
        "U+" + hex4(value)
    }

    /// A number in capital hexadecimal, padded to at least four digits: `0009`, `D800`.
    public static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
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

    /// `count` and `noun`, plural unless the count is one: `1 session`, `0 sessions`.
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
