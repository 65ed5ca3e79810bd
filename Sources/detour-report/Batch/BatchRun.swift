import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every trip of a batch run shares: the job (compiled templates, options) and the output
/// folder.
struct BatchSettings: Sendable {
    var job: RenderJob
    /// The output folder, without a trailing `/`.
    var folder: FilePath
    /// The names in the output folder before the run wrote there, if it could be listed.
    var existing: Set<String>?
    var diagnostics: DiagnosticPrinter.Format
    /// `--all-warnings`.
    var allWarnings: Bool
}

/// What became of one trip.
struct BatchResult: Sendable {
    var entry: TripIndex.Entry
    /// Its diagnostics as the printer writes them, printed in input order.
    var messages: String
    /// 0, 65 (invalid), 66 (unreadable), 69 (a PDF not printed), 73 or 74 (a report not written).
    var exitCode: Int32
}

/// Renders the trips of a batch run on several threads.
///
/// Each trip is read, checked, planned and written by one worker, start to end; the output
/// bytes depend on the trip alone, so they are the same whatever the number of workers. Workers
/// take the next trip from a shared atomic counter, so a long trip does not hold up a queue, and
/// hand its result to the console, which prints the trips' messages in input order; no worker
/// ever waits for another.
enum BatchRun {
    /// Renders `jobs` with `workers` threads, reporting each trip to `console` as it ends; the
    /// calling thread runs `meanwhile` while they work.
    static func run(
        _ jobs: [BatchInputs.Job], settings: BatchSettings, workers: Int, console: BatchConsole,
        meanwhile: () -> Void = {}
    ) -> [BatchResult] {
        let results = console.results(count: jobs.count)
        Workers.forEach(jobs.count, workers: workers, meanwhile: meanwhile) { index in
            results.finish(index, process(jobs[index], settings: settings))
        }
        return results.all().compactMap { $0 }
    }

    /// Reads, checks, plans and writes one trip.
    static func process(_ job: BatchInputs.Job, settings: BatchSettings) -> BatchResult {
        let printer = DiagnosticPrinter(
            file: job.shown, format: settings.diagnostics, allWarnings: settings.allWarnings)
        if let reason = job.unlisted {
            // A folder of the input that could not be listed is a trip of the run that could not be read.
            let diagnostic = Diagnostic(.readFailed, "cannot list the folder: \(reason)")
            let entry = TripIndex.Entry(
                source: job.shown, name: job.name, status: .unreadable,
                firstError: DiagnosticText.lineWithoutFile(diagnostic))
            return BatchResult(
                entry: entry, messages: printer.text([diagnostic], file: job.shown),
                exitCode: ExitCodes.noInput.rawValue)
        }
        let rendered = settings.job.render(
            job.source, name: job.name, into: settings.folder, existing: settings.existing, store: fileStore)
        let messages = printer.text(rendered.diagnostics.map { ($0.diagnostic, $0.file) })
        let code: ExitCode =
            rendered.failure.map(CommandOutput.exitCode) ?? rendered.status.exitCode
        return BatchResult(entry: rendered.entry, messages: messages, exitCode: code.rawValue)
    }
}

/// Standard error during a batch run: each trip's diagnostics in input order, whatever order the
/// workers finish in, and on a terminal a progress line that updates in place.
final class BatchConsole: Sendable {
    private let total: Int
    private let showsProgress: Bool
    private let columns: Int

    init(total: Int, showsProgress: Bool) {
        self.total = total
        self.showsProgress = showsProgress
        // COLUMNS when the user sets it (as ls does), else the terminal's own width: shells
        // seldom export COLUMNS, and a line wider than the terminal wraps and no longer updates
        // in place.
        let width =
            ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }
            ?? SystemCalls.terminalColumns(STDERR_FILENO) ?? 80
        columns = max(20, width)
    }

    /// Where the workers put the results of `count` trips, printed from as they come due.
    func results(count: Int) -> InOrder<BatchResult> {
        InOrder(count: count) { handing in self.print(handing) }
    }

    /// Prints the messages of the trips now due, the next in input order, and the progress.
    private func print(_ handing: InOrder<BatchResult>.Handing) {
        var out = handing.due.map(\.messages).joined()
        if showsProgress {
            // Clear the line, print what is due, then draw the progress line again.
            out = "\r\u{1B}[K" + out + progressLine(done: handing.finished, source: handing.latest.entry.source)
        }
        if !out.isEmpty { StandardStreams.writeError(out) }
    }

    /// Removes the progress line before the summary.
    func end() {
        if showsProgress { StandardStreams.writeError("\r\u{1B}[K") }
    }

    /// `[ 37/200] trips/oslo.json`, cut from the left to fit the terminal, counted in the columns
    /// the terminal gives each character (two for `東`), not in characters.
    private func progressLine(done: Int, source: String) -> String {
        let width = String(total).count
        let count = String(repeating: " ", count: max(0, width - String(done).count)) + String(done)
        let prefix = "[\(count)/\(total)] "
        let room = columns - 1 - prefix.count
        return prefix + TerminalWidth.fitted(Quoting.printable(source), room: room)
    }
}
