import DetourCore
import DetourIO
import DetourRender

/// Index files read back, for `detour-report index` and the server: the strict reader for the
/// shape, then every value checked against what a batch run writes, so an index file from
/// elsewhere cannot put a link off the site, markup into a page or a negative count into a table.
public enum IndexFiles {
    /// Why an index file cannot be used, and where.
    public typealias Failure = IndexJSONReader.Failure

    /// The trips of the index file in `bytes`.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> [TripIndex.Entry] {
        let document = try IndexJSONReader.read(bytes)
        guard document.format == TripIndex.format else {
            throw Failure(message: "its format is \(Quoting.quoted(document.format)), not \(TripIndex.format)")
        }
        var entries: [TripIndex.Entry] = []
        for trip in document.trips {
            entries.append(try entry(trip))
        }
        return entries
    }

    private static func entry(_ trip: IndexDocument.Trip) throws(Failure) -> TripIndex.Entry {
        let named = "trip \(Quoting.quoted(trip.name))"
        func refuse(_ what: String) -> Failure { Failure(message: "\(named): \(what)") }
        guard isReportName(trip.name) else {
            throw refuse("its name is not a relative path of plain names in the index's folder")
        }
        guard let status = TripStatus(rawValue: trip.status), status != .valid else {
            throw refuse("unknown status \(Quoting.quoted(trip.status))")
        }
        for (key, text) in [("source", trip.source), ("title", trip.title), ("first_error", trip.firstError)] {
            if let text, text.unicodeScalars.contains(where: Quoting.isUnprintable) {
                throw refuse("\(key) holds a control character, which detour-report never writes there")
            }
        }
        let days = [trip.firstDay, trip.lastDay].map { $0.map { CalendarDay(iso: $0) } }
        guard !days.contains(where: { $0 == .some(nil) }) else {
            throw refuse("first_day and last_day must be days, YYYY-MM-DD")
        }
        if case .some(.some(let first)) = days[0], case .some(.some(let last)) = days[1], last < first {
            throw refuse("its last day is before its first")
        }
        guard trip.warnings >= 0, (trip.stays ?? 0) >= 0 else { throw refuse("a count is negative") }
        var reports: [TripIndex.Entry.Report] = []
        for report in trip.reports {
            guard let format = OutputFormat(rawValue: report.format) else {
                throw refuse("unknown report format \(Quoting.quoted(report.format))")
            }
            // A report is NAME.EXT beside the index: never a link elsewhere.
            guard report.file == trip.name + "." + format.fileExtension else {
                throw refuse(
                    "its \(format.rawValue) report is \(Quoting.quoted(report.file)), not NAME.\(format.fileExtension)")
            }
            reports.append(TripIndex.Entry.Report(format: .output(format), file: report.file))
        }
        return TripIndex.Entry(
            source: trip.source, name: trip.name, status: status, title: trip.title, firstDay: trip.firstDay,
            lastDay: trip.lastDay, stays: trip.stays, warnings: trip.warnings, firstError: trip.firstError,
            reports: reports)
    }

    /// `lisbon`, `europe/oslo`: plain names joined by `/`, none empty, `.` or `..`, none holding a
    /// backslash, a colon or a control character.
    static func isReportName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && part != "." && part != ".."
                    && !part.unicodeScalars.contains { $0 == "\\" || $0 == ":" || Quoting.isUnprintable($0) }
            }
    }
}
