/// The escapers that keep user text inert in each output format.
///
/// Each treats text as Unicode scalars, not `Character`s, so a quote followed by a combining mark
/// is still a quote. Templates never escape by hand: the HTML and Markdown templates declare a
/// content type (see ``ReportTemplates``) and the engine applies the matching escaper to every
/// `{{value}}`, exactly once.
public enum Escaping {
    /// Text for an HTML text node or a double-quoted attribute value.
    public static func html(_ text: String) -> String {
        escaped(text, when: htmlNeedsEscape) { html($0, into: &$1) }
    }

    /// ``html(_:)`` appended to `out` as UTF-8, without making a string.
    ///
    /// It works on bytes: every character it replaces is ASCII, and no byte of a longer UTF-8
    /// sequence is ASCII, so this is the same as working on Unicode scalars.
    public static func html(_ text: String, into out: inout [UInt8]) {
        guard text.utf8.contains(where: htmlNeedsEscape) else {
            out.append(contentsOf: text.utf8)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
    }

    private static func htmlNeedsEscape(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
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
        escaped(text, when: markdownNeedsEscape) { markdown($0, into: &$1) }
    }

    /// `text` through `escape`; the common case, a name or figure with nothing `needsEscape`
    /// finds, is `text` itself, with no copy.
    private static func escaped(
        _ text: String, when needsEscape: (UInt8) -> Bool, _ escape: (String, inout [UInt8]) -> Void
    ) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var out: [UInt8] = []
        escape(text, &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``markdown(_:)`` appended to `out` as UTF-8, without making a string.
    ///
    /// It works on bytes. Every character it changes is ASCII but the line and paragraph
    /// separators U+2028 and U+2029, which are the only scalars encoded as E2 80 A8 and E2 80 A9;
    /// no byte of a longer UTF-8 sequence is ASCII, and a CR is always a whole scalar, so this is
    /// the same as working on Unicode scalars.
    public static func markdown(_ text: String, into out: inout [UInt8]) {
        guard text.utf8.contains(where: markdownNeedsEscape) else {
            out.append(contentsOf: text.utf8)
            return
        }
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                defer { index += 1 }
                switch byte {
                case 0x0A where index > 0 && bytes[index - 1] == 0x0D:
                    continue
                case 0x0A, 0x0D, 0x09:
                    out.append(UInt8(ascii: " "))
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    out.append(UInt8(ascii: " "))
                    index += 2
                case 0x40:
                    out.append(contentsOf: "<!-- -->\\@".utf8)
                case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                default:
                    out.append(byte)
                }
            }
        }
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
