import DetourJob
import DetourTemplates
import Testing

@testable import DetourRender

/// The template check on the rarer shapes a `--templates` folder may hold: layouts with blocks,
/// partials named by a value, dotted names and transforms, and a walk too large to finish.
@Suite struct TemplateCheckPathTests {
    /// The warnings for `report.html.mustache` set to `html`, with other files beside it.
    func warnings(_ html: String, with others: [String: String] = [:]) throws -> [String] {
        var files = BundledTemplates.files.merging(others) { $1 }
        files[ReportTemplates.htmlName] = "{{% CONTENT_TYPE: DETOUR_HTML}}" + html
        return try ReportTemplates(files: files).warnings.map { DiagnosticText.line($0.diagnostic, file: $0.file) }
    }

    /// A layout (`{{<layout}}`) is walked from where it is used, and so is each block given to it.
    @Test func aLayoutAndItsBlocksAreCheckedWhereTheyAreUsed() throws {
        let layout = "{{% CONTENT_TYPE: DETOUR_HTML}}<h1>{{titel}}</h1>{{$body}}{{/body}}"
        #expect(
            try warnings("{{<layout}}{{$body}}<p>{{nmae}}</p>{{/body}}{{/layout}}", with: ["layout": layout]) == [
                "layout:1:36: warning: 'titel' is not a value of the report here: it renders as nothing [template-unknown-key]",
                "report.html.mustache:1:55: warning: 'nmae' is not a value of the report here: it renders as nothing [template-unknown-key]",
            ])
    }

    /// A layout that uses itself is the same cycle as a partial that includes itself.
    @Test func aLayoutThatUsesItselfIsRefused() {
        #expect(throws: ReportTemplates.LoadError.self) {
            try warnings("{{<layout}}{{/layout}}", with: ["layout": "{{<layout}}{{/layout}}"])
        }
    }

    @Test func aPartialNamedByAValueIsRefusedWhereverItStands() {
        #expect(
            throws: ReportTemplates.LoadError.invalid(
                name: ReportTemplates.htmlName, line: 1, column: 45,
                reason:
                    "a partial named by a value ({{>*name}}) is not supported: the trip's text would choose the template"
            )
        ) {
            try warnings("{{#sections}}{{>*title}}{{/sections}}")
        }
    }

    /// Names are looked up as the engine looks them up: dotted, from the innermost context only
    /// with a leading dot, a position only inside a list, and transforms only where they apply.
    @Test(arguments: [
        ("{{#sections}}{{#first(destinations)}}{{name}}{{/first(destinations)}}{{/sections}}", false),
        ("{{#sections}}{{#last(destinations)}}{{name}}{{/last(destinations)}}{{/sections}}", false),
        ("{{#overview}}{{.hasStays}}{{/overview}}", false),
        ("{{first()}}", true),
        ("{{title.length}}", true),
        ("{{count(title)}}", true),
        ("{{#sections}}{{.title}}{{/sections}}", true),
    ])
    func namesAreFoundAsTheEngineFindsThem(template: String, unknown: Bool) throws {
        let found = try warnings(template).contains { $0.contains("[template-unknown-key]") }
        #expect(found == unknown, "\(template)")
    }

    /// Partials that include each other ten times over, nine deep, would take a billion steps to
    /// walk; the walk stops after its budget, and the templates still load.
    @Test func aWalkTooLargeToFinishStopsItsBudgetShort() throws {
        var others: [String: String] = [:]
        for level in 1...9 {
            others["p\(level)"] = String(repeating: "{{> p\(level + 1)}}", count: 10)
        }
        others["p10"] = "{{title}}"
        #expect(try warnings("{{> p1}}", with: others).allSatisfy { !$0.contains("error") })
    }
}

extension TemplateCheckPathTests {
    /// A partial that names no template rendered nothing, without a word; it is refused at its tag.
    @Test func aPartialThatNamesNoTemplateIsRefused() throws {
        #expect(
            throws: ReportTemplates.LoadError.invalid(
                name: ReportTemplates.htmlName, line: 1, column: 35,
                reason:
                    "no template footer.mustache for {{> footer}} in the folder: a partial names a file there, without .mustache"
            )
        ) {
            try warnings("<p>{{> footer}}</p>")
        }
        #expect(try warnings("<p>{{> footer}}</p>", with: ["footer": "{{% CONTENT_TYPE: DETOUR_HTML}}{{title}}"]) == [])
    }
}
