/// The escapers that keep user text inert in each output format.
///
/// Each works over Unicode scalars, not `Character`s, so a quote followed by a combining mark is
/// still a quote. Templates never escape by hand: the HTML and Markdown templates declare a
/// content type (see ``ReportTemplates``) and the engine applies the matching escaper to every
/// `{{value}}`, exactly once.
public enum Escaping {
    /// Text for an HTML text node or a double-quoted attribute value.
    public static func html(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
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

    /// Text for GitHub-flavoured Markdown, inline or in a table cell.
    ///
    /// Every ASCII punctuation character is backslash-escaped (CommonMark allows that for all of
    /// them), so no text can open a heading, list, quote, link, code span, raw HTML or table
    /// column, and GFM's autolink extension sees no `www.` or `scheme:` (it looks for those in the
    /// source, where the escapes are). Line breaks become spaces.
    ///
    /// GFM finds email addresses later, in the text after escapes and entities are resolved, so
    /// no escape hides `a@b.co`; only another node between its parts does. Each `@` is therefore
    /// preceded by an empty HTML comment, `<!-- -->`, which GFM keeps (or replaces with another
    /// comment) and nobody sees: the text reads the same and is never a link.
    public static func markdown(_ text: String) -> String {
        // The common case, a name or figure with no punctuation or line break, needs no copy.
        guard text.utf8.contains(where: markdownNeedsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var lastWasCR = false
        for scalar in text.unicodeScalars {
            defer { lastWasCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where lastWasCR:
                continue
            case 0x0A, 0x0D, 0x2028, 0x2029:
                out += " "
            case 0x09:
                out += " "
            case 0x40:
                out += "<!-- -->\\@"
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether a UTF-8 byte may need the slow path: ASCII punctuation, tab, CR, LF, or the first
    /// byte of U+2028 and U+2029 (and of every other scalar from U+2000 to U+2FFF, which is rare).
    private static func markdownNeedsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0D, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0xE2: return true
        default: return false
        }
    }
}
