import DetourCore

/// The output formats of a report.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// One self-contained, printable HTML page.
    case html
    /// GitHub-flavoured Markdown.
    case markdown
    /// The `detour-report/1` JSON contract.
    case json

    /// The format a file name's extension implies: `.html`/`.htm`, `.md`/`.markdown`, `.json`.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".html") || lowered.hasSuffix(".htm") {
            self = .html
        } else if lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") {
            self = .markdown
        } else if lowered.hasSuffix(".json") {
            self = .json
        } else {
            return nil
        }
    }
}

/// Renders a plan in any format.
public struct ReportRenderer: Sendable {
    private let templates: ReportTemplates

    /// Creates a renderer that uses `templates` for HTML and Markdown.
    public init(templates: ReportTemplates) {
        self.templates = templates
    }

    /// The index of a folder's trips in `format`, from the index templates.
    public func renderIndex(_ index: TripIndex, as format: ReportFormat) -> String {
        templates.renderIndex(index, as: format)
    }

    /// The report of `plan` in `format`, with the trip file's warnings and then the plan's own.
    public func render(_ plan: Plan, warnings tripWarnings: [Diagnostic], as format: ReportFormat) -> String {
        var bytes: [UInt8] = []
        render(plan, warnings: tripWarnings, as: format) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The report, a chunk of about 64 KiB at a time, into `sink`: the bytes of
    /// ``render(_:warnings:as:)``, without ever holding the whole report, which for a large trip
    /// is several times the size of its file.
    public func render(
        _ plan: Plan, warnings tripWarnings: [Diagnostic], as format: ReportFormat, to sink: @escaping ReportSink
    ) {
        let warnings = tripWarnings + plan.warnings
        switch format {
        case .json:
            JSONReport.write(plan: plan, warnings: warnings, to: sink)
        case .html:
            templates.render(ReportModel(plan: plan, warnings: warnings), template: ReportTemplates.htmlName, to: sink)
        case .markdown:
            templates.render(
                ReportModel(plan: plan, warnings: warnings), template: ReportTemplates.markdownName, to: sink)
        }
    }
}
