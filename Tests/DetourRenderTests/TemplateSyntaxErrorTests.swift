import DetourTemplates
import Mustache
import Testing

@testable import DetourRender

/// A `--templates` file that does not parse is refused with its line, its column and a sentence
/// that says what to fix, for every kind of mistake.
@Suite struct TemplateSyntaxErrorTests {
    @Test(arguments: [
        ("{{#a}}{{/b}}", 1, 10, "a closing tag {{/…}} does not match the section it closes"),
        ("x\n  {{a", 2, 6, "a tag is not finished: {{ needs its matching }}"),
        ("{{#a}}", 1, 7, "a section is not closed: {{#a}} needs a {{/a}}"),
        ("{{=<%=}}", 1, 1, "a {{=<% %>=}} delimiter change is badly written"),
        ("{{<a}}{{b}}{{/a}}", 1, 18, "only {{$block}} sections may stand inside {{<partial}}"),
        ("{{% CONTENT_TYPE }}", 1, 18, "a {{% … }} pragma is badly written"),
        ("{{% FOO: bar}}", 1, 15, "a {{% … }} pragma names a setting the engine does not know"),
    ])
    func aTemplateThatDoesNotParseIsRefusedWithItsPlace(text: String, line: Int, column: Int, reason: String) {
        var files = BundledTemplates.files
        files[ReportTemplates.htmlName] = text
        #expect(
            throws: ReportTemplates.LoadError.invalid(
                name: ReportTemplates.htmlName, line: line, column: column, reason: reason)
        ) {
            try ReportTemplates(files: files)
        }
    }

    /// The reader refuses what the engine refuses, so the engine's own errors are only a
    /// safeguard; should one come, it is put as a sentence, never as the engine's case name.
    @Test(arguments: [
        (MustacheTemplate.Error.sectionCloseNameIncorrect, "does not match the section it closes"),
        (.unfinishedName, "a tag is not finished"),
        (.expectedSectionEnd, "a section is not closed"),
        (.invalidSetDelimiter, "delimiter change is badly written"),
        (.transformAppliedToInheritanceSection, "a transform cannot be applied to an inherited section"),
        (.illegalTokenInsideInheritSection, "only {{$block}} sections may stand inside {{<partial}}"),
        (.textInsideInheritSection, "text may not stand inside {{<partial}}"),
        (.invalidConfigVariableSyntax, "pragma is badly written"),
        (.unrecognisedConfigVariable, "names a setting the engine does not know"),
    ])
    func theEnginesErrorsReadAsSentences(error: MustacheTemplate.Error, sentence: String) {
        #expect(ReportTemplates.explain(error).contains(sentence))
    }
}
