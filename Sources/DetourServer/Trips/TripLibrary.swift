import DetourBase
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Synchronization

/// A trip file's content at one moment, with its entity tag.
public struct TripSnapshot: Sendable {
    public var file: TripFile
    public var bytes: [UInt8]
    /// `"…"`: the SHA-256 of the bytes, quoted as an entity tag is.
    public var etag: String

    public init(file: TripFile, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
        etag = TripLibrary.entityTag(of: bytes)
    }
}

/// What a trip name holds now.
public enum CurrentRead: Sendable {
    /// The one file's content.
    case snapshot(TripSnapshot)
    case missing
    /// `NAME.json` and `NAME.gpx` both exist: the name is ambiguous.
    case clash
    /// The file is larger than the server's input limit.
    case tooLarge
}

/// The folder's trips as the server sees them: each file's bytes read again only when its
/// signature changes, each trip checked once per version and day, and each output rendered once
/// per version, day and format.
///
/// Checks and renders run on the server's own threads (``BlockingPool``), never on the threads
/// every request shares, at most one per trip, day and format at a time: requests arriving
/// together for a trip just saved wait for the one render, and requests for other trips do not
/// wait at all.
///
/// Every output comes from one ``RenderJob`` (``job``), as `render` makes it: each trip's page
/// and formats, the index, and the server's own `/calendar.ics`, every valid trip's plan in one
/// calendar.
public final class TripLibrary: Sendable {
    public let store: any TripStore
    public let settings: ServerSettings

    private let snapshots = Mutex<[TripFile: (FileSignature, TripSnapshot)]>([:])
    /// Each trip file's check, of one version and day: a new version or day takes the old one's
    /// place, so every unchanged trip of a large folder stays checked.
    private let results = Mutex<[String: (etag: String, today: CalendarDay, result: RenderResult)]>([:])
    /// The server's outputs and threads, shared with every other folder it serves.
    let outputs: OutputCache
    let pool: BlockingPool
    /// The server's threads for reading trip files (``ServerResources/files``).
    let reads: BlockingPool
    /// What sets this folder's outputs apart from other folders' in ``outputs``.
    let space: String
    /// What the folder's watch vouches for, so that a read need not ask the file system.
    let freshness = FolderFreshness()
    /// The one pipeline every check and output runs through, as `render` runs it; the day is
    /// each request's.
    public let job: RenderJob
    /// The last page of each kind made of the whole folder, and what it was made from.
    private let listings = Mutex<[String: (made: [UInt8], value: any Sendable)]>([:])
    private let checks: SingleFlight<ResultKey, RenderResult>
    private let renders: SingleFlight<OutputKey, OutputRead>

    struct ResultKey: Hashable, Sendable {
        var etag: String
        var name: String
        var today: CalendarDay
    }

    /// An output of one version: its place in the cache, and the version it is rendered from.
    struct OutputKey: Hashable, Sendable {
        var place: OutputCache.Key
        var etag: String
    }

    /// The library of `store`, on the server's `resources`; `space` names it apart from the other
    /// folders that share them (an account's id, or empty for the server's one folder).
    public init(
        store: some TripStore, settings: ServerSettings, resources: ServerResources? = nil, space: String = ""
    ) {
        self.store = store
        self.settings = settings
        self.space = space
        // Every format the server serves, PDF when it has a browser; an output is made only when
        // it is asked for.
        let formats = OutputFormat.withoutBrowser + (settings.printing == nil ? [] : [.pdf])
        job = RenderJob(
            RenderJob.Options(
                formats: formats, today: .unixEpoch, planner: settings.planner,
                renderer: ReportRenderer(templates: settings.templates),
                limits: ReadLimits.standard.withInputLimit(mebibytes: max(1, settings.maxInputBytes >> 20)),
                printing: settings.printing))
        let resources = resources ?? ServerResources(settings: settings)
        outputs = resources.outputs
        pool = resources.pool
        reads = resources.files
        checks = SingleFlight(pool: pool)
        renders = SingleFlight(pool: pool)
    }

