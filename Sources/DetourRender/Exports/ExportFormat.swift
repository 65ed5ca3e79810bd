import DetourCore

/// The formats other programs load a plan in: a calendar and a map.
///
/// Unlike a report, an export has no template and no warnings section: it is data for another
/// program, made from the plan alone.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// iCalendar (RFC 5545), for calendar programs.
    case ics
    /// GeoJSON (RFC 7946), for web maps and GIS programs.
    case geojson

    /// The format a file name's extension implies: `.ics`, `.geojson`.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        guard let format = ExportFormat.allCases.first(where: { lowered.hasSuffix("." + $0.fileExtension) }) else {
            return nil
        }
        self = format
    }

    /// The extension of a file in this format, without the dot.
    public var fileExtension: String { rawValue }

    /// `plan` in this format, as UTF-8 bytes.
    public func bytes(_ plan: Plan) -> [UInt8] {
        switch self {
        case .ics: return ICSExport.bytes(plan: plan)
        case .geojson: return GeoJSONExport.bytes(plan: plan)
        }
    }
}
