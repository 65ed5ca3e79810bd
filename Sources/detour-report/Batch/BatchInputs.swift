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
    }

    /// Every trip, sorted by source path (byte order), each once.
    var jobs: [Job]

    /// Expands `inputs`: a file is one trip; a folder is every `*.json` and `*.gpx` directly in it (and in its
    /// subfolders with `recursive`), hidden files left out.
    ///
    /// A name that does not exist stays a trip, which will be reported unreadable.
    init(_ inputs: [String], recursive: Bool) {
        var jobs: [Job] = []
        for input in inputs {
            // FilePath drops the `/` a shell's completion leaves at the end of a folder.
            let path = FilePath(input)
            if input != "-", (try? fileStore.info(path, followLinks: true))?.kind == .directory {
                BatchInputs.collect(folder: path, relative: FilePath(), recursive: recursive, into: &jobs)
            } else {
                jobs.append(Job(source: path, name: BatchInputs.stem(of: path.lastComponent?.string ?? input)))
            }
        }
        var seen: Set<FilePath> = []
        // Each path's bytes are taken once, not at every comparison.
        self.jobs = jobs.filter { seen.insert($0.source).inserted }.map { (BatchInputs.bytes(of: $0.source), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }

    /// The K-th of N parts of the sorted list (K from 0): every N-th trip from the K-th, so each
    /// part gets trips from all over the list and the parts stay within one trip of each other.
    func shard(_ shard: Shard) -> [Job] {
        jobs.enumerated().filter { $0.offset % shard.count == shard.index }.map(\.element)
    }

    /// Reports that would land on the same file, or on the index: each pair once, as a message.
    ///
    /// Names are compared without regard to case as well: a folder of reports written here may
    /// be checked out on a disk that does not tell `Oslo.html` from `oslo.html`.
    func clashes(reserved: Set<String>) -> [String] {
        var owners: [String: Job] = [:]
        var messages: [String] = []
        for job in jobs {
            let key = job.name.lowercased()
            if reserved.contains(key) {
                messages.append(
                    "\(BatchInputs.named(job.source.string)) would write reports named \(BatchInputs.named(job.name)), which the run's index uses"
                )
            } else if let owner = owners[key] {
                let same = owner.name == job.name ? "the same name" : "names that differ only in case"
                messages.append(
                    "\(BatchInputs.named(owner.source.string)) and \(BatchInputs.named(job.source.string)) would write reports of \(same), \(BatchInputs.named(job.name)); rename one or render them into different folders"
                )
            } else {
                owners[key] = job
            }
        }
        return messages
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

        /// Parses `K/N` with `0 <= K < N`.
        init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
                (0..<count).contains(index)
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

        /// `K/N` for every shard of each job among `shards` whose part is missing.
        static func missing(from shards: [Shard]) -> [String] {
            var missing: [String] = []
            for count in Set(shards.map(\.count)).sorted() {
                let present = Set(shards.filter { $0.count == count }.map(\.index))
                missing += (0..<count).filter { !present.contains($0) }.map { "\($0)/\(count)" }
            }
            return missing
        }
    }

    // MARK: - Files

    /// Joins names with `FilePath`, never as text, so a name that is not UTF-8 is opened by its
    /// own bytes; its reports are named by the name as shown (`bad\u{FFFD}.html`).
    private static func collect(folder: FilePath, relative: FilePath, recursive: Bool, into jobs: inout [Job]) {
        let path = folder.appending(relative.components)
        let entries = (try? fileStore.entries(in: path)) ?? []
        for entry in entries where !entry.name.string.hasPrefix(".") {
            let name = entry.name.string
            let source = path.appending(entry.name)
            let inner = relative.appending(entry.name)
            switch kind(of: source, listed: entry.kind) {
            case .directory where recursive:
                collect(folder: folder, relative: inner, recursive: recursive, into: &jobs)
            case .regular where isTripName(name):
                jobs.append(Job(source: source, name: stem(of: inner.string)))
            default:
                break
            }
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

    /// `*.json` and `*.gpx`, in any case: what a folder's trips are called.
    private static func isTripName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasSuffix(".json") || lowered.hasSuffix(".gpx")
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