    /// A strong entity tag for `bytes`: their SHA-256, quoted.
    public static func entityTag(of bytes: some Collection<UInt8>) -> String {
        "\"" + ContentDigest.hex(bytes) + "\""
    }

    /// The trip files, sorted by name; a name with two files appears twice.
    public func files() throws(StoreFailure) -> [TripFile] {
        try store.list().sorted { ($0.name, $0.format.rawValue) < ($1.name, $1.format.rawValue) }
    }

    /// What `name` holds now, for a request: known without asking the file system while the
    /// folder's watch vouches for it, else looked up (``lookUp(_:)``) on the server's threads for
    /// files, never on the cooperative threads the request runs on.
    public func current(_ name: TripName) async throws(StoreFailure) -> CurrentRead {
        if let known = freshness.known(name) { return known }
        let found = await reads.run { [self] in Result { () throws(StoreFailure) in try lookUp(name) } }
        return try found.get()
    }

    /// What `name` holds now: its one file's content, or why there is none; asked of the file
    /// system (on the calling thread, which must be one that may block) unless the watch vouches.
    ///
    /// Anything but one file's content is looked at again holding the lock shared: a write that
    /// changes a trip's format makes the new file before it removes the old, under the lock, and
    /// a reader must not take that moment for two files, or for none (it looked for the new file
    /// before it was made and for the old one after it went). What is still so then is so.
    public func lookUp(_ name: TripName) throws(StoreFailure) -> CurrentRead {
        if let known = freshness.known(name) { return known }
        let epoch = freshness.epoch
        var found = try read(name)
        if case .snapshot = found {
        } else {
            found = try store.withSharedLock { () throws(StoreFailure) in try read(name) }
        }
        freshness.keep(found, for: name, since: epoch)
        return found
    }

    /// The version a preview page is made from, for a request: off its threads, as ``current(_:)``.
    public func version(_ name: TripName) async -> String {
        TripLibrary.version(of: try? await current(name))
    }

    /// The version a preview page is made from, on a thread that may block (the folder's watch).
    public func versionNow(_ name: TripName) -> String {
        TripLibrary.version(of: try? lookUp(name))
    }

    /// The trip file's entity tag, `missing`, `clash` or `unreadable`.
    static func version(of found: CurrentRead?) -> String {
        switch found {
        case .snapshot(let snapshot): return snapshot.etag
        case .tooLarge: return "unreadable"
        case .clash: return "clash"
        case .missing, nil: return "missing"
        }
    }

    private func read(_ name: TripName) throws(StoreFailure) -> CurrentRead {
        let found = files(of: name)
        guard found.count == 1 else { return found.isEmpty ? .missing : .clash }
        switch try snapshot(found[0].0, signature: found[0].1) {
        case .snapshot(let snapshot): return .snapshot(snapshot)
        case .missing: return .missing
        case .tooLarge: return .tooLarge
        }
    }

    /// The files `name` has, with their signatures.
    func files(of name: TripName) -> [(TripFile, FileSignature)] {
        TripFormat.allCases.compactMap { format -> (TripFile, FileSignature)? in
            let file = TripFile(name: name, format: format)
            return store.signature(file).map { (file, $0) }
        }
    }

    /// The signatures of every trip file, for the polling watch.
    public func signatures() -> [TripName: FileSignature] {
        var result: [TripName: FileSignature] = [:]
        guard let files = try? store.list() else { return [:] }
        for file in files {
            if let signature = store.signature(file) { result[file.name] = signature }
        }
        return result
    }

    /// `file`'s content now, read again only when its signature changed; `nil` when it is gone.
    public func snapshot(_ file: TripFile) throws(StoreFailure) -> SnapshotRead {
        guard let signature = store.signature(file) else {
            snapshots.withLock { $0[file] = nil }
            return .missing
        }
        return try snapshot(file, signature: signature)
    }

