import DetourMustacheSyntax
import DetourTemplateSchema
import Mustache
import Testing

@testable import detour_template_compiler

/// The template compiler reads templates with its own parser; these hold it to the template
/// engine's reading, above all where a standalone tag's line and white space go.
@Suite struct MustacheSyntaxTests {
    /// What the random templates look up.
    static var context: [String: Any] {
        ["name": "Ana", "yes": true, "no": false, "list": ["p", "q", "r"], "none": [String]()]
    }

    /// A template of random pieces: text, white space, line breaks, variables, comments, the
    /// content-type pragma and (nested) sections, standalone on their lines or not.
    static func randomTemplate(depth: Int = 0, inList: Bool = false, using generator: inout some RandomNumberGenerator)
        -> String
    {
        var text = ""
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            switch Int.random(in: 0...11, using: &generator) {
            case 0: text += "a"
            case 1: text += " "
            case 2: text += "\n"
            case 3: text += "\t"
            case 4: text += "{{name}}"
            case 5: text += "{{{name}}}"
            case 6: text += "{{! a comment }}"
            case 7: text += inList ? "{{.}}" : "{{% CONTENT_TYPE: TEXT}}"
            case 8: text += inList ? "{{^last()}},{{/last()}}" : "x{"
            default:
                guard depth < 3 else { continue }
                let name = ["yes", "no", "list", "none"].randomElement(using: &generator) ?? "yes"
                let open = Bool.random(using: &generator) ? "#" : "^"
                let body = randomTemplate(
                    depth: depth + 1, inList: inList || (name == "list" && open == "#"), using: &generator)
                text += "{{\(open)\(name)}}" + body + "{{/\(name)}}"
            }
        }
        return text
    }

    @Test func theParserReadsTemplatesAsTheEngineDoes() throws {
        MustacheContentTypes.register(TextContentType(), named: "TEXT")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let template = Self.randomTemplate(using: &generator)
            // Both refuse the same templates ("x{" before a tag makes "{{{"), or read them alike.
            guard let engine = try? MustacheTemplate(string: template) else {
                #expect(throws: MustacheSyntaxError.self, "\(template.debugDescription)") {
                    try MustacheParser.parse(template)
                }
                continue
            }
            let nodes = try MustacheParser.parse(template)
            var ours = ""
            Self.render(nodes, stack: [Self.context], position: nil, into: &ours)
            #expect(ours == engine.render(Self.context), "\(template.debugDescription)")
        }
    }

    @Test func standaloneTagsTakeTheirWholeLine() throws {
        let nodes = try MustacheParser.parse("a\n  {{#yes}}  \nb\n  {{/yes}}\nc")
        #expect(
            nodes == [
                .text("a\n"),
                .section(
                    MustacheName(name: "yes", transforms: [], line: 2, column: 3), inverted: false, body: [.text("b\n")]
                ), .text("c"),
            ])
    }

    /// The reader reads the whole grammar; the compiler refuses what the built-in templates do
    /// not use, and a malformed template is refused by both.
    @Test func whatTheCompilerDoesNotCompileIsReadButRefused() throws {
        let read: [(String, MustacheNode)] = [
            ("{{> partial}}", .partial(MustacheName(name: "partial", line: 1, column: 1), dynamic: false)),
            ("{{>*name}}", .partial(MustacheName(name: "name", line: 1, column: 1), dynamic: true)),
            ("{{=<% %>=}}", .delimiters(MustacheName(name: "", line: 1, column: 1))),
            ("{{<parent}}{{/parent}}", .parent(MustacheName(name: "parent", line: 1, column: 1), body: [])),
            ("{{$block}}{{/block}}", .block(MustacheName(name: "block", line: 1, column: 1), body: [])),
        ]
        for (template, node) in read {
            #expect(try MustacheParser.parse(template) == [node])
            var emitter = SwiftEmitter()
            #expect(throws: MustacheSyntaxError.self, "\(template)") {
                try emitter.function(named: "t", root: .report, nodes: [node])
            }
        }
        for template in ["{{#a}}", "{{/a}}", "{{=<%=}}", "{{>}"] {
            #expect(throws: MustacheSyntaxError.self, "\(template)") { try MustacheParser.parse(template) }
        }
    }

    @Test func changedDelimitersReadTheRestOfTheTemplate() throws {
        let nodes = try MustacheParser.parse("{{=<% %>=}}<%name%> {{name}} <%={{ }}=%>{{name}}")
        #expect(nodes.count == 5)
        guard nodes.count == 5, case .variable(let first, true) = nodes[1], case .variable(let last, true) = nodes[4]
        else {
            Issue.record("\(nodes)")
            return
        }
        #expect(first.name == "name")
        #expect(nodes[2] == .text(" {{name}} "))
        #expect(last.column == 41)
    }

    @Test func nestingPastTheLimitIsRefusedAsTooDeep() {
        let deep = String(repeating: "{{#a}}", count: 101) + String(repeating: "{{/a}}", count: 101)
        #expect {
            try MustacheParser.parse(deep)
        } throws: { error in
            (error as? MustacheSyntaxError)?.isTooDeep == true
        }
        let fine = String(repeating: "{{#a}}", count: 100) + String(repeating: "{{/a}}", count: 100)
        #expect(throws: Never.self) { try MustacheParser.parse(fine) }
        let transforms = "{{" + String(repeating: "f(", count: 101) + "x" + String(repeating: ")", count: 101) + "}}"
        #expect(throws: MustacheSyntaxError.self) { try MustacheParser.parse(transforms) }
    }

    /// The engine's rules for the few values the random templates use.
    static func render(
        _ nodes: [MustacheNode], stack: [Any], position: (index: Int, count: Int)?, into out: inout String
    ) {
        for node in nodes {
            switch node {
            case .text(let text):
                out += text
            case .contentType, .partial, .parent, .block, .delimiters:
                break
            case .variable(let name, _):
                if name.name == "." {
                    out += "\(stack.last ?? "")"
                } else if let value = lookup(name.name, in: stack) {
                    out += "\(value)"
                }
            case .section(let name, let inverted, let body):
                if name.name.isEmpty, name.transforms == ["last"] {
                    let isLast = position.map { $0.index == $0.count - 1 }
                    if inverted ? isLast != true : isLast == true {
                        render(body, stack: stack, position: position, into: &out)
                    }
                    continue
                }
                let value = lookup(name.name, in: stack)
                if let list = value as? [String] {
                    if inverted {
                        if list.isEmpty { render(body, stack: stack + [list], position: nil, into: &out) }
                    } else {
                        for (index, item) in list.enumerated() {
                            render(body, stack: stack + [item], position: (index, list.count), into: &out)
                        }
                    }
                } else if let flag = value as? Bool {
                    if flag != inverted { render(body, stack: stack, position: position, into: &out) }
                } else if (value == nil) == inverted {
                    // A value is pushed and the list position forgotten; a missing one changes nothing.
                    render(
                        body, stack: value.map { stack + [$0] } ?? stack, position: value == nil ? position : nil,
                        into: &out)
                }
            }
        }
    }

    static func lookup(_ name: String, in stack: [Any]) -> Any? {
        for frame in stack.reversed() {
            if let dictionary = frame as? [String: Any], let value = dictionary[name] { return value }
        }
        return nil
    }
}

/// Text written as it is, for templates that declare no HTML.
struct TextContentType: MustacheContentType {
    func escapeText(_ text: String) -> String { text }
}
