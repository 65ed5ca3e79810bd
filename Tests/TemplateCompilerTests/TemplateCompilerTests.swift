import DetourTemplateSchema
import Foundation
import Testing

@testable import detour_template_compiler

/// The template compiler as the build runs it: the built-in templates in, one Swift file out, or
/// the template, line and column of the first thing it cannot compile.
@Suite struct TemplateCompilerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Templates/*.mustache`, as the build plugin hands them over.
    static func builtIn() throws -> [TemplateCompiler.Template] {
        let folder = repository.appendingPathComponent("Templates")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
            .map { name in
                let url = folder.appendingPathComponent(name)
                return .init(path: url.path, file: name, text: try String(contentsOf: url, encoding: .utf8))
            }
    }

    /// The file the build plugin wrote for this build, beside the test bundle's build folder.
    static func builtFile() throws -> URL? {
        let outputs = Bundle.main.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plugins/outputs")
        for package in (try? FileManager.default.contentsOfDirectory(atPath: outputs.path)) ?? [] {
            let file = outputs.appendingPathComponent(
                "\(package)/DetourRender/destination/CompileTemplates/CompiledTemplates.swift")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        return nil
    }

    /// What the build compiled is what the compiler makes of the templates now, whatever order
    /// they come in: the reports the tests check are those of the templates in the repository.
    @Test func theBuildsTemplatesAreWhatTheCompilerMakesOfTheTemplatesNow() throws {
        let templates = try Self.builtIn()
        #expect(templates.map(\.file).sorted() == TemplateRoots.builtIn.keys.sorted())
        let source = try TemplateCompiler.compile(templates)
        #expect(try TemplateCompiler.compile(templates.reversed()) == source)
        for name in ["report_html", "report_md", "index_html", "index_md", "page_html", "chrome_html", "field_html"] {
            #expect(source.contains("static func \(name)("), "\(name)")
        }
        #expect(source.contains("field_html(item"), "a partial is a call of the partial's function")
        let built = try #require(try Self.builtFile(), "the build wrote no CompiledTemplates.swift beside the tests")
        #expect(try String(contentsOf: built, encoding: .utf8) == source)
    }

    @Test(arguments: [
        // A file that is not one of the built-in templates.
        ("notes.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}", 1, 1, "a built-in template needs its root scope"),
        // A template that does not declare what it writes.
        ("report.html.mustache", "<p>{{title}}</p>", 1, 1, "the template must declare {{% CONTENT_TYPE: DETOUR_HTML}}"),
        // The other content type is not this template's.
        ("report.md.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}", 1, 1, "CONTENT_TYPE: DETOUR_MARKDOWN"),
        // A section left open, at the end of the template, where its close was due.
        ("report.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n  {{#sections}}", 2, 16, "is not closed"),
        // A name the model does not have, at its tag.
        ("report.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n<p>{{titel}}</p>", 2, 4, "has no key titel"),
        // A partial that is not a built-in template, or whose name is a value's.
        (
            "page.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{> notes.mustache}}", 2, 1,
            "names a built-in template"
        ),
        ("page.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{>*title}}", 2, 1, "names a built-in template"),
        // A partial that starts from another part of the model than the one at hand.
        (
            "page.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{> field.html.mustache}}", 2, 1,
            "starts from a FormFieldModel"
        ),
        // A partial that escapes for another content type.
        (
            "report.md.mustache", "{{% CONTENT_TYPE: DETOUR_MARKDOWN}}\n{{> report.html.mustache}}", 2, 1,
            "escapes for DETOUR_HTML"
        ),
        // Inheritance is not compiled.
        (
            "page.html.mustache", "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{<page.html.mustache}}{{/page.html.mustache}}", 2,
            1, "inheritance"
        ),
    ])
    func whatCannotBeCompiledIsNamedWithItsPlace(file: String, text: String, line: Int, column: Int, reason: String)
        throws
    {
        let template = TemplateCompiler.Template(path: "Templates/\(file)", file: file, text: text)
        #expect {
            try TemplateCompiler.compile([template])
        } throws: { error in
            guard let failure = error as? TemplateCompiler.Failure else { return false }
            return failure.path == "Templates/\(file)" && failure.line == line && failure.column == column
                && failure.reason.contains(reason)
        }
    }
}
