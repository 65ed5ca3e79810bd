import DetourCore
import DetourIO
import DetourJob
import DetourMustacheSyntax
import DetourTemplateSchema
import DetourTemplates
import Foundation
import Mustache
import Testing

@testable import DetourRender

/// The built-in templates use only what the report model has, and escape all user text; the
/// check that says so is itself checked against the real model.
@Suite struct TemplateCheckTests {
    /// A trip that fills every part of the model: every section, a draft, pros and cons, a map
    /// with marks and a route, a traveler and a warning.
    static let trip = """
        {"title": "Everything", "traveler": "ana@example.org", "colour": "unknown key",
         "destinations": [
          {"name": "Lisbon", "location": {"lat": 38.7223, "lon": -9.1393},
           "arrival": "2026-12-01", "departure": "2026-12-05",
           "detours": [
            {"tasks": [
              {"name": "Ride Tram 28", "duration": "PT1H30M", "cost": {"amount": 3.10, "currency": "EUR"},
               "location": {"lat": 38.7139, "lon": -9.1334}, "pros": ["Iconic"], "cons": ["Crowded"],
               "path": [{"lat": 38.7223, "lon": -9.1393}, {"lat": 38.7139, "lon": -9.1334}]},
              {"name": "Walk the Alfama", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
               "location": {"lat": 38.7118, "lon": -9.1300}, "pros": ["Free"], "cons": ["Steep"]}]},
            {"tasks": [{"name": "Fado", "duration": "1h", "cost": {"amount": 5, "currency": "USD"}}]}
           ]},
          {"name": "Porto", "location": {"lat": 41.1579, "lon": -8.6291},
           "arrival": "2026-11-20", "departure": "2026-11-24"},
          {"name": "Faro", "location": {"lat": 37.0194, "lon": -7.9304},
           "arrival": "2026-11-01", "departure": "2026-11-04"}
         ]}
        """

    static func model() throws -> ReportModel {
        let outcome = TripLoader.load(Array(trip.utf8), format: .json)
        let loaded = try #require(outcome.trip, "\(outcome.diagnostics)")
        let today = try #require(CalendarDay(iso: "2026-11-22"))
        return ReportModel(plan: Planner.plan(loaded, today: today), warnings: outcome.diagnostics.warnings)
    }

    @Test func theBuiltInTemplatesUseOnlyKeysTheModelHasAndEscapeAllUserText() throws {
        let templates = try ReportTemplates.bundled.get()
        #expect(templates.warnings == [])
    }

