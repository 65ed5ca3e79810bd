/// Where a `{{value}}` stands in a Markdown template: what the escaper must know to escape a
/// character only where GitHub-flavoured Markdown would otherwise read it as markup.
///
/// The template compiler knows the template text around each tag and writes one of these for each
/// `{{value}}`; a template given with `--templates` renders through the template engine, which only
/// hands over the text, so it gets ``conservative``, which may escape more but never less.
public struct MarkdownContext: Sendable, Equatable {
    /// The value may start a block's first line (a list item's text, a paragraph's line): `#`, `>`,
    /// `-`, `+`, `*`, `1.`, `1)`, fences and `[label]:` would begin a block there.
    public var lineStart: Bool
    /// The value is in a GFM table cell, where an unescaped `|` ends the cell.
    public var tableCell: Bool
    /// The value may end an ATX heading's line, where a run of `#` after a space is a closing sequence.
    public var headingEnd: Bool
    /// The template text between the start of the inline content (a paragraph, heading or cell)
    /// and the value, as far as the compiler knows it.
    public var before: String
    /// The template text after the value up to the end of the inline content, as far as known.
    public var after: String
    /// Something the compiler cannot see (a section, another value) may stand before `before`.
    public var openBefore: Bool
    /// Something the compiler cannot see may follow `after` in the same inline content.
    public var openAfter: Bool
    /// No template text around the value is known (a `--templates` folder): the text before it
    /// may hold an open emphasis, a `[` or a backtick run, and a paragraph's line may stand above it.
    public var unknownTemplate: Bool

    public init(
        lineStart: Bool = false, tableCell: Bool = false, headingEnd: Bool = false, before: String = "",
        after: String = "", openBefore: Bool = false, openAfter: Bool = false, unknownTemplate: Bool = false
    ) {
        self.lineStart = lineStart
        self.tableCell = tableCell
        self.headingEnd = headingEnd
        self.before = before
        self.after = after
        self.openBefore = openBefore
        self.openAfter = openAfter
        self.unknownTemplate = unknownTemplate
    }

    /// Anything may stand around the value: a line start, a table cell, a heading's end, a
    /// paragraph's line above, template text on both sides that may pair with the value's.
    public static let conservative = MarkdownContext(
        lineStart: true, tableCell: true, headingEnd: true, openBefore: true, openAfter: true, unknownTemplate: true)
}

