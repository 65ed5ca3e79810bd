import DetourCore
import DetourRender
import DetourTemplateSchema
import DetourTestSupport
import Foundation
import Testing

/// Every value of the report model, for every sample, as a template sees it, compared with a
/// golden file: a `--templates` user may read any key of the schema, so a value the built-in
/// templates happen not to show (a flag, a page break, a second figure) is held to its golden
/// too.
///
/// The dump template is made from TemplateSchema.swift itself, so a key added there is dumped
/// without a change here.
@Suite struct ModelDumpTests {
    static let goldens = GoldenReportTests.goldens

    /// A template that writes every key of `scope`, one per line, nested objects and lists
    /// indented by their path.
    static func dump(_ scope: TemplateScope, path: String = "") -> String {
        var template = ""
        for (key, value) in scope.keys.sorted(by: { $0.key < $1.key }) {
            let name = path + key
            switch value {
            case .text, .number:
                template += "\(name)={{{\(key)}}}\n"
            case .flag:
                template += "\(name)={{#\(key)}}yes{{/\(key)}}{{^\(key)}}no{{/\(key)}}\n"
            case .position:
                continue
            case .list(.object(let inner)):
                template += "\(name)[{{#\(key)}}\n\(dump(inner, path: name + "[]."))--\n{{/\(key)}}]\n"
            case .list:
                template += "\(name)=[{{#\(key)}}{{{.}}}|{{/\(key)}}]\n"
            case .object(let inner):
                template += "{{#\(key)}}\n\(dump(inner, path: name + "."))\n{{/\(key)}}"
            }
        }
        return template
    }

    static func renderer(report: String, index: String) throws -> ReportTemplates {
        try ReportTemplates(files: [
            ReportTemplates.htmlName: report, ReportTemplates.markdownName: report,
            ReportTemplates.indexHTMLName: index,
            ReportTemplates.indexMarkdownName: index,
        ])
    }

    @Test(arguments: Fixtures.sampleTrips())
    func everyValueOfTheReportModelMatchesItsGoldenFile(_ sample: String) throws {
        let templates = try Self.renderer(report: Self.dump(.report), index: Self.dump(.index))
        let (plan, warnings) = try RenderFixture.plan(Fixtures.sample(sample))
        let dump = ReportRenderer(templates: templates).render(plan, warnings: warnings, as: .html)
        #expect(dump.contains("sections[].destinations[].detours[].sides[].hasDistance="))
        let url = Self.goldens.appendingPathComponent(GoldenReportTests.goldenName(sample, "model.txt"))
        if let failure = Golden.check(dump, against: url) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test func everyValueOfTheIndexModelMatchesItsGoldenFile() throws {
        let templates = try Self.renderer(report: Self.dump(.report), index: Self.dump(.index))
        var entries: [TripIndex.Entry] = []
        for sample in Fixtures.sampleTrips() {
            let (plan, _) = try RenderFixture.plan(Fixtures.sample(sample))
            let trip = plan.destinationsInFileOrder.map(\.destination)
            let name = String(sample.dropLast(5))
            entries.append(
                TripIndex.Entry(
                    source: "trips/\(sample)", name: name,
                    trip: Trip(title: plan.title, traveler: nil, destinations: trip), warnings: entries.count,
                    reports: [
                        .init(format: .output(.html), file: name + ".html"),
                        .init(format: .output(.json), file: name + ".json"),
                    ])
            )
        }
        entries.append(
            TripIndex.Entry(
                source: "trips/bad.json", name: "bad", status: .invalid, warnings: 1,
                firstError: "1:1: error: x [json-syntax]"))
        entries.append(
            TripIndex.Entry(source: "trips/gone.gpx", name: "gone", status: .unreadable, firstError: "error: gone"))
        let dump = templates.renderIndex(TripIndex(entries: entries), as: .html)
        if let failure = Golden.check(dump, against: Self.goldens.appendingPathComponent("index.model.txt")) {
            Issue.record(Comment(rawValue: failure))
        }
    }
}
