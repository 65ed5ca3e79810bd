import DetourRender
import Testing

@testable import DetourServer

/// The diagnostics' sections as HTML: the part of Markdown `docs/diagnostics.md` writes in.
@Suite struct DiagnosticDocsTests {
    @Test func everyConstructBecomesItsElementAndTextStaysText() {
        let section = """
            some-code

            **Severity:** warning, with `code <b>` and **bold** and [a link](other.md#x).

            - a first item
              that goes on
            - a second with `code`
            A paragraph after the list.

            | left | right |
            | :--- | ---: |
            | `a` | <i>b</i> |
            Text after the table, with an unclosed `tick.

            ```
            <script>alert(1)</script>
            ```
            """
        let html = Self.html(section)
        #expect(html.contains("<h1><code>some-code</code></h1>\n<p>"), "\(html)")
        #expect(
            html.contains(
                "<p><strong>Severity:</strong> warning, with <code>code &lt;b&gt;</code> and <strong>bold</strong> and a link.</p>"
            ), "\(html)")
        #expect(
            html.contains("<ul>\n<li>a first item that goes on</li>\n<li>a second with <code>code</code></li>\n</ul>"))
        #expect(html.contains("<p>A paragraph after the list.</p>"))
        #expect(html.contains("<thead><tr><th>left</th><th>right</th></tr></thead>"))
        #expect(html.contains("<tr><td><code>a</code></td><td>&lt;i&gt;b&lt;/i&gt;</td></tr>"))
        #expect(html.contains("<p>Text after the table, with an unclosed `tick.</p>"))
        #expect(html.contains("<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>"))
        #expect(!html.contains("<script>") && !html.contains("<i>"))
    }

    /// The runs of a line: plain text joined, an unclosed tick kept, empty bold left out.
    @Test func aLineIsItsRuns() {
        #expect(
            DiagnosticDocs.spans("a `b` **c** [d](e) `f") == [
                DocSpanModel("a "), DocSpanModel("b", .code), DocSpanModel(" "), DocSpanModel("c", .bold),
                DocSpanModel(" d `f"),
            ])
        #expect(DiagnosticDocs.spans("****x**") == [DocSpanModel("x")])
        #expect(DiagnosticDocs.model("").blocks.isEmpty)
    }

    /// The page of `section`: what its template writes.
    static func html(_ section: String) -> String {
        String(decoding: DiagnosticDocs.page("some-code", section: section, bar: nil), as: UTF8.self)
    }

    @Test func everyRealSectionReadsWithoutMarkdownLeft() throws {
        for code in ["wrong-type", "bad-email", "task-far-from-stay", "gpx-no-trip", "report-differs"] {
            let section = try #require(DiagnosticDocs.section(code))
            let html = Self.html(section)
            for markdown in ["```", "**", "| ---"] {
                #expect(!html.contains(markdown), "\(code): \(markdown)")
            }
        }
    }
}
