import DetourCommandLine
import DetourJob
import DetourRender
import SystemPackage

/// What a batch run owns in the folder it writes into: the reports its index lists.
///
/// The index (`index.json`) records every report a run wrote. The next run into the folder
/// removes those it no longer writes (a trip removed, renamed or now invalid, a format dropped
/// from `--format`), and `--check` reports the same files as extra: the two agree on what
/// belongs in the folder. A file no index lists (a README, a report written by hand) is never
/// touched, and the same list keeps a run from reading a previous run's reports as trips.
enum Ownership {
    /// The trips of the index a run left in `folder`, or none when there is no index there or
    /// it is not one detour-report wrote: then nothing in the folder is taken for its own.
    static func previousIndex(in folder: FilePath) -> [TripIndex.Entry] {
        guard let bytes = try? fileStore.contents(of: folder.appending("index.json"), limit: 256 << 20),
            let entries = try? IndexFiles.read(bytes)
        else { return [] }
        return entries
    }

    /// The reports (paths relative to the folder) that `previous` lists and `now` does not.
    ///
    /// Those are what a run into the folder leaves behind. A trip whose PDF failed this time
    /// (`failed`) keeps its earlier reports, as a single run keeps the old file.
    static func staleReports(previous: [TripIndex.Entry], now: [TripIndex.Entry]) -> [String] {
        let written = Set(now.flatMap { $0.reports.map(\.file) })
        let failed = Set(now.filter { $0.status == .failed }.map(\.name))
        var seen: Set<String> = []
        return previous.filter { !failed.contains($0.name) }.flatMap(\.reports).map(\.file).filter {
            !written.contains($0) && seen.insert($0).inserted
        }
    }

    /// Removes each of `reports` from `folder` that is still a regular file there, reached
    /// through real folders only (never through a link, which could lead out of the folder).
    static func remove(_ reports: [String], from folder: FilePath) {
        for report in reports where isOwnFile(report, in: folder) {
            fileStore.remove(folder.appending(report))
        }
    }

    /// Whether `name` (relative, `/` between folders) is a regular file in `folder`, each
    /// folder on the way a real folder.
    static func isOwnFile(_ name: String, in folder: FilePath) -> Bool {
        var path = folder
        let parts = name.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            path.append(part)
            let kind = (try? fileStore.info(path, followLinks: false))?.kind
            if kind != (index == parts.count - 1 ? .regular : .directory) { return false }
        }
        return !parts.isEmpty
    }

    /// Whether the first bytes of `path` are those of a detour-report output in JSON: a report
    /// (`detour-report/1`) or an index (`detour-report-index/1`), which no trip begins with.
    static func isReportJSON(_ path: FilePath) -> Bool {
        guard let file = try? fileStore.openForReading(path) else { return false }
        var head = [UInt8](repeating: 0, count: 128)
        let count = (try? head.withUnsafeMutableBytes { try file.read(into: $0) }) ?? 0
        // JSON's own whitespace, left out byte by byte: every trip file of a folder is looked at.
        let text = head.prefix(count).filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return reportHeads.contains { text.starts(with: $0) }
    }

    /// How a report and an index begin, without whitespace.
    private static let reportHeads = [JSONReport.formatName, TripIndex.format].map {
        Array("{\"format\":\"\($0)\"".utf8)
    }
}
