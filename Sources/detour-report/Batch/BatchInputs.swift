import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import SystemPackage

/// The trips of a batch run: the files and folders given, expanded, sorted, named and sharded.
struct BatchInputs {
    /// One trip to render.
    struct Job: Sendable, Equatable {
        /// The trip file, as given or as found in a folder given (`trips/oslo.json`), with the
        /// bytes of its name as the folder lists them, UTF-8 or not.
        var source: FilePath
        /// Its reports' name without extension, relative to the output folder: the file's name
        /// for a file given, its path inside the folder for a folder given (`europe/oslo`).
        var name: String
        /// Why a folder of the input could not be listed: it is then an unreadable trip of the
        /// run, named by its path, never a folder quietly left out.
        var unlisted: String? = nil
        /// A JSON file found in a folder, which may be a report or an index a run wrote there
        /// (`detour-report/1`) rather than a trip.
        var mayBeReport = false

        /// How messages and the index name the trip file.
        var shown: String { source.shown }
    }

    /// Every trip, sorted by source path (byte order), each once.
    var jobs: [Job]
    /// Files of a folder given that would be trips but for the case of their extension
    /// (`Lisbon.JSON`): left out, by ``TripFormat/ofTripInFolder(_:)``, and named in a warning.
    var misspelled: [(path: FilePath, renamed: String)] = []

