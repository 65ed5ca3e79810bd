/// What a render job can write for a trip: a report, the HTML report printed to PDF, an export of
/// its plan (a calendar, a map), or the trip itself as GPX.
public enum OutputFormat: String, CaseIterable, Sendable {
    case html
    case markdown
    case json
    /// The HTML report printed by a browser engine (`DetourJob`'s `PagePrinter`).
    case pdf
    case gpx
    case ics
    case geojson

    /// The format a file name's extension implies: `.html`/`.htm`, `.md`/`.markdown`, `.json`,
    /// `.gpx`, `.ics`, `.geojson`, `.pdf`.
    public init?(fileName: String) {
        if let report = ReportFormat(fileName: fileName) {
            self.init(rawValue: report.rawValue)
        } else if let export = ExportFormat(fileName: fileName) {
            self.init(rawValue: export.rawValue)
        } else if fileName.lowercased().hasSuffix(".gpx") {
            self = .gpx
        } else if fileName.lowercased().hasSuffix(".pdf") {
            self = .pdf
        } else {
            return nil
        }
    }

    /// The format a user names: its raw value, or `md` for Markdown, in any case.
    public init?(name: String) {
        let lowered = name.lowercased()
        self.init(rawValue: lowered == "md" ? OutputFormat.markdown.rawValue : lowered)
    }

    /// The report format, or `nil` for an export or GPX.
    public var report: ReportFormat? { ReportFormat(rawValue: rawValue) }

    /// The export format, or `nil` for a report or GPX.
    public var export: ExportFormat? { ExportFormat(rawValue: rawValue) }

    /// What a link to a file in this format says: `HTML`, `Markdown`, `iCalendar`.
    public var label: String {
        switch self {
        case .html: "HTML"
        case .markdown: "Markdown"
        case .json: "JSON"
        case .pdf: "PDF"
        case .gpx: "GPX"
        case .ics: "iCalendar"
        case .geojson: "GeoJSON"
        }
    }

    /// The extension of a file in this format, without the dot.
    public var fileExtension: String {
        switch self {
        case .markdown: return "md"
        case .html, .json, .gpx, .ics, .geojson, .pdf: return rawValue
        }
    }
}

extension OutputFormat {
    /// The formats made without a browser: every one but PDF.
    ///
    /// The server offers these.
    public static let withoutBrowser = allCases.filter { $0 != .pdf }
}
