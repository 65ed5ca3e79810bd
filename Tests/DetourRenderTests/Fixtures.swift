import DetourCore
import DetourIO
import DetourJob
import DetourRender
import DetourTestSupport
import Foundation
import Testing

enum CalendarDayFixture {
    static func day(_ text: String) -> CalendarDay? { CalendarDay(iso: text) }
}

enum CoordinateFixture {
    static func point(_ lat: Double, _ lon: Double) -> Coordinate? { Coordinate(latitude: lat, longitude: lon) }
}

/// Renders trips the way the CLI does, with the day fixed.
enum RenderFixture {
    /// The day every golden report is as of.
    static let today = CalendarDay(iso: "2026-11-22") ?? CalendarDay.unixEpoch

    /// The built-in templates compiled to Swift: what the CLI renders with.
    static let renderer: ReportRenderer? =
        (try? ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)).map(
            ReportRenderer.init)
    /// The same templates through the template engine: what `--templates` renders with.
    static let interpretingRenderer: ReportRenderer? = (try? ReportTemplates.bundled.get()).map(ReportRenderer.init)

    /// Which of the two renders a report.
    enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case compiled, interpreted
        var testDescription: String { rawValue }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The plan of a trip file's bytes as of `day`, with the file's warnings, or why there is none.
    static func plan(_ bytes: [UInt8], format: TripFormat = .json, today day: CalendarDay = today) throws -> (
        Plan, [Diagnostic]
    ) {
        let outcome = TripLoader.load(bytes, format: format)
        guard let trip = outcome.trip else {
            throw Failure(
                description: outcome.diagnostics.map { DiagnosticText.line($0, file: "trip") }.joined(separator: "\n"))
        }
        return (Planner.plan(trip, today: day), outcome.diagnostics.warnings)
    }

    /// The report of a trip file's bytes as of `day`, or why there is none.
    static func render(
        _ bytes: [UInt8], format: TripFormat = .json, as output: ReportFormat, engine: Engine = .compiled,
        today day: CalendarDay = today
    ) throws -> String {
        let (plan, warnings) = try plan(bytes, format: format, today: day)
        guard let renderer = engine == .compiled ? renderer : interpretingRenderer else {
            throw Failure(description: "the bundled templates do not compile")
        }
        return renderer.render(plan, warnings: warnings, as: output)
    }

    /// The export of a trip file's bytes as of `day`, as text.
    static func export(
        _ bytes: [UInt8], format: TripFormat = .json, as output: ExportFormat, today day: CalendarDay = today
    ) throws -> String {
        String(decoding: output.bytes(try plan(bytes, format: format, today: day).0), as: UTF8.self)
    }
}

extension ReportFormat {
    /// The golden file extension for this format.
    var goldenExtension: String {
        switch self {
        case .html: return "html"
        case .markdown: return "md"
        case .json: return "json"
        }
    }
}