    /// Expands `inputs`: a file is one trip; a folder is every `*.json` and `*.gpx` directly in it (and in its
    /// subfolders with `recursive`), hidden files left out.
    ///
    /// A name that does not exist stays a trip, which will be reported unreadable. The folder the
    /// run writes into, `output`, is never an input: it is not descended into, and when it is a
    /// folder given, the indexes a run wrote there are left out, and so is any JSON report found
    /// in a folder, wherever it lies: the first bytes of each JSON file found are read on
    /// `workers` threads.
    init(_ inputs: [String], recursive: Bool, output: FilePath? = nil, workers: Int = 1) {
        var jobs: [Job] = []
        var misspelled: [(path: FilePath, renamed: String)] = []
        let written = output.flatMap { try? fileStore.info($0, followLinks: true) }?.identity
        for input in inputs {
            // FilePath drops the `/` a shell's completion leaves at the end of a folder.
            let path = FilePath(input)
            if input != "-", (try? fileStore.info(path, followLinks: true))?.kind == .directory {
                let walk = Walk(recursive: recursive, output: written)
                walk.collect(path, relative: FilePath(), owned: [], into: &jobs, misspelled: &misspelled)
            } else {
                jobs.append(Job(source: path, name: BatchInputs.stem(of: path.lastComponent?.string ?? input)))
            }
        }
        var seen: Set<FilePath> = []
        // Each path's bytes are taken once, not at every comparison.
        let sorted = jobs.filter { seen.insert($0.source).inserted }.map { (BatchInputs.bytes(of: $0.source), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
        let reports = Workers.map(sorted.count, workers: workers) {
            sorted[$0].mayBeReport && Ownership.isReportJSON(sorted[$0].source)
        }
        self.jobs = zip(sorted, reports).filter { !$0.1 }.map(\.0)
        self.misspelled = misspelled.sorted {
            BatchInputs.bytes(of: $0.path).lexicographicallyPrecedes(BatchInputs.bytes(of: $1.path))
        }
    }

    /// Warns of each file left out for the case of its extension, through the printer for its path.
    func warnOfMisspelled(_ printer: (String) -> DiagnosticPrinter) {
        for (path, renamed) in misspelled {
            printer(path.shown).print([.tripExtensionCase("read", renamed: renamed)])
        }
    }

    /// The K-th of N parts of the sorted list (K from 0): every N-th trip from the K-th, so each
    /// part gets trips from all over the list and the parts stay within one trip of each other.
    func shard(_ shard: Shard) -> [Job] {
        jobs.enumerated().filter { $0.offset % shard.count == shard.index }.map(\.element)
    }

    /// Reports that would land on the same file, on a folder another report needs, or on the
    /// run's indexes (`index.*`, `index.K-of-N.json`): each pair once, as a message.
    ///
    /// Names are compared without regard to case or to how their letters are encoded (`é` as one
    /// code point or two): a folder of reports written here may be checked out on a disk that
    /// tells neither `Oslo.html` from `oslo.html` nor the two spellings of `café.html` apart.
    func clashes(extensions: [String]) -> [String] {
        let named = jobs.filter { $0.unlisted == nil }
        var owners: [String: Job] = [:]
        var messages: [String] = []
        for job in named {
            let key = job.name.lowercased()
            if BatchInputs.isIndexName(key) {
                messages.append(
                    "\(BatchInputs.named(job.shown)) would write reports named \(BatchInputs.named(job.name)), which the run's index uses"
                )
            } else if let owner = owners[key] {
                let same =
                    Array(owner.name.utf8) == Array(job.name.utf8)
                    ? "the same name"
                    : owner.name == job.name
                        ? "names that differ only in how their letters are encoded (Unicode NFC and NFD)"
                        : "names that differ only in case"
                messages.append(
                    "\(BatchInputs.named(owner.shown)) and \(BatchInputs.named(job.shown)) would write reports of \(same), \(BatchInputs.named(job.name)); rename one or render them into different folders"
                )
            } else {
                owners[key] = job
            }
        }
        // A report where another trip's reports need a folder (`x.html` beside `x.html/a.json`).
        var folders: [String: Job] = [:]
        for job in named {
            var parent = FilePath(job.name).removingLastComponent()
            while !parent.isEmpty {
                let key = parent.string.lowercased()
                if folders[key] == nil { folders[key] = job }
                parent = parent.removingLastComponent()
            }
        }
        for job in named {
            for fileExtension in extensions {
                let file = "\(job.name).\(fileExtension)"
                guard let other = folders[file.lowercased()] else { continue }
                messages.append(
                    "\(BatchInputs.named(job.shown)) would write \(BatchInputs.named(file)), which \(BatchInputs.named(other.shown)) needs as a folder; rename one or render them into different folders"
                )
            }
        }
        return messages
    }

    /// Whether a report name (lowercased) is one of the run's indexes: `index`, or a shard's
    /// `index.K-of-N`.
    static func isIndexName(_ name: String) -> Bool {
        name == "index" || Shard(indexFileName: name + ".json") != nil
    }

    /// A file name in a message: quoted whole (file names are not cut short, unlike user text),
    /// control characters made visible.
    static func named(_ path: String) -> String {
        Quoting.quoted(path, limit: nil)
    }

    /// `--shard K/N`.
    struct Shard: Sendable, Equatable {
        /// K, from 0 to N - 1.
        var index: Int
        /// N, at least 1.
        var count: Int

        /// The most parts a job may be cut into: far more than machines anyone runs it on, and few
        /// enough that listing the parts is cheap.
        static let maxCount = 100_000

        /// Parses `K/N` with `0 <= K < N <= 100,000`.
        init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
                (1...Shard.maxCount).contains(count), (0..<count).contains(index)
            else { return nil }
            self.index = index
            self.count = count
        }

        /// The index fragment this shard writes: `index.2-of-8.json`.
        var indexFileName: String { "index.\(index)-of-\(count).json" }

        /// The shard whose index fragment is called `fileName`, if it is one.
        init?(indexFileName fileName: String) {
            guard fileName.hasPrefix("index."), fileName.hasSuffix(".json") else { return nil }
            self.init(
                String(
                    fileName.dropFirst("index.".count).dropLast(".json".count).replacingOccurrences(
                        of: "-of-", with: "/")))
            guard fileName == indexFileName else { return nil }
        }

        /// For each job among `shards` whose parts are not all there, a sentence that says how
        /// many are missing and which: `3 of 8 shards (0/8, 5/8, 7/8) have not …`, the list cut
        /// after `shown` parts.
        static func missing(from shards: [Shard], shown: Int = 10) -> [String] {
            var missing: [String] = []
            for count in Set(shards.map(\.count)).sorted() {
                let present = Set(shards.filter { $0.count == count }.map(\.index))
                let absent = count - present.count
                guard absent > 0 else { continue }
                // Only the first few are listed, so a job of 100,000 parts costs no more.
                var first: [String] = []
                var index = 0
                while first.count < min(absent, shown) {
                    if !present.contains(index) { first.append("\(index)/\(count)") }
                    index += 1
                }
                let more = absent > shown ? ", …" : ""
                missing.append(
                    absent == 1
                        ? "shard \(first[0]) has not written its index; its trips are not listed"
                        : "\(absent) of \(count) shards (\(first.joined(separator: ", "))\(more)) have not written "
                            + "their index; their trips are not listed")
            }
            return missing
        }
    }

    // MARK: - Files

    /// The trips in a folder given, and (with `-r`) in the folders inside it.
    ///
    /// Joins names with `FilePath`, never as text, so a name that is not UTF-8 is opened by its
    /// own bytes; its reports are named by the name as text (`bad\u{FFFD}.html`).
    private struct Walk {
        let recursive: Bool
        /// The identity of the folder the run writes into, when it exists.
        let output: FileIdentity?

        /// The trips in the folder at `path`, which is `relative` inside the folder given; `owned`
        /// are the reports that the indexes of the folders above list in this one (names relative
        /// to it), which are a run's outputs, not trips.
        func collect(
            _ path: FilePath, relative: FilePath, owned inherited: Set<String>, into jobs: inout [Job],
            misspelled: inout [(path: FilePath, renamed: String)]
        ) {
            let entries: [FolderEntry]
            do {
                entries = try fileStore.entries(in: path)
            } catch {
                let name = relative.isEmpty ? path.lastComponent?.string ?? path.string : relative.string
                jobs.append(Job(source: path, name: name, unlisted: error.reason))
                return
            }
            // Where the run writes, its indexes are not trips of the next run; nor, in any folder,
            // the reports a run's index there lists (its JSON and GPX outputs).
            let isOutput = output != nil && identity(of: path) == output
            var owned = inherited
            if entries.contains(where: { $0.name.string == "index.json" }) {
                owned.formUnion(Ownership.previousIndex(in: path).flatMap { $0.reports.map(\.file) })
            }
            for entry in entries {
                // The name as text, made once: a folder of trips has thousands.
                let name = entry.name.string
                guard !name.hasPrefix("."), !owned.contains(name) else { continue }
                let source = path.appending(entry.name)
                let inner = relative.appending(entry.name)
                switch BatchInputs.kind(of: source, listed: entry.kind) {
                case .directory where recursive:
                    // The output folder inside an input folder is never descended into.
                    if output != nil, identity(of: source) == output { continue }
                    let prefix = name + "/"
                    let below = Set(owned.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
                    collect(source, relative: inner, owned: below, into: &jobs, misspelled: &misspelled)
                case .regular where TripFormat.ofTripInFolder(name) != nil:
                    let stem = BatchInputs.stem(of: inner.string)
                    if isOutput, relative.isEmpty, BatchInputs.isIndexName(stem.lowercased()) { continue }
                    // A JSON report or index (`detour-report/1`) is an output wherever it lies.
                    jobs.append(Job(source: source, name: stem, mayBeReport: name.hasSuffix(".json")))
                case .regular:
                    if let renamed = TripFormat.misspelledInFolder(name) { misspelled.append((source, renamed)) }
                default:
                    break
                }
            }
        }

        private func identity(of path: FilePath) -> FileIdentity? {
            (try? fileStore.info(path, followLinks: true))?.identity
        }
    }

    /// What `path` is, from the folder's own listing when that says file or folder (no `lstat`
    /// for each of a few hundred trips); a folder reached through a symbolic link is not
    /// descended into, so a link to a parent folder cannot loop.
    private static func kind(of path: FilePath, listed: FileInfo.Kind?) -> FileInfo.Kind {
        if let listed, listed == .regular || listed == .directory { return listed }
        guard let info = try? fileStore.info(path, followLinks: false) else { return .other }
        switch info.kind {
        case .symbolicLink:
            return (try? fileStore.info(path, followLinks: true))?.kind == .regular ? .regular : .other
        default:
            return info.kind
        }
    }

    /// A path's bytes, as the file system has them: the order in which trips are listed.
    private static func bytes(of path: FilePath) -> [UInt8] {
        path.withPlatformString { start in
            var bytes: [UInt8] = []
            var next = start
            while next.pointee != 0 {
                bytes.append(UInt8(bitPattern: next.pointee))
                next += 1
            }
            return bytes
        }
    }

    /// `europe/oslo.json` → `europe/oslo`: the name without its last extension.
    private static func stem(of name: String) -> String {
        let last = name.split(separator: "/").last ?? Substring(name)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return name }
        return String(name.dropLast(last.distance(from: dot, to: last.endIndex)))
    }
}
