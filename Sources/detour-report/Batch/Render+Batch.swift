import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourFiles
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

extension Render {
    /// The options of a batch run make sense only together with `-d`, and not with `-o`.
    func validateBatch() throws(ValidationError) {
        guard let outputDir else {
            if check, output == nil || output == "-" {
                throw ValidationError("--check needs -o FILE or -d DIR: the reports on disk to compare with")
            }
            let batchOnly = [
                ("-r", recursive), ("-j", jobs != nil), ("--shard", shard != nil), ("--quiet", quiet),
            ].filter(\.1).map(\.0)
            if let option = batchOnly.first {
                throw ValidationError("\(option) needs -d DIR: it sets how a folder of trips is rendered")
            }
            if inputs.count > 1 {
                throw ValidationError("several trips need -d DIR, a folder to write their reports into")
            }
            if (format?.formats.count ?? 0) > 1 {
                throw ValidationError("several formats need -d DIR: standard output or -o takes one report")
            }
            return
        }
        if output != nil {
            throw ValidationError("-o and -d cannot be used together: -d names each report after its trip")
        }
        if check, shard != nil {
            throw ValidationError("--check compares a whole run's reports; it cannot take --shard")
        }
        if outputDir.isEmpty { throw ValidationError("-d needs a folder") }
        if inputs.contains("-") {
            throw ValidationError("-d cannot read standard input (-): a report is named after its trip file")
        }
        if let jobs, !(1...1024).contains(jobs) {
            throw ValidationError("-j must be between 1 and 1024")
        }
        if let shard, BatchInputs.Shard(shard) == nil {
            throw ValidationError("--shard must be K/N with 0 <= K < N <= 100000, such as 0/4; got '\(shard)'")
        }
    }

    /// `render TRIP… -d OUT`: every trip into `OUT`, on `-j` threads, then the index and a summary;
    /// with `--check`, into a new temporary folder, compared with `OUT`.
    func runBatch() throws {
        guard let outputDir else { return }
        // FilePath drops the `/` a shell's completion leaves at the end of a folder.
        let folder = FilePath(outputDir)
        guard check else { return try runBatch(into: folder, summary: !quiet) }
        let printer = DiagnosticPrinter(file: "detour-report", format: trip.diagnostics)
        guard let fresh = TemporaryFolder.make("detour-check") else {
            printer.report(.cannotCreateOutput, "cannot make a temporary folder to render into")
            throw ExitCodes.cannotCreate
        }
        Interrupts.removeOnSignal(fresh)
        defer { TemporaryFolder.remove(fresh) }
        var batchCode = ExitCodes.success
        do {
            try runBatch(into: fresh, summary: false)
        } catch let code as ExitCode {
            // A clash or an unusable template: nothing to compare.
            if code == ExitCodes.usage || code == ExitCodes.badTemplates { throw code }
            batchCode = code
        }
        let (differences, checked) = Check.compare(folder: folder, with: fresh)
        let code = Check.report(differences, checked: checked, printer: printer)
        // An invalid or unreadable trip is the more serious news.
        if batchCode != ExitCodes.success { throw batchCode }
        if code != ExitCodes.success { throw code }
    }

