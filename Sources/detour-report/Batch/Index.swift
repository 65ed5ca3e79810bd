import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourJob
import DetourRender
import SystemPackage

/// `detour-report index OUT/`: the index of a folder of reports, joined from the parts that the
/// shards of a job wrote (`index.K-of-N.json`), or rewritten from its `index.json`.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Write OUT/index.html (and index.md, index.json) for a folder that batch runs rendered into.",
        discussion: """
            Joins the index.K-of-N.json files that `render -d OUT --shard K/N` wrote, one per shard, \
            into one index; without them, rewrites the index from OUT/index.json. Warns when a shard \
            of a job is missing.
            """)

    @Argument(
        help: ArgumentHelp("The folder the reports were rendered into.", valueName: "dir"), completion: .directory)
    var folder: String

    @OptionGroup var diagnosticsOption: DiagnosticsOption
    /// How problems are written: `--diagnostics`.
    var diagnostics: DiagnosticPrinter.Format { diagnosticsOption.format }

    @Option(
        help: ArgumentHelp(
            "Load index.html.mustache and index.md.mustache from this folder instead of the built-in ones.",
            valueName: "dir"), completion: .directory)
    var templates: String?

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        Interrupts.removeTemporariesAndExit()
        // FilePath drops the `/` a shell's completion leaves at the end of a folder.
        let folder = FilePath(self.folder)
        let printer = DiagnosticPrinter(file: folder.string, format: diagnostics)
        let names: [String]
        do {
            names = try fileStore.entries(in: folder).map(\.name.string).sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
        } catch {
            printer.report(.readFailed, "cannot read the folder: \(error.reason)")
            throw ExitCodes.noInput
        }
        let parts = names.compactMap { BatchInputs.Shard(indexFileName: $0) }.sorted {
            ($0.count, $0.index) < ($1.count, $1.index)
        }
        let files = parts.isEmpty ? (names.contains("index.json") ? ["index.json"] : []) : parts.map(\.indexFileName)
        guard !files.isEmpty else {
            printer.report(.indexUnreadable, "no index.json or index.K-of-N.json here: render into it with -d first")
            throw ExitCodes.noInput
        }
        for missing in BatchInputs.Shard.missing(from: parts) {
            printer.report(.indexShardMissing, missing)
        }
        var entries: [TripIndex.Entry] = []
        for name in files {
            let path = folder.appending(name)
            let bytes: [UInt8]?
            do {
                bytes = try fileStore.contents(of: path, limit: 1 << 30)
            } catch {
                printer.report(.readFailed, "cannot read the index: \(error.reason)", file: path.shown)
                throw ExitCodes.noInput
            }
            do throws(IndexFiles.Failure) {
                entries += try IndexFiles.read(bytes ?? [])
            } catch {
                printer.print(
                    [
                        Diagnostic(
                            .indexUnreadable, at: SourcePosition(line: error.line, column: error.column), error.message)
                    ],
                    file: path.shown)
                throw ExitCodes.invalidTrip
            }
        }
        var owners: [String: String] = [:]
        for entry in entries {
            if let other = owners.updateValue(entry.source, forKey: entry.name.lowercased()) {
                printer.report(
                    .outputNameClash,
                    "\(BatchInputs.named(other)) and \(BatchInputs.named(entry.source)) are both listed as \(BatchInputs.named(entry.name)); were two jobs rendered into one folder?"
                )
                // A clash is the run's set-up, as for `render -d`: the usage exit code.
                throw ExitCodes.usage
            }
        }
        let templates = try TemplateFolder.load(
            self.templates, builtIn: ReportTemplates.indexNames, required: [], optional: ReportTemplates.indexNames,
            printer: printer)
        for (name, text) in IndexPages.render(TripIndex(entries: entries), templates: templates) {
            try CommandOutput.write(text, toFile: folder.appending(name), printer: printer)
        }
    }
}
