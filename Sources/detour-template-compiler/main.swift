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
var templates: [TemplateCompiler.Template] = []
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        fail(path, 1, 1, "cannot read the template as UTF-8")
    }
    templates.append(.init(path: path, file: URL(fileURLWithPath: path).lastPathComponent, text: text))
}
let source: String
do throws(TemplateCompiler.Failure) {
    source = try TemplateCompiler.compile(templates)
} catch {
    fail(error.path, error.line, error.column, error.reason)
}
// Rewrite only on change, so an unchanged template does not rebuild the module.
if FileManager.default.contents(atPath: output) != Data(source.utf8) {
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: output))
    } catch {
        fail(output, 0, 0, "cannot write: \(error.localizedDescription)")
    }
}
