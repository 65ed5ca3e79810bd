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

/// What a trip name finds in the folder.
public enum TripLookup: Sendable {
    case missing
    /// The one file, with its signature as the lookup found it.
    case found(TripFile, FileSignature)
    /// `NAME.json` and `NAME.gpx` both exist: the name is ambiguous.
    case clash
}

/// The folder's trips as the server sees them: each file's bytes read again only when its
/// signature changes, and each output rendered once per content, day and format.
///
/// Every trip's page and format comes from ``RenderJob``, as `render` makes it. The one output
/// made elsewhere is the server's own `/calendar.ics`, every valid trip's plan in one calendar,
/// which `Site` hands to ``ICSExport`` directly.
public final class TripLibrary: Sendable {
    public let store: any TripStore
    public let settings: ServerSettings

    private let snapshots = Mutex<[TripFile: (FileSignature, TripSnapshot)]>([:])
    private let results = BoundedCache<ResultKey, RenderResult>(limit: 256)
    private let outputs = BoundedCache<OutputKey, RenderedOutput>(limit: 512)
    /// Renders one at a time, so that requests arriving together for a changed trip render it
    /// once: the second finds the first's output in the cache.
    private let renderLock = Mutex(())

    struct ResultKey: Hashable {
        var etag: String
        var name: String
        var today: CalendarDay
    }

    struct OutputKey: Hashable {
        var etag: String
        var name: String
        var today: CalendarDay
        var format: OutputFormat
    }

    public init(store: some TripStore, settings: ServerSettings) {
        self.store = store
        self.settings = settings
    }

    /// A strong entity tag for `bytes`: their SHA-256, quoted.
    public static func entityTag(of bytes: some Collection<UInt8>) -> String {
        "\"" + ContentDigest.hex(bytes) + "\""
    }

    /// The trip files, sorted by name; a name with two files appears twice.
    public func files() throws(StoreFailure) -> [TripFile] {
        try store.list().sorted { ($0.name, $0.format.rawValue) < ($1.name, $1.format.rawValue) }
    }

    /// The file `name` is.
    public func lookup(_ name: TripName) throws(StoreFailure) -> TripLookup {
        let found = TripFormat.allCases.compactMap { format -> (TripFile, FileSignature)? in
            let file = TripFile(name: name, format: format)
            return store.signature(file).map { (file, $0) }
        }
        switch found.count {
        case 0: return .missing
        case 1: return .found(found[0].0, found[0].1)
        default: return .clash
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

    /// Forgets what was read of `file`, so the next request reads it.
    public func forget(_ file: TripFile) {
        snapshots.withLock { $0[file] = nil }
    }

    func job(formats: [OutputFormat], today: CalendarDay) -> RenderJob {
        RenderJob(
            RenderJob.Options(
                formats: formats, today: today, planner: settings.planner,
                renderer: ReportRenderer(templates: settings.templates), inputFormat: nil,
                limits: ReadLimits.standard.withInputLimit(mebibytes: max(1, settings.maxInputBytes >> 20))))
    }

    /// The trip checked and planned as of `today`: its outcome, diagnostics and plan.
    public func check(_ snapshot: TripSnapshot, today: CalendarDay) -> RenderResult {
        let key = ResultKey(etag: snapshot.etag, name: snapshot.file.fileName, today: today)
        if let result = results[key] { return result }
        let result = job(formats: [], today: today).run(bytes: snapshot.bytes, name: snapshot.file.fileName)
        results[key] = result
        return result
    }

    /// The trip's output in `format` as of `today`, as `render` writes it; `nil` for a trip
    /// that is not valid.
    public func output(_ snapshot: TripSnapshot, format: OutputFormat, today: CalendarDay) -> RenderedOutput? {
        let key = OutputKey(etag: snapshot.etag, name: snapshot.file.fileName, today: today, format: format)
        if let output = outputs[key] { return output }
        return renderLock.withLock { _ in
            if let output = outputs[key] { return output }
            let result = check(snapshot, today: today)
            guard result.outcome == .valid,
                let produced = result.output(format, renderer: ReportRenderer(templates: settings.templates))
            else { return nil }
            guard let bytes = try? produced.bytes() else { return nil }
            let output = RenderedOutput(bytes: bytes)
            outputs[key] = output
            return output
        }
    }
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
