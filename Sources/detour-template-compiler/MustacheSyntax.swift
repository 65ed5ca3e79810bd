/// A Mustache template as a tree, read the way swift-mustache reads it.
///
/// Hand-written because the template engine keeps its syntax tree to itself, and the compiler
/// needs one. It follows swift-mustache 2.1's parser (`Template+Parser.swift`) step by step,
/// including which lines count as standalone and where the white space of a standalone tag goes,
/// because a compiled template must write the same bytes as the engine. It reads only what the
/// built-in templates may use: text, variables, sections, inverted sections, comments and the
/// content-type pragma. Partials, inheritance, blocks and delimiter changes are refused, so the
/// build fails rather than the compiled template drifting from the engine.
enum MustacheNode: Equatable {
    /// Text written as it is.
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    case variable(MustacheName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(MustacheName, inverted: Bool, body: [MustacheNode])
    /// `{{% CONTENT_TYPE: NAME}}`: how later variables are escaped.
    case contentType(String)
}

/// A tag's name, the transforms around it (`last()` is the name "" with the transform "last"),
/// and where the tag is.
struct MustacheName: Equatable {
    var name: String
    var transforms: [String]
    var line: Int
    var column: Int
}

/// Why a template cannot be compiled, and where.
struct MustacheSyntaxError: Error {
    var line: Int
    var column: Int
    var reason: String
}

/// Reads a template into ``MustacheNode``s.
struct MustacheParser {
    private let characters: [Character]
    private var position = 0

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    private static let nameCharactersWithoutBrackets = Set(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")

    /// Parses `text`, a whole template.
    static func parse(_ text: String) throws(MustacheSyntaxError) -> [MustacheNode] {
        var parser = MustacheParser(characters: Array(text))
        return try parser.parse(section: nil, newLine: true)
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private var atEnd: Bool { position >= characters.count }
    /// The current character, or NUL at the end, as the engine's parser answers.
    private var current: Character { atEnd ? "\0" : characters[position] }

    private func error(_ reason: String, at offset: Int? = nil) -> MustacheSyntaxError {
        let end = min(offset ?? position, characters.count)
        var line = 1
        var column = 1
        for character in characters[..<end] {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return MustacheSyntaxError(line: line, column: column, reason: reason)
    }

    @discardableResult
    private mutating func read(while accepts: (Character) -> Bool) -> String {
        let start = position
        while !atEnd, accepts(characters[position]) { position += 1 }
        return String(characters[start..<position])
    }

    private mutating func read(_ literal: String) -> Bool {
        let wanted = Array(literal)
        guard position + wanted.count <= characters.count,
            Array(characters[position..<position + wanted.count]) == wanted
        else { return false }
        position += wanted.count
        return true
    }

    // The engine's `parse(_:state:)`: `whiteSpaceBefore` is held back until the line turns out
    // not to be standalone.
    private mutating func parse(section: MustacheName?, newLine startsOnNewLine: Bool) throws(MustacheSyntaxError)
        -> [MustacheNode]
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
            let tagStart = position - 2
            var setNewLine = false
            func flushWhiteSpace() {
                if !whiteSpaceBefore.isEmpty {
                    nodes.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
            }
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let name = try readName(tagStart: tagStart)
                if isStandalone(newLine) {
                    setNewLine = true
                } else {
                    flushWhiteSpace()
                }
                let body = try parse(section: name, newLine: setNewLine)
                nodes.append(.section(name, inverted: inverted, body: body))
            case "/":
                position += 1
                let closeStart = position
                let name = try readName(tagStart: tagStart)
                guard let section, name.name == section.name, name.transforms == section.transforms else {
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
                let triple = current == "{"
                position += 1
                let name = try readName(tagStart: tagStart)
                if triple, !read("}") { throw error("a tag is not finished: {{{ needs its matching }}}") }
                nodes.append(.variable(name, escaped: false))
            case "%":
                position += 1
                nodes.append(.contentType(try readContentType()))
                setNewLine = isStandalone(newLine)
            case ">", "<", "$", "=":
                throw error(
                    "partials, inheritance and delimiter changes are not compiled; the built-in templates do not use them",
                    at: tagStart)
            default:
                flushWhiteSpace()
                nodes.append(.variable(try readName(tagStart: tagStart), escaped: true))
            }
            newLine = setNewLine
        }
        if let section {
            throw error("a section is not closed: {{#\(section.name)}} needs a {{/\(section.name)}}")
        }
        return nodes
    }

    private mutating func readUntilTagOrNewline() throws(MustacheSyntaxError) -> String {
        var text = ""
        while !atEnd {
            text += read { !$0.isNewline && $0 != "{" }
            if current.isNewline { break }
            if current == "{" {
                // The engine reads two characters here and fails when the text ends first.
                guard position + 2 <= characters.count else {
                    throw error("a tag is not finished: {{ needs its matching }}")
                }
                if read("{{") { break }
                text.append("{")
                position += 1
            }
        }
        return text
    }

    private mutating func readName(tagStart: Int) throws(MustacheSyntaxError) -> MustacheName {
        read { $0.isWhitespace }
        let text = read { MustacheParser.nameCharacters.contains($0) }
        read { $0.isWhitespace }
        guard read("}}") else { throw error("a tag is not finished: {{ needs its matching }}") }
        let here = error("", at: tagStart)
        let (line, column) = (here.line, here.column)
        guard let open = text.firstIndex(of: "(") else {
            return MustacheName(name: text, transforms: [], line: line, column: column)
        }
        // `f(g(name))`: transforms outermost first, as the engine lists them.
        var transforms: [String] = []
        var rest = Substring(text)
        var cut = open
        while true {
            transforms.append(String(rest[..<cut]))
            rest = rest[rest.index(after: cut)...]
            guard let next = rest.firstIndex(of: "(") else { break }
            cut = next
        }
        let name = rest.prefix { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        let closing = rest.dropFirst(name.count)
        guard closing.count == transforms.count, closing.allSatisfy({ $0 == ")" }),
            transforms.allSatisfy({ $0.allSatisfy { MustacheParser.nameCharactersWithoutBrackets.contains($0) } })
        else {
            throw error("a tag is not finished: {{ needs its matching }}", at: tagStart)
        }
        return MustacheName(name: String(name), transforms: transforms, line: line, column: column)
    }

    private mutating func skipComment() throws(MustacheSyntaxError) {
        while !atEnd {
            if read("}}") { return }
            position += 1
        }
        throw error("a comment {{! … }} is not closed")
    }

    private mutating func readContentType() throws(MustacheSyntaxError) -> String {
        read { $0.isWhitespace }
        let variable = read { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        read { $0.isWhitespace }
        guard read(":") else { throw error("a {{% … }} pragma is badly written") }
        read { $0.isWhitespace }
        let value = read { MustacheParser.nameCharactersWithoutBrackets.contains($0) }
        read { $0.isWhitespace }
        guard read("}}"), !value.isEmpty else { throw error("a {{% … }} pragma is badly written") }
        guard variable == "CONTENT_TYPE" else {
            throw error("a {{% … }} pragma names a setting the engine does not know")
        }
        return value
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