    /// `file`'s content, whose signature a lookup has just read: the cached copy when the
    /// signature is the one it was read under, else the file read again.
    public func snapshot(_ file: TripFile, signature: FileSignature) throws(StoreFailure) -> SnapshotRead {
        if let (known, snapshot) = snapshots.withLock({ $0[file] }), known == signature {
            return .snapshot(snapshot)
        }
        switch try store.read(file, limit: settings.maxInputBytes) {
        case nil:
            return .missing
        case .tooLarge:
            return .tooLarge
        case .bytes(let bytes):
            let snapshot = TripSnapshot(file: file, bytes: bytes)
            // Kept under the signature read before the bytes: a write in between changes the
            // signature again, so the next request reads again.
            snapshots.withLock { $0[file] = (signature, snapshot) }
            return .snapshot(snapshot)
        }
    }

    /// A snapshot, or why there is none.
    public enum SnapshotRead: Sendable {
        case snapshot(TripSnapshot)
        case missing
        case tooLarge
    }

    /// Runs `work` holding the folder's write lock, on the server's own threads.
    ///
    /// It waits on a file lock and on the disk, which must not hold up the threads every request
    /// shares (``BlockingPool``). Every write of a trip, the API's and the app's forms', goes
    /// through here.
    public func writing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.run { () -> Result<T, any Error> in
            Result {
                try self.store.withLock { () throws(StoreFailure) -> Result<T, any Error> in
                    Result { try work() }
                }.get()
            }
        }.get()
    }

    /// Forgets what was read of `file` and made of it, so the next request reads it.
    public func forget(_ file: TripFile) {
        freshness.changed(file.name)
        snapshots.withLock { $0[file] = nil }
        results.withLock { $0[file.fileName] = nil }
        outputs.forget(cacheName(file.fileName))
    }

    /// The trip checked and planned as of `today`: its status, diagnostics and plan.
    public func check(_ snapshot: TripSnapshot, today: CalendarDay) async -> RenderResult {
        if let known = kept(snapshot, today: today) { return known }
        let key = ResultKey(etag: snapshot.etag, name: snapshot.file.fileName, today: today)
        return await checks.run(key) { [self] in checked(snapshot, today: today) }
    }

    /// Each of `files` read and checked as of `today`, in order (`nil` for one that cannot be
    /// read), for a page that lists them all: on the pool, in chunks, as many at once as it has
    /// threads, each trip read again only when it changed and checked again only when it was
    /// (a folder of 10,000 trips is looked at on every core, a thread started per chunk).
    private func checkedAll(_ files: [TripFile], today: CalendarDay) async -> [(TripSnapshot, RenderResult)?] {
        let size = 64
        let chunks = stride(from: 0, to: files.count, by: size).map { Array(files[$0..<min($0 + size, files.count)]) }
        var found = [(TripSnapshot, RenderResult)?](repeating: nil, count: files.count)
        await withTaskGroup(of: (Int, [(TripSnapshot, RenderResult)?]).self) { group in
            for (index, chunk) in chunks.enumerated() {
                group.addTask {
                    let part = await self.pool.run { [self] in
                        chunk.map { file -> (TripSnapshot, RenderResult)? in
                            guard case .snapshot(let snapshot)? = try? snapshot(file) else { return nil }
                            return (snapshot, kept(snapshot, today: today) ?? checked(snapshot, today: today))
                        }
                    }
                    return (index, part)
                }
            }
            for await (index, part) in group {
                found.replaceSubrange(index * size..<index * size + part.count, with: part)
            }
        }
        return found
    }

    /// The page of `kind` made of every trip of the folder, read and checked as of `today`
    /// (`nil` for one that cannot be read): made by `make` only when a trip, the day or
    /// `variant` (the address it links to) changed since it was last made.
    ///
    /// A folder of 10,000 unchanged trips is looked at on every request (each file's signature),
    /// but its index is not rendered again: that was most of the request's time.
    public func listing(
        _ kind: String, today: CalendarDay, variant: String = "",
        make: ([(TripFile, (TripSnapshot, RenderResult)?)]) -> [UInt8]
    ) async throws(StoreFailure) -> RenderedOutput {
        try await listed(kind, today: today, variant: variant) { RenderedOutput(bytes: make($0)) }
    }

    /// What `make` makes of every trip of the folder, as ``listing(_:today:variant:make:)`` keeps
    /// a page: made again only when a trip, the day or `variant` changed.
    public func listed<Value: Sendable>(
        _ kind: String, today: CalendarDay, variant: String = "",
        make: ([(TripFile, (TripSnapshot, RenderResult)?)]) -> Value
    ) async throws(StoreFailure) -> Value {
        let files = try files()
        let found = Array(zip(files, await checkedAll(files, today: today)))
        var versions = Array("\(today) \(variant)".utf8)
        versions.reserveCapacity(found.count * 100)
        for (file, read) in found {
            versions.append(0x0A)
            versions.append(contentsOf: file.fileName.utf8)
            versions.append(0x20)
            if let (snapshot, _) = read { versions.append(contentsOf: snapshot.etag.utf8) }
        }
        if let kept = listings.withLock({ $0[kind] }), kept.made == versions, let value = kept.value as? Value {
            return value
        }
        let value = make(found)
        listings.withLock { $0[kind] = (versions, value) }
        return value
    }

    /// The name of a trip file's outputs in the server's cache: the file's name within this
    /// folder's space (a file name holds no `/`).
    func cacheName(_ fileName: String) -> String {
        space.isEmpty ? fileName : space + "/" + fileName
    }

    /// The check of `snapshot` as of `today`, when one is kept.
    private func kept(_ snapshot: TripSnapshot, today: CalendarDay) -> RenderResult? {
        guard let known = results.withLock({ $0[snapshot.file.fileName] }), known.etag == snapshot.etag,
            known.today == today
        else { return nil }
        return known.result
    }

    /// The check itself, on a pool thread, kept for the next request.
    private func checked(_ snapshot: TripSnapshot, today: CalendarDay) -> RenderResult {
        let name = snapshot.file.fileName
        let result = job.run(bytes: snapshot.bytes, name: name, today: today)
        results.withLock { $0[name] = (snapshot.etag, today, result) }
        return result
    }

    /// The trip's output in `format` as of `today`, as `render` writes it, or why there is none.
    ///
    /// There is none for a trip that is not valid, a format the server does not make, a PDF not
    /// printed. Only outputs are kept; a print that failed is tried again at the next request.
    public func output(_ snapshot: TripSnapshot, format: OutputFormat, today: CalendarDay) async -> OutputRead {
        let cached = OutputCache.Key(name: cacheName(snapshot.file.fileName), today: today, format: format)
        if let output = outputs[cached, etag: snapshot.etag] { return .rendered(output) }
        return await renders.run(OutputKey(place: cached, etag: snapshot.etag)) { [self] in
            if let output = outputs[cached, etag: snapshot.etag] { return .rendered(output) }
            // A render checks on its own pool thread: it waits for no other piece of work.
            let result = kept(snapshot, today: today) ?? checked(snapshot, today: today)
            guard result.status == .valid else { return .invalid(result) }
            guard let produced = result.output(format) else { return .notMade }
            let bytes: [UInt8]
            do throws(Delivery.Failure) {
                bytes = try produced.bytes()
            } catch {
                return .unmade(error)
            }
            let output = RenderedOutput(bytes: bytes)
            outputs.keep(output, for: cached, etag: snapshot.etag)
            return .rendered(output)
        }
    }
}

/// An output, or why a trip has none in a format.
public enum OutputRead: Sendable {
    case rendered(RenderedOutput)
    /// The trip is not valid: its check says why.
    case invalid(RenderResult)
    /// The server does not make the format (PDF without a browser).
    case notMade
    /// Making it failed: a PDF the browser did not print.
    case unmade(Delivery.Failure)
}

/// An output's bytes and their entity tag.
public struct RenderedOutput: Sendable {
    public var bytes: [UInt8]
    public var etag: String

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        etag = TripLibrary.entityTag(of: bytes)
    }
}