    /// The batch run proper, into `folder`.
    func runBatch(into folder: FilePath, summary: Bool) throws {
        let printer = DiagnosticPrinter(file: "detour-report", format: trip.diagnostics)
        let formats = format?.formats ?? [.html]
        // The index's templates too: HTML always, Markdown with Markdown reports.
        let indexTemplates = formats.contains(.markdown) ? ReportTemplates.indexNames : [ReportTemplates.indexHTMLName]
        let (job, templates) = try job(formats: formats, alsoLoading: indexTemplates)
        let workers = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let inputs = BatchInputs(inputs, recursive: recursive, output: folder, workers: workers)
        inputs.warnOfMisspelled { trip.printer(file: $0) }
        let shard = shard.flatMap { BatchInputs.Shard($0) }

        // The names in the output folder, listed once: no worker then looks for a report that
        // is not there (see FolderRender), nor does the check below. A folder not there yet is
        // empty; one that cannot be listed is unknown.
        let existing: Set<String>?
        do {
            existing = Set(try fileStore.entries(in: folder).map(\.name.string))
        } catch {
            existing = error.isMissing ? [] : nil
        }

        // Every shard checks the whole list, so a clash stops each part of a job the same way.
        var clashes = inputs.clashes(extensions: formats.map(\.fileExtension))
        clashes += Render.outputsOverInputs(
            inputs.jobs, formats: formats, folder: folder, existing: existing, workers: workers)
        if !clashes.isEmpty {
            for message in clashes { printer.report(.outputNameClash, message) }
            throw ExitCodes.usage
        }
        LocalFileStore.prepareForThreads()
        LibXML2.prepareForThreads()
        do {
            try Folders.make(folder, store: fileStore)
        } catch {
            let reason = if case .cannotCreate(let cause) = error { cause.reason } else { "\(error)" }
            printer.report(.cannotCreateOutput, "cannot create the folder: \(reason)", file: folder.string)
            throw ExitCodes.cannotCreate
        }

        let jobs = shard.map(inputs.shard) ?? inputs.jobs
        let settings = BatchSettings(
            job: job, folder: folder, existing: existing, diagnostics: trip.diagnostics,
            allWarnings: trip.allWarnings)
        let console = BatchConsole(total: jobs.count, showsProgress: !quiet && isatty(STDERR_FILENO) == 1)
        // What the last run wrote here, read while the workers render (it takes a 4,000-trip run
        // a hundredth of a second) and before this run writes its own index over it.
        var previous: [TripIndex.Entry] = []
        let results = BatchRun.run(jobs, settings: settings, workers: workers, console: console) {
            if shard == nil { previous = Ownership.previousIndex(in: folder) }
        }
        console.end()

        let index = TripIndex(entries: results.map(\.entry))
        var (indexCode, removed) = Render.writeIndex(
            index, shard: shard, folder: folder, templates: templates, printer: printer, existing: existing)
        // Once the new index says what this run wrote, the reports only the old one listed go.
        if indexCode == ExitCodes.success {
            removed += Ownership.remove(Ownership.staleReports(previous: previous, now: index.entries), from: folder)
        }
        if summary { Render.printSummary(index, removed: removed, format: trip.diagnostics) }
        let code = ExitCodes.mostSerious(results.map(\.exitCode) + [indexCode.rawValue])
        if code != ExitCodes.success { throw code }
    }

    /// Reports that would be written over one of the trips being read (`-d` into the trips'
    /// own folder with `--format gpx` or `json`).
    ///
    /// Only reports already there can be trips: a report named in `existing` (the folder's
    /// listing, when there is one) or in a subfolder is looked at, on `workers` threads, and the
    /// trips are looked at only when one is there.
    static func outputsOverInputs(
        _ jobs: [BatchInputs.Job], formats: [OutputFormat], folder: FilePath, existing: Set<String>?, workers: Int
    ) -> [String] {
        @Sendable func identity(_ path: FilePath) -> FileIdentity? {
            (try? fileStore.info(path, followLinks: true))?.identity
        }
        let named = jobs.filter { $0.unlisted == nil }
        let outputs = named.flatMap { job in formats.map { (job, job.name + "." + $0.fileExtension, $0) } }.filter {
            existing?.contains($0.1) != false || $0.1.contains("/")
        }
        let outputIdentities = Workers.map(outputs.count, workers: workers) {
            identity(folder.appending(outputs[$0].1))
        }
        guard outputIdentities.contains(where: { $0 != nil }) else { return [] }
        var inputs: [FileIdentity: FilePath] = [:]
        for (job, found) in zip(named, Workers.map(named.count, workers: workers) { identity(named[$0].source) }) {
            if let found { inputs[found] = job.source }
        }
        var messages: [String] = []
        for ((job, _, format), found) in zip(outputs, outputIdentities) {
            if let found, let source = inputs[found] {
                messages.append(
                    "the \(format.rawValue) report of \(BatchInputs.named(job.shown)) would replace the trip \(BatchInputs.named(source.shown)); write into another folder"
                )
            }
        }
        return messages
    }

