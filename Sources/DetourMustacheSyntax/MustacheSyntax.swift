/// A Mustache template as a tree, read the way swift-mustache reads it: the one reader of
/// templates, used by the template compiler (which turns the built-in templates into Swift) and
/// by the check of a `--templates` folder.
///
/// Hand-written because the template engine keeps its syntax tree to itself. It follows
/// swift-mustache 2.1's parser (`Template+Parser.swift`) step by step, including which lines
/// count as standalone and where the white space of a standalone tag goes, because a compiled
/// template must write the same bytes as the engine. It reads the whole grammar: text,
/// variables, sections, inverted sections, comments, the content-type pragma, partials, parents,
/// blocks and delimiter changes; the compiler refuses the last four, which the built-in
/// templates do not use. Sections, parents and blocks nest at most ``MustacheParser/maxNesting``
/// deep, since the engine parses and renders them recursively.
public enum MustacheNode: Equatable, Sendable {
    /// Text written as it is.
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    case variable(MustacheName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(MustacheName, inverted: Bool, body: [MustacheNode])
    /// `{{% CONTENT_TYPE: NAME}}`: how later variables are escaped.
    case contentType(String, at: MustacheName)
    /// `{{>name}}`, or `{{>*name}}` when the partial's name is a value's.
    case partial(MustacheName, dynamic: Bool)
    /// `{{<name}}…{{/name}}`: a partial whose blocks the body overrides.
    case parent(MustacheName, body: [MustacheNode])
    /// `{{$name}}…{{/name}}`: a block, overridable by a parent's body.
    case block(MustacheName, body: [MustacheNode])
    /// `{{=<% %>=}}`: the delimiters change from here.
    case delimiters(MustacheName)
}

/// A tag's name, the transforms around it (`last()` is the name "" with the transform "last"),
/// and where the tag is (1-based line and column, the column in Unicode scalars as editors count).
public struct MustacheName: Equatable, Sendable {
    public var name: String
    public var transforms: [String]
    public var line: Int
    public var column: Int

    public init(name: String, transforms: [String] = [], line: Int, column: Int) {
        self.name = name
        self.transforms = transforms
        self.line = line
        self.column = column
    }

    /// The name as written, transforms included, which a closing tag must repeat.
    public var written: String {
        transforms.reversed().reduce(name) { "\($1)(\($0))" }
    }
}

/// Why a template cannot be read, and where.
public struct MustacheSyntaxError: Error, Sendable {
    public var line: Int
    public var column: Int
    public var reason: String
    /// Whether the template nests deeper than ``MustacheParser/maxNesting``: well-formed maybe,
    /// but too deep to parse or render recursively.
    public var isTooDeep = false

    public init(line: Int, column: Int, reason: String, isTooDeep: Bool = false) {
        self.line = line
        self.column = column
        self.reason = reason
        self.isTooDeep = isTooDeep
    }
}

/// Reads a template into ``MustacheNode``s.
public struct MustacheParser {
    /// The deepest sections, parents and blocks may nest, and transforms wrap a name.
    public static let maxNesting = 100

