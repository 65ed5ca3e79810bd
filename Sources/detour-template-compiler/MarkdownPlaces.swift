import DetourMustacheSyntax
import DetourTemplateSchema

/// Where each `{{value}}` of a Markdown template stands, written as the `MarkdownContext` the
/// escaper gets (see `MarkdownEscapeRules` in DetourRender).
///
/// The template is read as a row of tokens on each line: text, values, section starts and ends.
/// Around a value, what is surely written is the text outside any section that opens and closes
/// beside it (such a section may be empty), with another value read as a word (`x`). A section
/// that encloses the value may repeat, so the text of another pass may stand before or after it:
/// that, or any other tag beside it, makes that side open. The line's first surely-written text
/// tells the block: `|` a table row (the cell is the text between the `|`s around the value),
/// `#` a heading, `- ` a list item, anything else a paragraph. The value may start the line's
/// block when nothing is surely written before it in the block's text, and may end a heading
/// when nothing is surely written after it.
struct MarkdownPlaces {
    fileprivate enum Token {
        case text(String)
        case value(key: String, escaped: Bool)
        case open
        case close
    }

    private var tokens: [Token] = []

    init(_ nodes: [MustacheNode]) {
        flatten(nodes)
    }

    static func key(_ name: MustacheName) -> String { "\(name.line):\(name.column)" }

    private mutating func flatten(_ nodes: [MustacheNode]) {
        for node in nodes {
            switch node {
            case .text(let text): tokens.append(.text(text))
            case .variable(let name, let escaped):
                tokens.append(.value(key: MarkdownPlaces.key(name), escaped: escaped))
            case .section(_, _, let body):
                tokens.append(.open)
                flatten(body)
                tokens.append(.close)
            default: break
            }
        }
    }

    /// The Swift expression of the context of every escaped value, by ``key(_:)``.
    func contexts() -> [String: String] {
        var result: [String: String] = [:]
        for (index, token) in tokens.enumerated() {
            guard case .value(let key, true) = token else { continue }
            result[key] = context(at: index)
        }
        return result
    }

    private func context(at index: Int) -> String {
        let preceding = Array(tokens[..<index].reversed())
        let following = Array(tokens[(index + 1)...])
        var (line, openBefore, before) = side(preceding, forward: false, cell: false)
        var (rest, openAfter, after) = side(following, forward: true, cell: false)
        var lineStart = false
        var tableCell = false
        var headingEnd = false
        if line.hasPrefix("|") {
            tableCell = true
            (_, openBefore, before) = side(preceding, forward: false, cell: true)
            (_, openAfter, after) = side(following, forward: true, cell: true)
            if !openBefore { before = String(before.drop { $0 == " " }) }
            if !openAfter { after = String(after.reversed().drop { $0 == " " }.reversed()) }
        } else if line.hasPrefix("#") {
            if !openBefore { before = String(before.drop { $0 == "#" }.drop { $0 == " " }) }
            headingEnd = rest.allSatisfy { $0 == " " }
            if !openAfter { after = String(after.reversed().drop { $0 == " " }.reversed()) }
        } else {
            if !openBefore && before.hasPrefix("- ") { before = String(before.dropFirst(2)) }
            lineStart = String(line.hasPrefix("- ") ? line.dropFirst(2) : line[...]).isEmpty
        }
        var arguments: [String] = []
        if lineStart { arguments.append("lineStart: true") }
        if tableCell { arguments.append("tableCell: true") }
        if headingEnd { arguments.append("headingEnd: true") }
        if !before.isEmpty { arguments.append("before: \(SwiftEmitter.literal(before))") }
        if !after.isEmpty { arguments.append("after: \(SwiftEmitter.literal(after))") }
        if openBefore { arguments.append("openBefore: true") }
        if openAfter { arguments.append("openAfter: true") }
        return "MarkdownContext(\(arguments.joined(separator: ", ")))"
    }

    /// The text surely written on the value's line on one side, and more.
    ///
    /// In reading order (another value read as `x`); then whether something unknown may stand there too, and the text up to the first
    /// tag, which is all the escaper is told (a value beside it may be anything). `tokens` run away from the value; in a table `cell`
    /// the side ends at the cell's `|`.
    private func side(_ tokens: [Token], forward: Bool, cell: Bool) -> (String, Bool, String) {
        var pieces: [String] = []
        var known = 0
        var open = false
        var depth = 0
        func result() -> (String, Bool, String) {
            let near = pieces.prefix(known)
            return (
                forward ? pieces.joined() : pieces.reversed().joined(), open,
                forward ? near.joined() : near.reversed().joined()
            )
        }
        for token in tokens {
            switch token {
            case .text(let text):
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                var line = String((forward ? lines.first : lines.last) ?? "")
                let bar = cell && depth == 0 ? (forward ? line.firstIndex(of: "|") : line.lastIndex(of: "|")) : nil
                if let bar { line = String(forward ? line[..<bar] : line[line.index(after: bar)...]) }
                if depth == 0 { pieces.append(line) }
                if !open { known = pieces.count }
                if bar != nil { return result() }
                if text.contains("\n") {
                    open = open || depth > 0
                    return result()
                }
            case .value:
                if depth == 0 { pieces.append("x") }
                open = true
            case .open, .close:
                open = true
                if token.isOpen == forward {
                    depth += 1
                } else if depth > 0 {
                    depth -= 1
                }
            }
        }
        return result()
    }
}

extension MarkdownPlaces.Token {
    fileprivate var isOpen: Bool {
        if case .open = self { return true }
        return false
    }
}
