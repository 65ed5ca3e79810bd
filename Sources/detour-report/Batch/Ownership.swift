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

    /// Why a file the last run wrote into the folder is not written now.
    enum StaleReason: Int, CaseIterable, Comparable {
        /// The trip is still rendered, but not in this report's format (or, for `index.md`,
        /// with no Markdown report).
        case formatDropped
        /// No trip of this run has the report's name: the trip was removed or renamed.
        case tripGone
        /// The trip is still there, but invalid or unreadable now.
        case tripInvalid
        /// A part of the index that an earlier run in parts wrote (`index.K-of-N.json`).
        case indexPart

        /// The reason of many files: `formats no longer asked for`.
        var plural: String {
            switch self {
            case .formatDropped: return "formats no longer asked for"
            case .tripGone: return "trips removed or renamed"
            case .tripInvalid: return "trips now invalid or unreadable"
            case .indexPart: return "parts of an index written in shards"
            }
        }

        /// The reason of one file, after "no trip writes this report now: ".
        var single: String {
            switch self {
            case .formatDropped: return "its format is no longer asked for"
            case .tripGone: return "its trip was removed or renamed"
            case .tripInvalid: return "its trip is now invalid or unreadable"
            case .indexPart: return "it is a part of an index written in shards"
            }
        }

        /// The reason of one file among others: `a format no longer asked for`.
        var one: String {
            switch self {
            case .formatDropped: return "a format no longer asked for"
            case .tripGone: return "a trip removed or renamed"
            case .tripInvalid: return "a trip now invalid or unreadable"
            case .indexPart: return "a part of an index written in shards"
            }
        }

        static func < (lhs: StaleReason, rhs: StaleReason) -> Bool { lhs.rawValue < rhs.rawValue }

        /// How many files went for which reasons: `formats no longer asked for` when all went
        /// for one, else `5 for formats no longer asked for, 1 for a trip removed or renamed`.
        static func phrase(_ reasons: [StaleReason]) -> String {
            let counts = Dictionary(grouping: reasons) { $0 }.map { ($0.key, $0.value.count) }.sorted { $0.0 < $1.0 }
            let words = { (reason: StaleReason, count: Int) in count == 1 ? reason.one : reason.plural }
            guard counts.count > 1 else { return counts.map(words).joined() }
            return counts.map { "\($0.1) for \(words($0.0, $0.1))" }.joined(separator: ", ")
        }
    }

    /// A report the last run wrote that this one does not, and why.
    struct StaleReport: Equatable {
        /// Its path, relative to the folder.
        var file: String
        var reason: StaleReason
    }

    /// The reports (paths relative to the folder) that `previous` lists and `now` does not,
    /// each with its reason.
    ///
    /// Those are what a run into the folder leaves behind. A trip whose PDF failed this time
    /// (`failed`) keeps its earlier reports, as a single run keeps the old file.
    static func staleReports(previous: [TripIndex.Entry], now: [TripIndex.Entry]) -> [StaleReport] {
        let written = Set(now.flatMap { $0.reports.map(\.file) })
        let status = Dictionary(now.map { ($0.name, $0.status) }) { first, _ in first }
        var seen: Set<String> = []
        var stale: [StaleReport] = []
        for entry in previous where status[entry.name] != .failed {
            let reason: StaleReason =
                switch status[entry.name] {
                case nil: .tripGone
                case .written?, .valid?: .formatDropped
                default: .tripInvalid
                }
            for report in entry.reports where !written.contains(report.file) && seen.insert(report.file).inserted {
                stale.append(StaleReport(file: report.file, reason: reason))
            }
        }
        return stale
    }

    /// Removes each of `reports` from `folder` that is still a regular file there, reached
    /// through real folders only (never through a link, which could lead out of the folder);
    /// returns the reasons of those removed.
    @discardableResult
    static func remove(_ reports: [StaleReport], from folder: FilePath) -> [StaleReason] {
        var removed: [StaleReason] = []
        for report in reports where isOwnFile(report.file, in: folder) {
            fileStore.remove(folder.appending(report.file))
            removed.append(report.reason)
        }
        return removed
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
