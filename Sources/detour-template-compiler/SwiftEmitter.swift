import DetourMustacheSyntax
import DetourTemplateSchema

/// Writes a template's tree as a Swift function over the report model's own types.
///
/// Each name is resolved here, at build time, against `TemplateScope` (the model's keys, typed),
/// so the function reads properties directly instead of asking every object on the context stack
/// by name. The resolution follows the engine's rules: the innermost object that has the key
/// wins; a flag section keeps the context; a list pushes each element and its position
/// (`first()`, `last()`, `index()`, `even()`, `odd()`); any other section pushes its value and
/// forgets the position; an inverted list pushes the empty list. A name the model lacks, a
/// dotted name or a transform other than a position is refused: the build fails instead.
struct SwiftEmitter {
    private struct Frame {
        var expression: String
        var value: TemplateValue
    }

    private struct Context {
        var frames: [Frame]
        var position: String?
        var escaper: String?
    }

    /// The escaping function of `TemplateOutput` for each content type a template may declare.
    static let escapers = ["DETOUR_HTML": "html", "DETOUR_MARKDOWN": "markdown"]

    private var counter = 0
    /// The `MarkdownContext` of each escaped value of the template being written, by position.
    private var markdownPlaces: [String: String] = [:]

    /// `static func name(_ model: Root, into out: inout TemplateOutput)` for one template.
    mutating func function(named name: String, root: TemplateScope, nodes: [MustacheNode]) throws(MustacheSyntaxError)
        -> String
    {
        let context = Context(frames: [Frame(expression: "model", value: .object(root))], position: nil, escaper: nil)
        markdownPlaces = MarkdownPlaces(nodes).contexts()
        let body = try emit(nodes, context, indent: 2)
        let parameter = uses("model", in: body) ? "model" : "_"
        return "    static func \(name)(_ \(parameter): \(root.name), into out: inout TemplateOutput) {\n\(body)    }\n"
    }

