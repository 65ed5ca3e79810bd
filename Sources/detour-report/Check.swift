import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourJob
import Foundation
import SystemPackage

/// `--check`: what rendering would write now, compared with the files on disk, writing nothing,
/// as `prettier --check` and `black --check` do for golden files kept in a repository.
enum Check {
    /// A file on disk that is not what rendering writes now.
    struct Difference: Equatable {
        enum Kind: Equatable {
            /// The file is not there.
            case missing
            /// The file differs, first on `line` (1-based), whose two versions are given.
            case differs(line: Int, onDisk: String, now: String)
            /// No trip writes the file any more, for `reason`: a run would remove it.
            case extra(Ownership.StaleReason)
        }

        var path: String
        var kind: Kind
    }

    /// How `now` differs from the file at `path`, or `nil` when the file holds exactly `now`.
    static func compare(_ now: [UInt8], withFileAt path: FilePath) -> Difference? {
        guard let onDisk = try? fileStore.contents(of: path, limit: Int.max) else {
            return Difference(path: path.string, kind: .missing)
        }
        guard onDisk != now else { return nil }
        let (line, old, new) = firstDifferingLine(onDisk, now)
        return Difference(path: path.string, kind: .differs(line: line, onDisk: old, now: new))
    }

    /// The first line on which `old` and `new` differ (1-based), and that line of each, without
    /// its line break (empty past a text's end).
    static func firstDifferingLine(_ old: [UInt8], _ new: [UInt8]) -> (Int, String, String) {
        let lines = { (bytes: [UInt8]) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) }
        let oldLines = lines(old)
        let newLines = lines(new)
        var index = 0
        while index < oldLines.count, index < newLines.count, oldLines[index] == newLines[index] { index += 1 }
        let text = { (lines: [ArraySlice<UInt8>]) in
            index < lines.count ? Quoting.printable(String(decoding: lines[index], as: UTF8.self)) : ""
        }
        return (index + 1, text(oldLines), text(newLines))
    }

    /// Prints each difference, then what the check found: `plan.html differs` for the one
    /// report of `file`, else the reports of a folder counted (`5 reports up to date, 1 differs,
    /// 6 would be removed: formats no longer asked for`); the exit code: 1 when any differs.
    static func report(
        _ differences: [Difference], checked count: Int, printer: DiagnosticPrinter, file: String? = nil
    ) -> ExitCode {
        for difference in differences {
            switch difference.kind {
            case .missing:
                printer.report(.reportDiffers, "the report is missing", file: difference.path)
            case .extra(let reason):
                printer.report(
                    .reportDiffers, "no trip writes this report now: \(reason.single)", file: difference.path)
            case .differs(let line, let onDisk, let now):
                let diagnostic = Diagnostic(
                    .reportDiffers, at: SourcePosition(line: line),
                    "the report differs from what render writes now, first on this line")
                printer.print([diagnostic], file: difference.path)
                if printer.format == .text {
                    StandardStreams.writeError("  on disk: \(onDisk)\n  now:     \(now)\n")
                }
            }
        }
        if printer.format == .text {
            StandardStreams.writeError(summary(differences, checked: count, file: file) + "\n")
        }
        return differences.isEmpty ? ExitCodes.success : ExitCodes.differs
    }

    /// The last line of a check: what became of the `count` reports checked and of the files a
    /// run would remove, or of the one report of `file`.
    static func summary(_ differences: [Difference], checked count: Int, file: String? = nil) -> String {
        var differing = 0
        var missing = 0
        var removed: [Ownership.StaleReason] = []
        for difference in differences {
            switch difference.kind {
            case .missing: missing += 1
            case .differs: differing += 1
            case .extra(let reason): removed.append(reason)
            }
        }
        if let file {
            return missing > 0 ? "\(file) is missing" : differing > 0 ? "\(file) differs" : "\(file) is up to date"
        }
        let current = count - differing - missing
        var parts = ["\(current) \(current == 1 ? "report" : "reports") up to date"]
        if differing > 0 { parts.append("\(differing) \(differing == 1 ? "differs" : "differ")") }
        if missing > 0 { parts.append("\(missing) missing") }
        if !removed.isEmpty {
            parts.append("\(removed.count) would be removed: \(Ownership.StaleReason.phrase(removed))")
        }
        return parts.joined(separator: ", ")
    }

    /// The files under `folder`, relative to it, `/` between folders, sorted.
    static func files(under folder: FilePath) -> [String] {
        let root = URL(fileURLWithPath: folder.string)
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let path = url.standardizedFileURL.path
            let base = root.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            found.append(String(path.dropFirst(base.count + 1)))
        }
        return found.sorted()
    }

    /// Compares the reports rendered into `fresh` with those in `folder`.
    ///
    /// Every file `fresh` has must be in `folder` with the same bytes, and nothing a run would
    /// remove may be there: a report the folder's index lists that `fresh` does not write, an
    /// index page or part. Files no index lists are not the run's, and not compared.
    static func compare(folder: FilePath, with fresh: FilePath) -> (differences: [Difference], checked: Int) {
        let written = files(under: fresh)
        var differences: [Difference] = []
        for name in written {
            guard let now = try? fileStore.contents(of: fresh.appending(name), limit: Int.max) else { continue }
            if let difference = compare(now, withFileAt: folder.appending(name)) { differences.append(difference) }
        }
        let known = Set(written)
        let stale = Ownership.staleReports(
            previous: Ownership.previousIndex(in: folder), now: Ownership.previousIndex(in: fresh))
        for report in stale where Ownership.isOwnFile(report.file, in: folder) {
            differences.append(Difference(path: folder.appending(report.file).string, kind: .extra(report.reason)))
        }
        // The index pages and parts a run removes (Render.removeStaleIndexes).
        let pages = ((try? fileStore.entries(in: folder)) ?? []).map(\.name.string).filter(Render.isIndexFile)
        for name in pages.sorted() where !known.contains(name) {
            differences.append(
                Difference(path: folder.appending(name).string, kind: .extra(Render.staleIndexReason(name))))
        }
        return (differences, written.count)
    }
}
