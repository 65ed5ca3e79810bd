/// One tag of a Mustache template, read from its raw text before the engine parses it.
///
/// The engine parses and renders sections and partials recursively, so a template nested too
/// deeply, or partials that include each other, would exhaust the stack; this scan finds them
/// first, with the tag's line and column.
struct TemplateTag: Sendable {
    /// What a tag does.
    enum Kind: Sendable, Equatable {
        case variable, unescaped, section, inverted, close, partial, dynamicPartial, parent, block
        case contentType(String)
        case other
    }

    var kind: Kind
    /// The key (after any transforms), or the partial's name.
    var name: String
    /// The transforms applied to the key, outermost first: `{{uppercased(name)}}` is `["uppercased"]`.
    var transforms: [String]
    var line: Int
    var column: Int
    /// The enclosing sections, in this template.
    var depth: Int
    /// The tags inside a section, inverted section, parent or block.
    var children: [TemplateTag] = []
}

/// Reads the tags of a template as swift-mustache does (delimiters, sigils, sections).
enum TemplateScan {
    /// The deepest sections may nest, counting the sections around each partial's include.
    static let maxNesting = 100

    /// Why a template is refused before the engine sees it.
    struct Refusal: Error {
        var line: Int
        var column: Int
        var reason: String
    }

    /// The top-level tags of `text`, sections holding theirs.
    ///
    /// Stops quietly at a malformed tag: the engine's parser then reports it with its own words.
    static func tags(of text: String) throws(Refusal) -> [TemplateTag] {
        let bytes = Array(text.utf8)
        var start: [UInt8] = Array("{{".utf8)
        var end: [UInt8] = Array("}}".utf8)
        var stack: [TemplateTag] = [TemplateTag(kind: .other, name: "", transforms: [], line: 0, column: 0, depth: 0)]
        var position = 0
        var line = 1
        var column = 1
        var counted = 0

        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard let first = needle.first, needle.count <= bytes.count else { return nil }
            var index = from
            while index + needle.count <= bytes.count {
                if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        while let open = find(start, from: position) {
            // Columns count Unicode scalars: every byte but a UTF-8 continuation byte starts one.
            while counted < open {
                if bytes[counted] == 0x0A {
                    line += 1
                    column = 1
                } else if bytes[counted] & 0xC0 != 0x80 {
                    column += 1
                }
                counted += 1
            }
            let inner = open + start.count
            guard inner < bytes.count else { break }
            let sigil = bytes[inner]
            let closer: [UInt8]
            switch sigil {
            case UInt8(ascii: "{"): closer = Array("}".utf8) + end
            case UInt8(ascii: "="): closer = Array("=".utf8) + end
            default: closer = end
            }
            guard let close = find(closer, from: inner + 1) else { break }
            position = close + closer.count
            let body = String(decoding: bytes[(inner + 1)..<close], as: UTF8.self).trimmingSpaces
            var tag = TemplateTag(
                kind: .other, name: body, transforms: [], line: line, column: column, depth: stack.count - 1)
            switch sigil {
            case UInt8(ascii: "#"): tag.kind = .section
            case UInt8(ascii: "^"): tag.kind = .inverted
            case UInt8(ascii: "/"): tag.kind = .close
            case UInt8(ascii: "<"): tag.kind = .parent
            case UInt8(ascii: "$"): tag.kind = .block
            case UInt8(ascii: "{"), UInt8(ascii: "&"): tag.kind = .unescaped
            case UInt8(ascii: ">"):
                tag.kind = body.hasPrefix("*") ? .dynamicPartial : .partial
            case UInt8(ascii: "%"):
                let parts = body.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces }
                if parts.count == 2, parts[0] == "CONTENT_TYPE" { tag.kind = .contentType(parts[1]) }
            case UInt8(ascii: "="):
                let parts = body.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2 else { return stack[0].children }
                start = Array(parts[0].utf8)
                end = Array(parts[1].utf8)
            case UInt8(ascii: "!"): break
            default:
                tag.kind = .variable
                tag.name = String(decoding: bytes[inner..<close], as: UTF8.self).trimmingSpaces
            }
            if tag.kind != .other, tag.kind != .close, tag.kind != .partial, tag.kind != .dynamicPartial {
                if case .contentType = tag.kind {
                } else {
                    try splitTransforms(&tag)
                }
            }
            if tag.opensSection {
                if stack.count > maxNesting {
                    throw Refusal(line: line, column: column, reason: "sections nest deeper than \(maxNesting) levels")
                }
                stack.append(tag)
            } else if tag.kind == .close {
                guard stack.count > 1, let top = stack.last, top.rawName == body else { return stack[0].children }
                stack.removeLast()
                stack[stack.count - 1].children.append(top)
            } else {
                stack[stack.count - 1].children.append(tag)
            }
        }
        while stack.count > 1, let top = stack.popLast() {
            stack[stack.count - 1].children.append(top)
        }
        return stack[0].children
    }

    /// `uppercased(reversed(name))` becomes the key `name` and the transforms, without recursion.
    private static func splitTransforms(_ tag: inout TemplateTag) throws(Refusal) {
        let opens = tag.name.split(separator: "(", omittingEmptySubsequences: false)
        guard opens.count > 1 else { return }
        if opens.count - 1 > maxNesting {
            throw Refusal(
                line: tag.line, column: tag.column, reason: "transforms nest deeper than \(maxNesting) levels")
        }
        tag.transforms = opens.dropLast().map(String.init)
        tag.name = String(opens[opens.count - 1].prefix { $0 != ")" })
    }
}

extension TemplateTag {
    /// Whether the tag opens a section the engine parses and renders one level deeper.
    var opensSection: Bool {
        switch kind {
        case .section, .inverted, .parent, .block: return true
        default: return false
        }
    }

    /// The key as written, transforms included, which a closing tag must repeat.
    var rawName: String {
        transforms.reversed().reduce(name) { "\($1)(\($0))" }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