    private mutating func fresh(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    private mutating func emit(_ nodes: [MustacheNode], _ start: Context, indent: Int) throws(MustacheSyntaxError)
        -> String
    {
        var context = start
        var code = ""
        var pendingText = ""
        let pad = String(repeating: "    ", count: indent)
        func flushText() {
            guard !pendingText.isEmpty else { return }
            code += "\(pad)out.text(\(SwiftEmitter.literal(pendingText)))\n"
            pendingText = ""
        }
        for node in nodes {
            switch node {
            case .text(let text):
                pendingText += text
            case .contentType(let name, let tag):
                guard let escaper = SwiftEmitter.escapers[name] else {
                    throw MustacheSyntaxError(
                        line: tag.line, column: tag.column, reason: "no escaper is compiled for content type \(name)")
                }
                context.escaper = escaper
            case .variable(let name, let escaped):
                flushText()
                code += try variable(name, escaped: escaped, context, pad: pad)
            case .section(let name, let inverted, let body):
                flushText()
                code += try section(name, inverted: inverted, body: body, context, indent: indent)
            case .partial(let name, let dynamic):
                flushText()
                code += try partial(name, dynamic: dynamic, context, pad: pad)
            case .parent(let tag, _), .block(let tag, _), .delimiters(let tag):
                throw MustacheSyntaxError(
                    line: tag.line, column: tag.column,
                    reason: "inheritance and delimiter changes are not compiled; the built-in templates do not use them"
                )
            }
        }
        flushText()
        return code
    }

    private func variable(_ name: MustacheName, escaped: Bool, _ context: Context, pad: String)
        throws(MustacheSyntaxError)
        -> String
    {
        guard let (expression, value) = try resolve(name, context) else { return "" }
        switch value {
        case .text, .number, .flag:
            break
        case .list, .object, .position:
            throw MustacheSyntaxError(
                line: name.line, column: name.column, reason: "{{\(name.name)}} is not text; only text can be written")
        }
        guard escaped else { return "\(pad)out.raw(\(expression))\n" }
        guard let escaper = context.escaper else {
            throw MustacheSyntaxError(
                line: name.line, column: name.column,
                reason: "{{\(name.name)}} comes before the template's content type")
        }
        if escaper == "markdown", let place = markdownPlaces[MarkdownPlaces.key(name)] {
            return "\(pad)out.markdown(\(expression), \(place))\n"
        }
        return "\(pad)out.\(escaper)(\(expression))\n"
    }

    /// A partial, `{{> file.mustache}}`: a call of that built-in template's function.
    ///
    /// It is called with the value the context holds on top, which must be of the type the
    /// partial starts from, and the partial must escape for the same content type. The partial sees only that value, so it must not read a
    /// key of an enclosing one (the build fails if it does) nor a position: then the engine, which
    /// would look further out, finds the same.
    private func partial(_ name: MustacheName, dynamic: Bool, _ context: Context, pad: String)
        throws(MustacheSyntaxError) -> String
    {
        guard !dynamic, let root = TemplateRoots.builtIn[name.name] else {
            throw MustacheSyntaxError(
                line: name.line, column: name.column,
                reason: "a compiled partial names a built-in template by its file name, not \(name.name)")
        }
        guard let top = context.frames.last, !top.expression.isEmpty, case .object(let scope) = top.value,
            scope.name == root.scope.name
        else {
            throw MustacheSyntaxError(
                line: name.line, column: name.column,
                reason: "{{> \(name.name)}} starts from a \(root.scope.name); open a section of one around it")
        }
        guard context.escaper == SwiftEmitter.escapers[root.contentType] else {
            throw MustacheSyntaxError(
                line: name.line, column: name.column,
                reason: "{{> \(name.name)}} escapes for \(root.contentType), not for this template's content type")
        }
        return "\(pad)\(SwiftEmitter.functionName(name.name))(\(top.expression), into: &out)\n"
    }

    /// The Swift function of the built-in template `file`: `report.html.mustache` is `report_html`.
    static func functionName(_ file: String) -> String {
        file.replacingOccurrences(of: ".mustache", with: "").replacingOccurrences(of: ".", with: "_")
    }

    private mutating func section(
        _ name: MustacheName, inverted: Bool, body: [MustacheNode], _ context: Context, indent: Int
    ) throws(MustacheSyntaxError) -> String {
        let pad = String(repeating: "    ", count: indent)
        guard let (expression, value) = try resolve(name, context) else {
            // A position outside a list: the engine finds nothing, so only an inverted section shows.
            return inverted ? try emit(body, context, indent: indent) : ""
        }
        switch value {
        case .flag:
            let inner = try emit(body, context, indent: indent + 1)
            return "\(pad)if \(inverted ? "!" : "")\(expression) {\n\(inner)\(pad)}\n"
        case .list(let element):
            if inverted {
                var pushed = context
                pushed.frames.append(Frame(expression: "", value: value))
                pushed.position = nil
                let inner = try emit(body, pushed, indent: indent + 1)
                return "\(pad)if \(expression).isEmpty {\n\(inner)\(pad)}\n"
            }
            let list = fresh("list")
            let item = fresh("item")
            let index = fresh("index")
            let position = fresh("position")
            var pushed = context
            pushed.frames.append(Frame(expression: item, value: element))
            pushed.position = position
            let inner = try emit(body, pushed, indent: indent + 2)
            let itemName = uses(item, in: inner) ? item : "_"
            var code = "\(pad)do {\n\(pad)    let \(list) = \(expression)\n"
            if uses(position, in: inner) {
                code += "\(pad)    let count = \(list).count\n"
                code += "\(pad)    for (\(index), \(itemName)) in \(list).enumerated() {\n"
                code += "\(pad)        let \(position) = TemplatePosition(index: \(index), count: count)\n"
            } else {
                code += "\(pad)    for \(itemName) in \(list) {\n"
            }
            return code + inner + "\(pad)    }\n\(pad)}\n"
        case .object, .text, .number:
            if inverted {
                let inner = try emit(body, context, indent: indent + 1)
                return "\(pad)if TemplateOutput.present(\(expression)) == nil {\n\(inner)\(pad)}\n"
            }
            let bound = fresh("value")
            var pushed = context
            pushed.frames.append(Frame(expression: bound, value: value))
            pushed.position = nil
            let inner = try emit(body, pushed, indent: indent + 1)
            let test =
                uses(bound, in: inner)
                ? "let \(bound) = TemplateOutput.present(\(expression))"
                : "TemplateOutput.present(\(expression)) != nil"
            return "\(pad)if \(test) {\n\(inner)\(pad)}\n"
        case .position:
            throw MustacheSyntaxError(
                line: name.line, column: name.column, reason: "a position is read with first() or last()")
        }
    }

    /// The Swift expression for a name at this point of the template, and what it holds; `nil`
    /// when the engine would find nothing (a position asked for outside a list).
    private func resolve(_ name: MustacheName, _ context: Context) throws(MustacheSyntaxError) -> (
        String, TemplateValue
    )? {
        if !name.transforms.isEmpty {
            let positions: [String: (String, TemplateValue)] = [
                "first": ("isFirst", .flag), "last": ("isLast", .flag), "index": ("index", .number),
                "even": ("isEven", .flag), "odd": ("isOdd", .flag),
            ]
            guard name.name.isEmpty, name.transforms.count == 1, let (member, value) = positions[name.transforms[0]]
            else {
                throw MustacheSyntaxError(
                    line: name.line, column: name.column,
                    reason:
                        "only first(), last(), index(), even() and odd() are compiled, not \(name.transforms.joined(separator: "("))(\(name.name))"
                )
            }
            guard let position = context.position else { return nil }
            return ("\(position).\(member)", value)
        }
        if name.name == "." {
            guard let top = context.frames.last, !top.expression.isEmpty else {
                throw MustacheSyntaxError(
                    line: name.line, column: name.column, reason: "{{.}} has nothing to refer to here")
            }
            return (top.expression, top.value)
        }
        guard !name.name.contains(".") else {
            throw MustacheSyntaxError(
                line: name.line, column: name.column, reason: "dotted names are not compiled: \(name.name)")
        }
        for frame in context.frames.reversed() {
            guard case .object(let scope) = frame.value, let value = scope.keys[name.name] else { continue }
            return ("\(frame.expression).\(name.name)", value)
        }
        throw MustacheSyntaxError(
            line: name.line, column: name.column,
            reason: "the report model has no key \(name.name) here (see TemplateSchema.swift)")
    }

    /// The template engine's lookups by key for `scope`'s model type (swift-mustache's `MustacheParent`).
    ///
    /// A `switch` over the schema's keys, in order, each returning the model's property of that
    /// name (a list as an array). A key the model lacks fails the build here.
    static func lookup(_ scope: TemplateScope) -> String {
        var code = """

            extension \(scope.name): MustacheParent {
                public func child(named key: String) -> Any? {
                    switch key {

            """
        for (key, value) in scope.keys.sorted(by: { $0.key < $1.key }) {
            let read = if case .list = value { "Array(\(key))" } else { key }
            code += "        case \(literal(key)): return \(read)\n"
        }
        code += "        default: return nil\n        }\n    }\n}\n"
        return code
    }

    /// Whether `identifier` occurs in `code` as a whole word.
    private func uses(_ identifier: String, in code: String) -> Bool {
        var word = ""
        for character in code + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                if word == identifier { return true }
                word = ""
            }
        }
        return false
    }

    /// A Swift string literal holding `text` exactly.
    static func literal(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }
}