    @Test(arguments: [ReportTemplates.htmlName, ReportTemplates.markdownName])
    func aMisspelledKeyInABuiltInTemplateIsFound(_ name: String) throws {
        var files = BundledTemplates.files
        let text = try #require(files[name])
        #expect(text.contains("{{{nights}}}"))
        files[name] = text.replacingOccurrences(of: "{{{nights}}}", with: "{{{nigths}}}")
        let warnings = try ReportTemplates(files: files).warnings
        // Once where the overview shows the trip's nights, once where each destination shows its own.
        #expect(warnings.count == text.components(separatedBy: "{{{nights}}}").count - 1)
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.file == name })
        #expect(
            warnings.allSatisfy { $0.message == "'nigths' is not a value of the report here: it renders as nothing" })
    }

    @Test func aKeyIsLookedUpInTheContextItIsUsedIn() throws {
        var files = BundledTemplates.files
        // `heading` is a section's, not a destination's; `name` inside the map is the destination's.
        files[ReportTemplates.htmlName] = """
            {{% CONTENT_TYPE: DETOUR_HTML}}
            {{heading}}{{#sections}}{{heading}}{{#destinations}}{{#map}}{{name}}{{{width}}}{{/map}}{{/destinations}}{{/sections}}
            {{#sections}}{{#destinations}}{{#detours}}{{#sides}}{{#pros}}{{.}}{{^last()}}, {{/last()}}{{/pros}}{{/sides}}{{/detours}}{{/destinations}}{{/sections}}
            {{^last()}}{{/last()}}{{sections.name}}{{title.x}}
            """
        let warnings = try ReportTemplates(files: files).warnings.map {
            DiagnosticText.line($0.diagnostic, file: $0.file)
        }
        #expect(
            warnings == [
                "report.html.mustache:2:1: warning: 'heading' is not a value of the report here: it renders as nothing [template-unknown-key]",
                "report.html.mustache:4:1: warning: 'last()' is not a value of the report here: the section never renders [template-unknown-key]",
                "report.html.mustache:4:23: warning: 'sections.name' is not a value of the report here: it renders as nothing [template-unknown-key]",
                "report.html.mustache:4:40: warning: 'title.x' is not a value of the report here: it renders as nothing [template-unknown-key]",
            ])
    }

    @Test func userTextInAListOrAfterATransformIsStillUserText() throws {
        var files = BundledTemplates.files
        files[ReportTemplates.htmlName] = """
            {{% CONTENT_TYPE: DETOUR_HTML}}
            {{{uppercased(title)}}}{{{count(sections)}}}{{#sections}}{{#destinations}}{{#detours}}{{#sides}}{{{pros}}}{{/sides}}{{/detours}}{{/destinations}}{{/sections}}
            """
        let warnings = try ReportTemplates(files: files).warnings.map {
            DiagnosticText.line($0.diagnostic, file: $0.file)
        }
        #expect(
            warnings == [
                "report.html.mustache:2:1: warning: 'uppercased(title)' is written unescaped: user text would reach the page raw [template-unescaped]",
                "report.html.mustache:2:97: warning: 'pros' is written unescaped: user text would reach the page raw [template-unescaped]",
            ])
    }

    @Test func aTemplateWithoutItsContentTypeIsWarnedAboutAtItsFirstUserText() throws {
        var files = BundledTemplates.files
        files[ReportTemplates.markdownName] = "Plan as of {{today}}\n# {{title}}\n"
        let warnings = try ReportTemplates(files: files).warnings.map {
            DiagnosticText.line($0.diagnostic, file: $0.file)
        }
        #expect(
            warnings == [
                "report.md.mustache:2:3: warning: no {{% CONTENT_TYPE: DETOUR_MARKDOWN}} before this: user text would reach the page raw [template-unescaped]"
            ])
    }

    @Test func partialsIncludedWithoutACycleAreAllowedUpToTheLimit() throws {
        var files = BundledTemplates.files
        files[ReportTemplates.htmlName] = "{{% CONTENT_TYPE: DETOUR_HTML}}{{> p1}}"
        for level in 1...TemplateCheck.maxIncludeDepth {
            files["p\(level)"] = "{{% CONTENT_TYPE: DETOUR_HTML}}{{title}}{{> p\(level + 1)}}"
        }
        files["p\(TemplateCheck.maxIncludeDepth)"] = "{{% CONTENT_TYPE: DETOUR_HTML}}{{title}}"
        #expect(try ReportTemplates(files: files).warnings == [])
        files["p\(TemplateCheck.maxIncludeDepth)"] =
            "{{% CONTENT_TYPE: DETOUR_HTML}}{{title}}{{> p\(TemplateCheck.maxIncludeDepth + 1)}}"
        files["p\(TemplateCheck.maxIncludeDepth + 1)"] = "{{title}}"
        #expect(throws: ReportTemplates.LoadError.self) { try ReportTemplates(files: files) }
    }

    @Test func sectionsAroundAnIncludeCountTowardsTheNestingLimit() throws {
        var files = BundledTemplates.files
        let half = MustacheParser.maxNesting / 2
        let nest = { (inner: String) in
            String(repeating: "{{#a}}", count: half) + inner + String(repeating: "{{/a}}", count: half)
        }
        files["inner"] = nest("")
        files[ReportTemplates.htmlName] = "{{% CONTENT_TYPE: DETOUR_HTML}}\n" + nest("{{> inner}}")
        #expect(
            throws: ReportTemplates.LoadError.invalid(
                name: ReportTemplates.htmlName, line: 2, column: 301,
                reason: "sections nest deeper than 100 levels with inner included here")
        ) {
            try ReportTemplates(files: files)
        }
        files["inner"] = String(repeating: "{{#a}}", count: half - 2) + String(repeating: "{{/a}}", count: half - 2)
        #expect(try ReportTemplates(files: files).warnings.contains { $0.message.contains("'a'") })
    }

    /// Every key the check knows is one the model answers, with a value of that kind.
    @Test func theCheckKnowsTheModelsKeys() throws {
        var check = ModelKeyCheck()
        check.visit(try Self.model(), as: .object(.report), at: "report")
        #expect(check.unanswered == [])
        let scopes: [TemplateScope] = [
            .report, .section, .destination, .map, .mark, .detour, .side, .warning, .overview, .stayRow, .stayPlan,
            .scheduleDay,
        ]
        #expect(check.visited == Set(scopes.map(\.name)), "the trip leaves a part of the model empty")
    }
}

/// Walks a model as a template would, by the check's table of keys, noting every key the model
/// does not answer or answers with a value of another kind.
struct ModelKeyCheck {
    var unanswered: [String] = []
    var visited: Set<String> = []

    mutating func visit(_ value: Any, as expected: TemplateValue, at path: String) {
        switch expected {
        case .text:
            if !(value is String) { unanswered.append("\(path) is not text") }
        case .flag:
            if !(value is Bool) { unanswered.append("\(path) is not a flag") }
        case .number:
            if !(value is Int) { unanswered.append("\(path) is not a number") }
        case .position:
            unanswered.append("\(path) is a position")
        case .list(let element):
            guard let list = value as? [Any] else { return unanswered.append("\(path) is not a list") }
            for (index, item) in list.enumerated() { visit(item, as: element, at: "\(path)[\(index)]") }
        case .object(let scope):
            guard let parent = value as? MustacheParent else { return unanswered.append("\(path) has no keys") }
            visited.insert(scope.name)
            for (key, kind) in scope.keys.sorted(by: { $0.key < $1.key }) {
                guard let child = parent.child(named: key) else {
                    unanswered.append("\(scope.name).\(key) at \(path)")
                    continue
                }
                visit(child, as: kind, at: "\(path).\(key)")
            }
        }
    }
}