    private let characters: [Character]
    private var position = 0
    private var open: [Character] = ["{", "{"]
    private var close: [Character] = ["}", "}"]
    private var depth = 0

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    private static let nameCharactersWithoutBrackets = Set(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")

    /// Parses `text`, a whole template.
    public static func parse(_ text: String) throws(MustacheSyntaxError) -> [MustacheNode] {
        var parser = MustacheParser(characters: Array(text))
        return try parser.parse(section: nil, newLine: true)
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private var atEnd: Bool { position >= characters.count }
    /// The current character, or NUL at the end, as the engine's parser answers.
    private var current: Character { atEnd ? "\0" : characters[position] }

    /// The line and column of `offset`.
    private func place(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in characters[..<min(offset, characters.count)] {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }

    private func error(_ reason: String, at offset: Int? = nil, tooDeep: Bool = false) -> MustacheSyntaxError {
        let (line, column) = place(offset ?? position)
        return MustacheSyntaxError(line: line, column: column, reason: reason, isTooDeep: tooDeep)
    }

    @discardableResult
    private mutating func read(while accepts: (Character) -> Bool) -> String {
        let start = position
        while !atEnd, accepts(characters[position]) { position += 1 }
        return String(characters[start..<position])
    }

    private mutating func read(_ literal: [Character]) -> Bool {
        guard position + literal.count <= characters.count,
            characters[position..<position + literal.count].elementsEqual(literal)
        else { return false }
        position += literal.count
        return true
    }

    // The engine's `parse(_:state:)`: `whiteSpaceBefore` is held back until the line turns out
    // not to be standalone.
    private mutating func parse(section: (name: MustacheName, sigil: Character)?, newLine startsOnNewLine: Bool)
        throws(MustacheSyntaxError) -> [MustacheNode]
    {
        var nodes: [MustacheNode] = []
        var newLine = startsOnNewLine
        var whiteSpaceBefore = ""
        while !atEnd {
            if newLine {
                whiteSpaceBefore = read { $0 == " " || $0 == "\t" }
            }
            let text = try readUntilTagOrNewline()
            if current.isNewline {
                nodes.append(.text(whiteSpaceBefore + text + String(current)))
                newLine = true
                position += 1
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whiteSpaceBefore + text))
                whiteSpaceBefore = ""
                newLine = false
            }
            if atEnd { break }
            let tagStart = position - open.count
            var setNewLine = false
            func flushWhiteSpace() {
                if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
            }
            let sigil = current
            switch sigil {
            case "#", "^", "<", "$":
                position += 1
                let name = try readName(tagStart: tagStart)
                if isStandalone(newLine) {
                    setNewLine = true
                } else {
                    flushWhiteSpace()
                }
                depth += 1
                if depth > MustacheParser.maxNesting {
                    throw error(
                        "sections nest deeper than \(MustacheParser.maxNesting) levels", at: tagStart, tooDeep: true)
                }
                let body = try parse(section: (name, sigil), newLine: setNewLine)
                depth -= 1
                switch sigil {
                case "<": nodes.append(.parent(name, body: body))
                case "$": nodes.append(.block(name, body: body))
                default: nodes.append(.section(name, inverted: sigil == "^", body: body))
                }
            case "/":
                position += 1
                let closeStart = position
                let name = try readName(tagStart: tagStart)
                guard let section, name.name == section.name.name, name.transforms == section.name.transforms else {
                    throw error("a closing tag {{/…}} does not match the section it closes", at: closeStart)
                }
                if !isStandalone(newLine) {
                    flushWhiteSpace()
                }
                return nodes
            case "!":
                position += 1
                try skipComment()
                setNewLine = isStandalone(newLine)
            case "{", "&":
                flushWhiteSpace()
                let triple = sigil == "{"
                position += 1
                let name = try readName(tagStart: tagStart, before: triple ? ["}"] : [])
                nodes.append(.variable(name, escaped: false))
            case "%":
                position += 1
                let (line, column) = place(tagStart)
                nodes.append(
                    .contentType(try readContentType(), at: MustacheName(name: "", line: line, column: column)))
                setNewLine = isStandalone(newLine)
            case ">":
                position += 1
                read { $0.isWhitespace }
                let dynamic = read(["*"])
                let name = try readName(tagStart: tagStart)
                nodes.append(.partial(name, dynamic: dynamic))
                setNewLine = isStandalone(newLine)
                if !setNewLine { flushWhiteSpace() }
            case "=":
                position += 1
                try changeDelimiters(tagStart: tagStart)
                let (line, column) = place(tagStart)
                nodes.append(.delimiters(MustacheName(name: "", line: line, column: column)))
                setNewLine = isStandalone(newLine)
            default:
                flushWhiteSpace()
                nodes.append(.variable(try readName(tagStart: tagStart), escaped: true))
            }
            newLine = setNewLine
        }
        if let section {
            let name = section.name.written
            throw error("a section is not closed: {{\(section.sigil)\(name)}} needs a {{/\(name)}}")
        }
        return nodes
    }

    private mutating func readUntilTagOrNewline() throws(MustacheSyntaxError) -> String {
        var text = ""
        guard let first = open.first else { return text }
        while !atEnd {
            text += read { !$0.isNewline && $0 != first }
            if current.isNewline { break }
            if current == first {
                // The engine reads the delimiter's length here and fails when the text ends first.
                guard position + open.count <= characters.count else {
                    throw error("a tag is not finished: \(String(open)) needs its matching \(String(close))")
                }
                if read(open) { break }
                text.append(first)
                position += 1
            }
        }
        return text
    }

    /// A tag's name and transforms, then `before` (the `}` of `{{{`) and the closing delimiter.
    private mutating func readName(tagStart: Int, before: [Character] = []) throws(MustacheSyntaxError)
        -> MustacheName
    {
        read { $0.isWhitespace }
        let text = read { MustacheParser.nameCharacters.contains($0) }
        read { $0.isWhitespace }
        guard read(before), read(close) else {
            throw error("a tag is not finished: \(String(open)) needs its matching \(String(before + close))")
        }
        let (line, column) = place(tagStart)
        guard let open = text.firstIndex(of: "(") else {
            return MustacheName(name: text, line: line, column: column)
        }
        // `f(g(name))`: transforms outermost first, as the engine lists them.
        var transforms: [String] = []
        var rest = Substring(text)
        var cut = open
        while true {
            transforms.append(String(rest[..<cut]))
            guard transforms.count <= MustacheParser.maxNesting else {
                throw error(
                    "transforms nest deeper than \(MustacheParser.maxNesting) levels", at: tagStart, tooDeep: true)
            }
            rest = rest[rest.index(after: cut)...]
            guard let next = rest.firstIndex(of: "(") else { break }
            cut = next
        }
        let name = rest.prefix { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        let closing = rest.dropFirst(name.count)
        guard closing.count == transforms.count, closing.allSatisfy({ $0 == ")" }),
            transforms.allSatisfy({ $0.allSatisfy { MustacheParser.nameCharactersWithoutBrackets.contains($0) } })
        else {
            throw error("a tag is not finished: \(String(self.open)) needs its matching \(String(close))", at: tagStart)
        }
        return MustacheName(name: String(name), transforms: transforms, line: line, column: column)
    }

    private mutating func skipComment() throws(MustacheSyntaxError) {
        while !atEnd {
            if read(close) { return }
            position += 1
        }
        throw error("a comment {{! … }} is not closed")
    }

    private mutating func readContentType() throws(MustacheSyntaxError) -> String {
        read { $0.isWhitespace }
        let variable = read { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        read { $0.isWhitespace }
        guard read([":"]) else { throw error("a {{% … }} pragma is badly written") }
        read { $0.isWhitespace }
        let value = read { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        read { $0.isWhitespace }
        guard read(close), !value.isEmpty else { throw error("a {{% … }} pragma is badly written") }
        guard variable == "CONTENT_TYPE" else {
            throw error("a {{% … }} pragma names a setting the engine does not know")
        }
        return value
    }

    /// `{{=<% %>=}}`: two delimiters, separated by white space, then `=` and the old closing one.
    private mutating func changeDelimiters(tagStart: Int) throws(MustacheSyntaxError) {
        read { $0.isWhitespace }
        let newOpen = read { !$0.isWhitespace && $0 != "=" }
        read { $0.isWhitespace }
        let newClose = read { !$0.isWhitespace && $0 != "=" }
        read { $0.isWhitespace }
        guard !newOpen.isEmpty, !newClose.isEmpty, read(["="]), read(close) else {
            throw error("a {{=<% %>=}} delimiter change is badly written", at: tagStart)
        }
        open = Array(newOpen)
        close = Array(newClose)
    }

    /// The engine's `isStandalone`: the tag began a line (only blanks before it) and only blanks
    /// follow it up to the line's end, which is then consumed.
    private mutating func isStandalone(_ newLine: Bool) -> Bool {
        guard newLine else { return false }
        if atEnd { return true }
        var ahead = position
        while ahead < characters.count, characters[ahead] == " " || characters[ahead] == "\t" { ahead += 1 }
        guard ahead < characters.count, characters[ahead].isNewline else { return false }
        position = ahead + 1
        return true
    }
}