/// The rules that make user text read as itself under GitHub-flavoured Markdown (cmark-gfm with
/// the table, autolink and strikethrough extensions) while escaping as little as possible.
///
/// A backslash before ASCII punctuation makes that character literal (CommonMark §2.4), so any
/// text could be escaped everywhere; that is safe but reads badly (`17th\-century`). Here a
/// character is escaped only where, in the value's ``MarkdownContext``, leaving it would make
/// markup. Every escape is a `\` written before an ASCII punctuation character. Line breaks, tabs
/// and U+2028/U+2029 become spaces and the value's leading and trailing spaces are dropped (a
/// paragraph, heading or cell drops them anyway, and next to a template's `**` a trailing space
/// would stop it closing).
///
/// Rules that need only a character's neighbours:
/// - `\` is escaped when the character after it (the value's, or the template's when it is last)
///   is ASCII punctuation: only there is a backslash an escape (§2.4). A trailing `\` before an
///   unknown continuation is escaped; before the template's own escape (`\]`) it would only take
///   that escape away, so it is escaped when the character the template escaped would then be
///   markup (the inline scan tells).
/// - `&` is escaped before an entity or numeric character reference (`&amp;`, `&#35;`, `&#x23;`),
///   which CommonMark decodes (§2.5); `&foo;` names no entity and stays text.
/// - `|` is escaped in a table cell, where it would end the cell (GFM §4.10); elsewhere it is text.
/// - At a line start (list item text, ``MarkdownContext/lineStart``): the first character is
///   escaped when it would begin a block: `#`×1–6 then a space or the end (ATX heading), `>`
///   (block quote), `-`, `+`, `*` then a space or the end (bullet list), three or more `-`, `*`,
///   `_` with only spaces (thematic break), three or more `` ` `` or `~` (code fence), `<` before
///   a letter, `/`, `!` or `?` (HTML block), and the `.` or `)` of `1.`/`1)` (ordered list: up to
///   nine digits then a space or the end). `[` is escaped when `]:` follows (a link reference
///   definition would take the line).
/// - At a heading's end: a run of `#` at the end of the value, after a space or at its start,
///   would be taken for the closing sequence (§4.2); its first `#` is escaped.
///
/// Rules that need the whole inline content (the template text around the value, and the text
/// that may follow it): `` ` `` (code spans, §6.1), `*` `_` (emphasis, §6.2: left- and
/// right-flanking runs, `_` not within words, the rule of 3, openers bottom), `~` (GFM
/// strikethrough: runs of one or two with equal length), `[` and `![` (links and images with an
/// inline destination, §6.3; without reference definitions a `[label]` is text), `<` (autolinks
/// and raw HTML, §6.5–6.6), and the `:` of `http://`, `https://`, `ftp://` and the `.` of `www.`
/// (GFM's extended autolinks, which cmark-gfm finds in the source text). Whether one of these
/// makes markup depends on every other, so ``MarkdownInlineScan`` reads the inline content as
/// cmark-gfm does, and the escaper starts from all of them escaped and takes away each escape
/// whose removal changes nothing, until none can be taken away. What is left is needed: taking
/// any one away makes markup. When unknown text may follow (``MarkdownContext/openAfter``), an
/// escape is kept if any of a set of continuations (`x*`, `x__`, `` ` ``, `](x)`, …) would make
/// markup with it; unknown text before is taken to hold no open delimiter (the values before are
/// escaped the same way) and to end in a space.
///
/// Autolinks: GFM links bare `www.` and `http(s)://`/`ftp://` URLs by reading the source, so an
/// escape inside such a URL would show in the link and its target, and the link would run on into
/// the template's `\]` or `**`; one escape (`www\.`, `https\://`) keeps them text. An email
/// address (and `mailto:`, `xmpp:`) is found later, in the text with escapes resolved, so no escape
/// stops it: it becomes a link whose text is the address as written.
///
/// Where the template is unknown (``MarkdownContext/unknownTemplate``, a `--templates` folder),
/// the inline scan cannot tell what the value's delimiters would pair with: the template's text
/// before it may hold `**`, `_`, `~~`, a backtick run or a `[`. There every `` ` ``, `*`, `_`,
/// `~`, `[`, `]` and `<` is escaped, a `(` that starts the value (after a template's `]`) and a
/// `!` that ends it (before a template's `[`), the `www.` and `://` escapes are kept, and at a
/// line start a value of only `=` or `-` is escaped (under a paragraph's line it would make it a
/// heading). That escapes more than needed, never less.
enum MarkdownEscapeRules {
    /// The value's bytes with line breaks folded and edges trimmed.
    static func folded(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
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
                    out.append(0x20)
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    out.append(0x20)
                    index += 2
                default:
                    out.append(byte)
                }
            }
        }
        let start = out.firstIndex { $0 != 0x20 } ?? out.endIndex
        let end = (out.lastIndex { $0 != 0x20 }).map { $0 + 1 } ?? start
        return Array(out[start..<end])
    }

    /// Whether `byte` could need an escape or a fold anywhere.
    static func mayNeedWork(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0D, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0xE2: return true
        case 0x77: return true  // w, for www.
        default: return false
        }
    }

    /// Whether `text` could need an escape, a fold or a trim in `context`.
    ///
    /// Text without any of what a rule looks at there is appended as it is: a `-` or a digit
    /// matters only first on a line, a `|` only in a cell, a `#` only first or last.
    static func needsWork(_ utf8: String.UTF8View, _ context: MarkdownContext) -> Bool {
        guard let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20 else { return !utf8.isEmpty }
        if context.unknownTemplate { return utf8.contains(where: mayNeedWork) }
        if context.lineStart && (isASCIIPunctuation(first) || isDigit(first)) { return true }
        if context.headingEnd && last == UInt8(ascii: "#") { return true }
        let cell = context.tableCell
        func matters(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x09, 0x0A, 0x0D, 0xE2, UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: "`"), UInt8(ascii: "*"),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "["), UInt8(ascii: "<"), UInt8(ascii: ":"),
                UInt8(ascii: "."):
                return true
            case UInt8(ascii: "|"): return cell
            default: return false
            }
        }
        // Over the contiguous bytes when there are (a native string's always are): read through
        // the UTF-8 view, this check of every value was a twenty-fifth of a Markdown report.
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: matters) }) { return found }
        return utf8.contains(where: matters)
    }

    /// `text` escaped for `context`, appended to `out`.
    static func escape(_ text: String, _ context: MarkdownContext, into out: inout [UInt8]) {
        let utf8 = text.utf8
        guard needsWork(utf8, context) else {
            out.append(contentsOf: utf8)
            return
        }
        let value = folded(text)
        var escaped = [Bool](repeating: false, count: value.count)
        local(value, context, &escaped)
        if context.unknownTemplate {
            everyDelimiter(value, &escaped)
        } else {
            inline(value, context, &escaped)
        }
        for (index, byte) in value.enumerated() {
            if escaped[index] { out.append(0x5C) }
            out.append(byte)
        }
    }

    // MARK: Rules that need only the neighbours

    private static func local(_ value: [UInt8], _ context: MarkdownContext, _ escaped: inout [Bool]) {
        let after = Array(context.after.utf8)
        for (index, byte) in value.enumerated() {
            switch byte {
            case 0x5C:
                if index + 1 < value.count {
                    escaped[index] = isASCIIPunctuation(value[index + 1])
                } else if let next = after.first {
                    // Before the template's own `\`, whether it matters is the inline scan's call.
                    escaped[index] = isASCIIPunctuation(next) && next != 0x5C
                } else {
                    escaped[index] = context.openAfter
                }
            case 0x26:
                escaped[index] = referenceLength(value, index) > 0
            case 0x7C:
                escaped[index] = context.tableCell
            default:
                break
            }
        }
        if context.lineStart { lineStart(value, context, &escaped) }
        if context.headingEnd { headingEnd(value, &escaped) }
    }

    private static func lineStart(_ value: [UInt8], _ context: MarkdownContext, _ escaped: inout [Bool]) {
        guard let first = value.first else { return }
        let endsOrSpace = { (index: Int) in index >= value.count || value[index] == 0x20 }
        switch first {
        case UInt8(ascii: "#"):
            let run = value.prefix { $0 == first }.count
            if run <= 6 && endsOrSpace(run) { escaped[0] = true }
        case UInt8(ascii: ">"):
            escaped[0] = true
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "_"):
            // A thematic break is the whole line: the template's text after the value counts.
            let marks = (value + Array(context.after.utf8)).filter { $0 != 0x20 }
            let thematic = first != UInt8(ascii: "+") && marks.count >= 3 && marks.allSatisfy { $0 == first }
            escaped[0] = thematic || (first != UInt8(ascii: "_") && endsOrSpace(1))
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            escaped[0] = value.prefix { $0 == first }.count >= 3
        case UInt8(ascii: "<"):
            escaped[0] = startsHTMLBlock(value, context)
        case UInt8(ascii: "["):
            escaped[0] = value.indices.dropLast().contains { value[$0] == UInt8(ascii: "]") && value[$0 + 1] == 0x3A }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            let digits = value.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            if digits <= 9, digits < value.count, value[digits] == 0x2E || value[digits] == 0x29,
                endsOrSpace(digits + 1)
            {
                escaped[digits] = true
            }
        default:
            break
        }
        // Under a paragraph's line a run of `=` or `-` would make that line a heading.
        if context.unknownTemplate && (first == UInt8(ascii: "=") || first == UInt8(ascii: "-"))
            && value.allSatisfy({ $0 == first })
        {
            escaped[0] = true
        }
    }

    /// The tag names of CommonMark's sixth kind of HTML block (§4.6).
    private static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
        "iframe", "legend", "li", "link", "main", "menu", "menuitem", "meta", "nav", "noframes", "ol", "optgroup",
        "option", "p", "param", "section", "source", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
        "title", "tr", "track", "ul",
    ]

    /// Whether a line starting with the value's `<` starts an HTML block (§4.6): `<script`, `<pre`,
    /// `<style`, `<!--`, `<?`, `<!X`, `<![CDATA[`, a block tag name, or any whole tag alone on
    /// its line (the line is the value and the template text after it, which may end there when
    /// unknown text follows).
    private static func startsHTMLBlock(_ value: [UInt8], _ context: MarkdownContext) -> Bool {
        let line = value + Array(context.after.utf8)
        let lower = line.map { isASCIILetter($0) ? $0 | 0x20 : $0 }
        let rest = Array(lower.dropFirst())
        if rest.starts(with: "!--".utf8) || rest.starts(with: "?".utf8) || rest.starts(with: "![CDATA[".utf8) {
            return true
        }
        if line.count > 2 && line[1] == UInt8(ascii: "!") && line[2] >= 0x41 && line[2] <= 0x5A { return true }
        let closing = rest.first == UInt8(ascii: "/")
        let name = rest.dropFirst(closing ? 1 : 0).prefix { isASCIILetter($0) || isDigit($0) }
        let after = rest.dropFirst((closing ? 1 : 0) + name.count).first
        let ends = after == nil || after == 0x20 || after == UInt8(ascii: ">")
        let text = String(decoding: name, as: UTF8.self)
        if !closing && ["script", "pre", "style"].contains(text) && ends { return true }
        if blockTags.contains(text)
            && (ends
                || (after == UInt8(ascii: "/")
                    && rest.dropFirst((closing ? 1 : 0) + name.count + 1).first == UInt8(ascii: ">")))
        {
            return true
        }
        guard let length = MarkdownHTMLScan.tagLength(line, 0) else { return false }
        return line[length...].allSatisfy { $0 == 0x20 }
    }

    private static func headingEnd(_ value: [UInt8], _ escaped: inout [Bool]) {
        let run = value.reversed().prefix { $0 == UInt8(ascii: "#") }.count
        guard run > 0 else { return }
        let start = value.count - run
        if start == 0 || value[start - 1] == 0x20 { escaped[start] = true }
    }

    /// The length of the entity or numeric character reference at `index` (an `&`), or 0.
    static func referenceLength(_ bytes: [UInt8], _ index: Int) -> Int {
        var cursor = index + 1
        if cursor < bytes.count && bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < bytes.count && (bytes[cursor] | 0x20) == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let start = cursor
            while cursor < bytes.count, cursor - start < (hex ? 6 : 7),
                hex ? isHexDigit(bytes[cursor]) : isDigit(bytes[cursor])
            {
                cursor += 1
            }
            guard cursor > start, cursor < bytes.count, bytes[cursor] == 0x3B else { return 0 }
            return cursor + 1 - index
        }
        let start = cursor
        while cursor < bytes.count, cursor - start <= HTMLEntityNames.longest,
            isASCIILetter(bytes[cursor]) || isDigit(bytes[cursor])
        {
            cursor += 1
        }
        guard cursor > start, cursor < bytes.count, bytes[cursor] == 0x3B,
            HTMLEntityNames.all.contains(String(decoding: bytes[start..<cursor], as: UTF8.self))
        else { return 0 }
        return cursor + 1 - index
    }

    // MARK: Rules that need the whole inline content

    /// Continuations tried after a value when unknown text may follow it: what may come right
    /// after it (nothing, a space, punctuation, a letter), then a delimiter that could close or a
    /// bracket or backtick run that could pair with one in the value.
    static let probes: [String] = ["", " x", ";", ";x", "x"].flatMap { next in
        ["", "*", "**", "***", "_", "__", "___", "~", "~~", "](x)", "`", "``", "```", "````"].map { next + $0 }
    }

    /// The continuations that can matter when every candidate is a `[` and nothing else can pair.
    ///
    /// With no `` ` ``, `<`, emphasis or URL in the inline content, a `[` makes markup only as a
    /// link or image, which needs a `]` after it, so only continuations with one (or none at all,
    /// for the value's own) can tell its escape is needed. A warning's path and message hold
    /// brackets; with every continuation the scan would be most of a report's time.
    static let bracketProbes = probes.filter { $0.isEmpty || $0.contains("]") }

    private static func onlyBrackets(_ value: [UInt8], _ candidates: [Int], _ context: MarkdownContext) -> Bool {
        guard candidates.allSatisfy({ value[$0] == UInt8(ascii: "[") }) else { return false }
        let around = Array(context.before.utf8) + value + Array(context.after.utf8)
        return !around.indices.contains { index in
            let byte = around[index]
            return byte == UInt8(ascii: "<") || (byte != UInt8(ascii: "[") && isInlineCandidate(around, index))
        }
    }

    /// Whether a value's one `[` at `index`, the only character the inline scan would try, is
    /// text whether escaped or not: what ``inline(_:_:_:)`` finds for it by scanning, told without
    /// a scan.
    ///
    /// Nothing before it can open a bracket (no `[` in the template text before or in the value
    /// before it, no backslash right before it), nothing else makes markup anywhere
    /// (``onlyBrackets(_:_:_:)``), and the first `]` after it is in the value, with no `[` or `\`
    /// between and a character after it that is not `(`. Then unescaped it opens a bracket that
    /// this `]` closes with no link, leaving no opener behind, while escaped it opens none and the
    /// `]` is text: from that `]` on, both are read the same, whatever follows. A warning's path
    /// and message (`destinations[3].arrival`) are such values; scanning them with every
    /// continuation took a sixth of the time of a large trip's Markdown report.
    static func bracketIsText(_ value: [UInt8], at index: Int, _ context: MarkdownContext, _ escaped: [Bool]) -> Bool {
        guard value[index] == UInt8(ascii: "["), onlyBrackets(value, [index], context) else { return false }
        let before = context.before.utf8
        if before.contains(UInt8(ascii: "[")) || value[..<index].contains(UInt8(ascii: "[")) { return false }
        let previous = index > 0 ? value[index - 1] : before.last
        guard previous != 0x5C,
            let close = value[(index + 1)...].firstIndex(of: UInt8(ascii: "]")), close + 1 < value.count,
            value[close + 1] != UInt8(ascii: "("),
            !value[(index + 1)..<close].contains(where: { $0 == UInt8(ascii: "[") || $0 == 0x5C }),
            !escaped[index...(close + 1)].contains(true)
        else { return false }
        return true
    }

    private static func inline(_ value: [UInt8], _ context: MarkdownContext, _ escaped: inout [Bool]) {
        var candidates: [Int] = []
        for index in value.indices where !escaped[index] && isInlineCandidate(value, index) {
            candidates.append(index)
        }
        if value.last == 0x5C && context.after.utf8.first == 0x5C { candidates.append(value.count - 1) }
        guard !candidates.isEmpty else { return }
        if candidates.count == 1, bracketIsText(value, at: candidates[0], context, escaped) { return }
        let before = Array(((context.openBefore ? " " : "") + context.before).utf8)
        let continuations =
            context.openAfter ? (onlyBrackets(value, candidates, context) ? bracketProbes : probes) : [""]
        let afters = continuations.map { Array((context.after + $0).utf8) }
        for index in candidates { escaped[index] = true }
        let targets = afters.map { MarkdownInlineScan(before, value, escaped, $0).marks() }
        var changed = true
        while changed {
            changed = false
            for index in candidates where escaped[index] {
                escaped[index] = false
                let same = afters.indices.allSatisfy {
                    MarkdownInlineScan(before, value, escaped, afters[$0]).marks() == targets[$0]
                }
                if same {
                    changed = true
                } else {
                    escaped[index] = true
                }
            }
        }
    }

    /// Where the template is unknown: every character that could pair with template text.
    private static func everyDelimiter(_ value: [UInt8], _ escaped: inout [Bool]) {
        for index in value.indices where !escaped[index] {
            switch value[index] {
            case UInt8(ascii: "]"): escaped[index] = true
            case UInt8(ascii: "("): escaped[index] = index == 0
            case UInt8(ascii: "!"): escaped[index] = index == value.count - 1
            default: escaped[index] = isInlineCandidate(value, index)
            }
        }
    }

    private static func isInlineCandidate(_ value: [UInt8], _ index: Int) -> Bool {
        switch value[index] {
        case UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "["),
            UInt8(ascii: "<"):
            return true
        case UInt8(ascii: ":"):
            return index > 0 && isASCIILetter(value[index - 1]) && index + 2 < value.count
                && value[index + 1] == UInt8(ascii: "/") && value[index + 2] == UInt8(ascii: "/")
        case UInt8(ascii: "."):
            return index >= 3 && value[(index - 3)..<index].elementsEqual("www".utf8)
        default:
            return false
        }
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