    /// Writes `index.json`, `index.html` and, when Markdown reports were written, `index.md`; a
    /// shard writes only its part, `index.K-of-N.json`, for `detour-report index` to join.
    ///
    /// `existing` are the names in the folder before the run, when it was listed: the stale
    /// indexes are looked for among them (the run writes no other index). Returns the exit
    /// code, and why each stale index removed was.
    static func writeIndex(
        _ index: TripIndex, shard: BatchInputs.Shard?, folder: FilePath, templates: ReportTemplates,
        printer: DiagnosticPrinter, existing: Set<String>? = nil
    ) -> (ExitCode, removed: [Ownership.StaleReason]) {
        let files =
            shard.map { [(name: $0.indexFileName, text: index.json())] }
            ?? IndexPages.render(index, templates: templates) { makers in
                Workers.map(makers.count, workers: makers.count) { makers[$0]() }
            }
        var codes: [Int32] = []
        for (name, text) in files {
            do {
                try CommandOutput.write(text, toFile: folder.appending(name), printer: printer)
            } catch {
                codes.append(error.rawValue)
            }
        }
        var removed: [Ownership.StaleReason] = []
        if shard == nil, codes.isEmpty {
            removed = removeStaleIndexes(in: folder, keeping: Set(files.map(\.name)), among: existing)
        }
        return (ExitCodes.mostSerious(codes), removed)
    }

    /// After a whole run, the index pages it did not write (an `index.md` of a run with Markdown
    /// before) and the shards' parts (which `index` would join over the new index) are removed:
    /// what is left in the folder says what this run did.
    ///
    /// Returns why each file removed was.
    static func removeStaleIndexes(in folder: FilePath, keeping written: Set<String>, among existing: Set<String>?)
        -> [Ownership.StaleReason]
    {
        let names = existing.map(Array.init) ?? ((try? fileStore.entries(in: folder)) ?? []).map(\.name.string)
        var removed: [Ownership.StaleReason] = []
        for name in names.sorted() where !written.contains(name) && isIndexFile(name) {
            fileStore.remove(folder.appending(name))
            removed.append(staleIndexReason(name))
        }
        return removed
    }

    /// Why the index file `name` is not written now: a whole run writes `index.md` only with
    /// Markdown reports, and never a shard's part.
    static func staleIndexReason(_ name: String) -> Ownership.StaleReason {
        name == "index.md" ? .formatDropped : .indexPart
    }

    /// Whether `name` is one of the files a run's index is written to: a page, or a shard's part.
    static func isIndexFile(_ name: String) -> Bool {
        ["index.md", "index.html", "index.json"].contains(name) || BatchInputs.Shard(indexFileName: name) != nil
    }

    /// `198 written, 2 invalid, 0 unreadable` on standard error, and what the run `removed`
    /// and why (`; 6 removed: formats no longer asked for`); with `--diagnostics json`, the same
    /// counts as one JSON object, so the stream stays JSON Lines.
    static func printSummary(_ index: TripIndex, removed: [Ownership.StaleReason], format: DiagnosticPrinter.Format) {
        let message =
            removed.isEmpty
            ? index.summary : "\(index.summary); \(removed.count) removed: \(Ownership.StaleReason.phrase(removed))"
        switch format {
        case .text:
            StandardStreams.writeError(message + "\n")
        case .json:
            // The keys every diagnostic line has, so the stream stays one shape, and the counts.
            let counts =
                TripStatus.afterWriting.map { ($0.rawValue, JSONOutput.int(index.count($0))) } + [
                    ("removed", JSONOutput.int(removed.count))
                ]
            let summary = JSONOutput.object([
                ("severity", .string("info")), ("code", .string("summary")), ("path", .string(nil)),
                ("file", .string("detour-report")), ("line", .int(nil)), ("column", .int(nil)),
                ("message", .string(message)), ("counts", .object(counts)),
            ])
            StandardStreams.writeError(summary.serializedLine() + "\n")
        }
    }
}
