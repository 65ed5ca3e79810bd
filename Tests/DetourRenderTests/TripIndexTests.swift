import DetourCore
import DetourRender
import DetourTestSupport
import Foundation
import Mustache
import Testing

/// The index of a batch run: its JSON reads back, its templates use only what the model has.
@Suite struct TripIndexTests {
    static let index = TripIndex(entries: [
        .init(
            source: "trips/b.json", name: "b", status: .written, title: "B <&> \"trip\"", firstDay: "2026-12-01",
            lastDay: "2026-12-05", stays: 1, warnings: 2,
            reports: [.init(format: .output(.html), file: "b.html"), .init(format: .output(.markdown), file: "b.md")]),
        .init(
            source: "trips/a b#1.json", name: "a b#1", status: .invalid,
            firstError: "1:11: error: title: must be a string [wrong-type]"),
        .init(source: "gone.json", name: "gone", status: .unreadable, firstError: "error: cannot read the trip"),
    ])

    @Test func entriesAreSortedByNameAndCounted() {
        #expect(Self.index.entries.map(\.name) == ["a b#1", "b", "gone"])
        #expect(Self.index.summary == "1 written, 1 invalid, 1 unreadable")
        var failed = Self.index
        failed.entries[1].status = .failed
        #expect(failed.summary == "0 written, 1 invalid, 1 unreadable, 1 failed")
    }

    @Test func linksArePercentEncodedAndUserTextEscaped() throws {
        let templates = try ReportTemplates.bundled.get()
        let html = templates.renderIndex(Self.index, as: .html)
        #expect(html.contains("B &lt;&amp;&gt; &quot;trip&quot;"))
        #expect(html.contains("<a href=\"b.html\">HTML</a><a href=\"b.md\">Markdown</a>"))
        #expect(html.contains("<span class=\"status invalid\">invalid</span>"))
        let markdown = templates.renderIndex(Self.index, as: .markdown)
        #expect(markdown.contains("[Markdown](b.md)"))
        // In a cell only `|` would need its escape; `#` is text past a line's start.
        #expect(markdown.contains("| trips/a b#1.json |"), "\(markdown)")
        #expect(templates.warnings.isEmpty)
    }

    /// The compiled index templates write what the template engine writes for them: the same
    /// HTML, and Markdown that reads the same (through the engine a value's place is unknown, so
    /// it may hold more escapes).
    @Test(arguments: [ReportFormat.html, .markdown])
    func theCompiledIndexMatchesTheTemplateEngine(_ format: ReportFormat) throws {
        let compiled = try ReportTemplates.builtIn(ReportTemplates.indexNames)
        let interpreted = try ReportTemplates.bundled.get()
        #expect(compiled.isCompiled && !interpreted.isCompiled)
        for index in [Self.index, TripIndex(entries: [])] {
            let fromCompiled = compiled.renderIndex(index, as: format)
            let fromEngine = interpreted.renderIndex(index, as: format)
            guard format == .markdown else {
                #expect(fromCompiled == fromEngine)
                continue
            }
            try EscapingTests.expectSameReading(fromCompiled, fromEngine)
        }
    }

    /// Every key the index templates may use is one the index model answers.
    @Test func theCheckKnowsTheIndexModelsKeys() throws {
        var check = ModelKeyCheck()
        check.visit(IndexModel(Self.index), as: .object(.index), at: "index")
        #expect(check.unanswered == [])
        #expect(check.visited == ["IndexModel", "IndexRowModel", "IndexLinkModel"])
    }

    /// Each kind of link says what it is in words, and is written in `index.json` under a name
    /// that reads back as the same kind; an output's name is its format's.
    @Test func eachLinkKindHasItsWordsAndItsName() {
        let kinds = OutputFormat.allCases.map(TripIndex.LinkKind.output) + [.preview, .feed, .webcal]
        #expect(
            kinds.map { "\($0.rawValue)=\($0.label)" } == [
                "html=HTML", "markdown=Markdown", "json=JSON", "pdf=PDF", "gpx=GPX", "ics=iCalendar",
                "geojson=GeoJSON", "preview=Preview", "feed=Feed", "webcal=Subscribe",
            ])
        for kind in kinds { #expect(TripIndex.LinkKind(rawValue: kind.rawValue) == kind) }
        #expect(TripIndex.LinkKind(rawValue: "md") == nil)
    }
}
