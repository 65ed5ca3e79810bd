import DetourTemplateSchema
import Foundation

// detour-template-compiler OUTPUT.swift TEMPLATE.mustache…
//
// Compiles the built-in report templates to Swift at build time (the `CompileTemplates` build
// plugin runs it), so a report is written by straight-line code over the model's own types
// instead of by the template engine's lookups. `--templates DIR` still renders through the engine;
// the golden tests render every sample both ways and compare the bytes.

/// Writes `message` as a compiler diagnostic, so the build shows it at the template's line.
func fail(_ file: String, _ line: Int, _ column: Int, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(file):\(line):\(column): error: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count > 1 else {
    fail("detour-template-compiler", 0, 0, "usage: detour-template-compiler OUTPUT.swift TEMPLATE.mustache…")
}

var emitter = SwiftEmitter()
var functions: [(file: String, function: String, root: TemplateScope)] = []
var code = ""
for path in arguments.dropFirst().sorted() {
    let file = URL(fileURLWithPath: path).lastPathComponent
    guard let root = TemplateRoots.builtIn[file] else {
        fail(path, 1, 1, "a built-in template needs its root scope and content type in TemplateRoots.builtIn")
    }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        fail(path, 1, 1, "cannot read the template as UTF-8")
    }
    do throws(MustacheSyntaxError) {
        let nodes = try MustacheParser.parse(text)
        let declared = nodes.contains { node in
            if case .contentType(let type, _) = node { return type == root.contentType }
            return false
        }
        guard declared else {
            fail(path, 1, 1, "the template must declare {{% CONTENT_TYPE: \(root.contentType)}}")
        }
        let name = file.replacingOccurrences(of: ".mustache", with: "").replacingOccurrences(of: ".", with: "_")
        code += "\n" + (try emitter.function(named: name, root: root.scope, nodes: nodes))
        functions.append((file, name, root.scope))
    } catch {
        fail(path, error.line, error.column, error.reason)
    }
}

var dispatch = ""
for rootName in Set(functions.map(\.root.name)).sorted() {
    dispatch += """

            /// Renders the built-in template `name` of a `\(rootName)`; `false` when there is none.
            static func render(_ model: \(rootName), template name: String, into out: inout TemplateOutput) -> Bool {
                switch name {

        """
    for entry in functions where entry.root.name == rootName {
        dispatch += "        case \(SwiftEmitter.literal(entry.file)): \(entry.function)(model, into: &out)\n"
    }
    dispatch += "        default: return false\n        }\n        return true\n    }\n"
}

// The template engine's lookups (`--templates`), from the same schema the compiled templates
// are checked against: each key is declared once, in TemplateSchema.swift.
var lookups = ""
for scope in TemplateScope.reachable(from: TemplateRoots.builtIn.sorted { $0.key < $1.key }.map(\.value.scope)) {
    lookups += SwiftEmitter.lookup(scope)
}

let source = """
    // Generated at build time by detour-template-compiler from Templates/*.mustache and
    // TemplateSchema.swift. Do not edit: change the templates or the schema, which stay the source.

    import Mustache

    /// The built-in templates, compiled to Swift.
    enum CompiledTemplates {
        /// The file names of the compiled templates.
        static let names: Set<String> = [\(functions.map { SwiftEmitter.literal($0.file) }.joined(separator: ", "))]
    \(dispatch)\(code)}
    \(lookups)
    """

// Rewrite only on change, so an unchanged template does not rebuild the module.
if FileManager.default.contents(atPath: output) != Data(source.utf8) {
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: output))
    } catch {
        fail(output, 0, 0, "cannot write: \(error.localizedDescription)")
    }
}
