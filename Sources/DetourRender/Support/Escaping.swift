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
    /// sequence is ASCII, so this is the same as working on Unicode scalars. The bytes between
    /// two replacements are appended as one run: appended one by one, with the text read through
    /// its UTF-8 view, they took nearly a tenth of the time of a large trip's HTML report.
    public static func html(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    private static func htmlNeedsEscape(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }

    /// Text for GitHub-flavoured Markdown at the place `context` describes; without one, a
    /// place that may be anything (a line start, a table cell, a heading's end, next to unknown
    /// text), which escapes more but never too little.
    ///
    /// A character is escaped only where GFM would otherwise read it as markup: see
    /// ``MarkdownEscapeRules`` for each rule and its reason. Line breaks become spaces.
    public static func markdown(_ text: String, _ context: MarkdownContext = .conservative) -> String {
        var out: [UInt8] = []
        markdown(text, context, into: &out)
        return String(decoding: out, as: UTF8.self)
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

    /// ``markdown(_:_:)`` appended to `out` as UTF-8, without making a string.
    ///
    /// Text with nothing any rule looks at in `context` is appended as it is.
    public static func markdown(_ text: String, _ context: MarkdownContext = .conservative, into out: inout [UInt8]) {
        MarkdownEscapeRules.escape(text, context, into: &out)
    }
}
