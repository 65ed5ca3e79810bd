import DetourMustacheSyntax
import DetourTemplateSchema

/// Compiles the built-in report templates to one Swift file: a function for each template, a
/// dispatch by file name for each root, and the template engine's lookups for `--templates`.
///
/// It takes the templates' names and texts and returns the source, so it does no I/O of its own;
/// `main.swift` reads the files and writes the result.
enum TemplateCompiler {
    /// Why a template could not be compiled, and where: the template's path, line and column.
    struct Failure: Error, Equatable {
        var path: String
        var line: Int
        var column: Int
        var reason: String
    }

    /// One template to compile: its path (for messages), its file name and its text.
    struct Template {
        var path: String
        var file: String
        var text: String
    }

    /// The Swift source for `templates`, in the order of their paths.
    static func compile(_ templates: [Template]) throws(Failure) -> String {
        var emitter = SwiftEmitter()
        var functions: [(file: String, function: String, root: TemplateScope)] = []
        var code = ""
        for template in templates.sorted(by: { $0.path < $1.path }) {
            guard let root = TemplateRoots.builtIn[template.file] else {
                throw Failure(
                    path: template.path, line: 1, column: 1,
                    reason: "a built-in template needs its root scope and content type in TemplateRoots.builtIn")
            }
            func failure(_ error: MustacheSyntaxError) -> Failure {
                Failure(path: template.path, line: error.line, column: error.column, reason: error.reason)
            }
            let nodes: [MustacheNode]
            do throws(MustacheSyntaxError) {
                nodes = try MustacheParser.parse(template.text)
            } catch {
                throw failure(error)
            }
            let declared = nodes.contains { node in
                if case .contentType(let type, _) = node { return type == root.contentType }
                return false
            }
            guard declared else {
                throw Failure(
                    path: template.path, line: 1, column: 1,
                    reason: "the template must declare {{% CONTENT_TYPE: \(root.contentType)}}")
            }
            let name = SwiftEmitter.functionName(template.file)
            do throws(MustacheSyntaxError) {
                code += "\n" + (try emitter.function(named: name, root: root.scope, nodes: nodes))
            } catch {
                throw failure(error)
            }
            functions.append((template.file, name, root.scope))
        }
        return source(functions: functions, code: code)
    }

    /// The whole file: the functions, a dispatch by file name for each root, and the lookups.
    private static func source(
        functions: [(file: String, function: String, root: TemplateScope)], code: String
    ) -> String {
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
        // The template engine's lookups (`--templates`), from the same schema the compiled
        // templates are checked against: each key is declared once, in TemplateSchema.swift.
        var lookups = ""
        for scope in TemplateScope.reachable(from: TemplateRoots.builtIn.sorted { $0.key < $1.key }.map(\.value.scope))
        {
            lookups += SwiftEmitter.lookup(scope)
        }
        return """
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
    }
}
