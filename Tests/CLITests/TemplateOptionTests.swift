import DetourTestSupport
import Foundation
import Testing

/// `--templates DIR` with hostile or careless templates: a clear error or a warning, never a crash.
@Suite(.serialized) struct TemplateOptionTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    let sample: String

    init() throws {
        cli = try CommandRunner.built()
        sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        folder = try ScratchFolder("detour-templates")
    }

    /// A templates folder holding the built-in templates, with `html` or `markdown` replaced.
    func folder(html: String? = nil, markdown: String? = nil) throws -> String {
        let folder = scratch.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, replacement) in [("report.html.mustache", html), ("report.md.mustache", markdown)] {
            let text =
                try replacement ?? String(contentsOf: Fixtures.templates.appendingPathComponent(name), encoding: .utf8)
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }

    func render(_ folder: String, format: String = "html") throws -> CommandRunner.Result {
        try cli.run([sample, "--today", "2026-11-22", "--format", format, "--templates", folder])
    }

    @Test func aPartialThatIncludesItselfIsATemplateErrorNotACrash() throws {
        let html = "{{% CONTENT_TYPE: DETOUR_HTML}}\n<p>{{title}}</p>\n{{> report.html.mustache}}\n"
        let result = try render(try folder(html: html))
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "report.html.mustache:3:1: error: partials include each other deeper than 32 levels"),
            "\(result.stderr)")
    }

    @Test func twoTemplatesIncludingEachOtherAreATemplateError() throws {
        let html = "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{#sections}}{{> report.md.mustache}}{{/sections}}\n"
        let markdown = "{{% CONTENT_TYPE: DETOUR_MARKDOWN}}\n# {{title}}\n\n{{> report.html.mustache}}\n"
        let result = try render(try folder(html: html, markdown: markdown), format: "markdown")
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: partials include each other deeper than 32 levels"), "\(result.stderr)")
        #expect(
            result.stderr.contains("report.md.mustache:4:1:") || result.stderr.contains("report.html.mustache:2:14:"),
            "\(result.stderr)")
    }

    @Test func tenThousandNestedSectionsAreATemplateErrorNotACrash() throws {
        let html =
            "{{% CONTENT_TYPE: DETOUR_HTML}}\n" + String(repeating: "{{#a}}\n", count: 10_000)
            + String(repeating: "{{/a}}\n", count: 10_000)
        let result = try render(try folder(html: html))
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains("report.html.mustache:102:1: error: sections nest deeper than 100 levels"),
            "\(result.stderr)")
    }

    @Test func deeplyNestedTransformsAreATemplateErrorNotACrash() throws {
        let html =
            "{{% CONTENT_TYPE: DETOUR_HTML}}\n{{" + String(repeating: "a(", count: 100_000) + "title"
            + String(repeating: ")", count: 100_000) + "}}\n"
        let result = try render(try folder(html: html))
        #expect(result.status == 78, "\(result.stderr)")
        #expect(
            result.stderr.contains("report.html.mustache:2:1: error: transforms nest deeper than 100 levels"),
            "\(result.stderr)")
    }

    @Test(arguments: [
        ("<h1>{{{title}}}</h1>", "report.html.mustache:2:5: warning: "),
        ("<h1>{{& title}}</h1>", "report.html.mustache:2:5: warning: "),
        (
            "{{#sections}}{{#destinations}}<h3>{{{name}}}</h3>{{/destinations}}{{/sections}}",
            "report.html.mustache:2:35: warning: "
        ),
    ])
    func unescapedUserTextIsAWarningAndTheReportStillComes(_ body: String, _ expected: String) throws {
        let result = try render(try folder(html: "{{% CONTENT_TYPE: DETOUR_HTML}}\n" + body + "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.contains("user text would reach the page raw"), "\(result.stderr)")
    }

    @Test func aChangedContentTypeIsAWarningAndTheReportStillComes() throws {
        let result = try render(try folder(markdown: "{{% CONTENT_TYPE: TEXT}}\n# {{title}}\n"), format: "markdown")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.hasPrefix("# "))
        #expect(result.stderr.contains("report.md.mustache:1:1: warning: "), "\(result.stderr)")
        #expect(result.stderr.contains("user text would reach the page raw"), "\(result.stderr)")
    }

    @Test func unescapedTypedValuesAreNotWarnedAbout() throws {
        let html = "{{% CONTENT_TYPE: DETOUR_HTML}}\n<p>{{{today}}} {{{destinationSummary}}}</p>\n"
        let result = try render(try folder(html: html))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// A copy of the built-in templates renders through the template engine; the default renders them compiled to
    /// Swift.
    ///
    /// Both must write the same HTML report, and Markdown that GFM reads the same (through the engine a value's
    /// place is unknown, so its Markdown may hold more escapes).
    @Test func aCopyOfTheBuiltInTemplatesGetsNoWarningAndTheSameReport() throws {
        for format in ["html", "markdown"] {
            let result = try render(try folder(), format: format)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            let compiled = try cli.run([sample, "--today", "2026-11-22", "--format", format])
            #expect(compiled.status == 0)
            if format == "html" {
                #expect(result.stdout == compiled.stdout, "--templates with a copy changed the report")
            } else if Tool.usable("cmark-gfm") {
                #expect(
                    try MarkdownCheck.gfm(result.output, unsafe: true)
                        == MarkdownCheck.gfm(compiled.output, unsafe: true),
                    "--templates with a copy changed what the Markdown report reads as")
            }
        }
    }
}

extension TemplateOptionTests {
    /// `{{> footer}}` includes the folder's `footer.mustache`, as Templates/README.md says.
    ///
    /// It rendered nothing. A partial with no file is a template error, exit 78, at its tag.
    @Test func aPartialIsTheFolderFileOfItsName() throws {
        let html = "{{% CONTENT_TYPE: DETOUR_HTML}}\n<h1>{{title}}</h1>\n{{> footer}}\n"
        let templates = try folder(html: html)
        let missing = try render(templates)
        #expect(missing.status == 78)
        #expect(
            missing.stderr.contains("report.html.mustache:3:1: error: no template footer.mustache"), "\(missing.stderr)"
        )
        try Data("{{% CONTENT_TYPE: DETOUR_HTML}}<footer>for {{title}}</footer>".utf8).write(
            to: URL(fileURLWithPath: templates).appendingPathComponent("footer.mustache"))
        let result = try render(templates)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("<footer>for Lisbon in December</footer>"))
    }
}
