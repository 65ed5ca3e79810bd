/// Writes iCalendar content lines (RFC 5545 §3.1): `NAME;PARAM=VALUE:value`, each ended by CRLF
/// and folded so that no line is longer than 75 octets.
///
/// Written here rather than taken from a library: the only dependencies detour-report allows are
/// swift-argument-parser, swift-mustache and libxml2, none of which writes iCalendar, and the two
/// rules needed (TEXT escaping and folding) are a few lines each.
struct ContentLines {
    /// The most octets a line may hold, CRLF not counted (RFC 5545 §3.1).
    static let maximumOctets = 75

    /// The calendar so far, UTF-8, every line ended by CRLF.
    private(set) var bytes: [UInt8] = []

    /// A property whose value is written as is (a date, a number, a fixed keyword).
    mutating func property(_ name: String, _ value: String) {
        bytes += ContentLines.folded(name + ":" + value)
    }

    /// A property whose value is TEXT, escaped.
    mutating func text(_ name: String, _ value: String) {
        property(name, ContentLines.escaped(value))
    }

    /// `text` as an iCalendar TEXT value (RFC 5545 §3.3.11): `\`, `;` and `,` take a backslash,
    /// and a line break becomes `\n`.
    ///
    /// CRLF and a lone CR are one line break, as the trip's own text rules read them. Other
    /// control characters cannot be written in TEXT at all; a validated trip has none, and any
    /// that reach here become U+FFFD so that the calendar stays valid and the gap stays visible.
    static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\".unicodeScalars
            case ";": out += "\\;".unicodeScalars
            case ",": out += "\\,".unicodeScalars
            case "\r": out += "\\n".unicodeScalars
            case "\n": if !previousWasCR { out += "\\n".unicodeScalars }
            case "\t": out.append(scalar)
            default:
                out.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// `line` as UTF-8 ending in CRLF, folded (RFC 5545 §3.1): after every 75 octets a CRLF and one space, the space
    /// counting towards the next line's 75.
    ///
    /// A fold falls only between two Unicode scalars, never inside one's UTF-8 sequence.
    static func folded(_ line: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.utf8.count + 2)
        var lineOctets = 0
        for scalar in line.unicodeScalars {
            let width = UTF8.width(scalar)
            if lineOctets + width > maximumOctets {
                out += [0x0D, 0x0A, 0x20]
                lineOctets = 1
            }
            UTF8.encode(scalar) { out.append($0) }
            lineOctets += width
        }
        out += [0x0D, 0x0A]
        return out
    }
}
