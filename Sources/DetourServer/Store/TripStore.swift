import DetourIO
import DetourJob
import SystemPackage

/// A trip file the server serves: `NAME.json` or `NAME.gpx` directly inside its folder.
public struct TripFile: Hashable, Sendable {
    public var name: TripName
    public var format: TripFormat

    public init(name: TripName, format: TripFormat) {
        self.name = name
        self.format = format
    }

    /// `NAME.json` or `NAME.gpx`.
    public var fileName: String { "\(name.text).\(format.rawValue)" }

    /// The trip file `fileName` names, or `nil` for any other file: not a trip by
    /// ``TripFormat/ofTripInFolder(_:)`` (the rule a batch run follows too: the extension in lower
    /// case), a name the rule refuses, a dotfile, an editor's backup (`NAME.json~`) or swap file.
    public init?(fileName: String) {
        guard let (stem, format) = TripFormat.ofTripInFolder(fileName),
            let name = TripName(decoded: String(stem))
        else { return nil }
        self.init(name: name, format: format)
    }
}

/// What tells that a file changed without reading it.
///
/// Its identity, size and times to the nanosecond, used only to know when to read a file again; what clients see (entity tags) is
/// always a hash of the bytes.
public struct FileSignature: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}

/// Why a store operation failed.
public enum StoreFailure: Error, Sendable, Equatable {
    /// The disk (or the user's quota) is full: nothing was replaced.
    case full
    /// Anything else, with the system's reason; never a path outside the folder.
    case failed(String)

    init(_ error: FileError) {
        switch error.errno {
        case .noSpace, .diskQuotaExceeded: self = .full
        default: self = .failed(error.reason)
        }
    }

    /// A write that failed: full when the disk or quota was, else its reason.
    init(_ failure: Delivery.Failure) {
        switch failure {
        case .cannotCreate(let error), .cutOff(let error, _): self.init(error)
        case .unprintable(let failure): self = .failed(failure.diagnostic.message)
        }
    }
}

/// The folder of trips, as the server reads and writes it: a protocol, so that tests can put a
/// fake in place of the file system for the faults that are hard to make (a full disk).
///
/// ``FolderTripStore`` is the real one.
public protocol TripStore: Sendable {
    /// Every trip file in the folder, in no particular order.
    func list() throws(StoreFailure) -> [TripFile]

    /// The file's signature, or `nil` when it does not exist (or is a link out of the folder).
    func signature(_ file: TripFile) -> FileSignature?

    /// The file's bytes, or `nil` when it does not exist; `tooLarge` past `limit` bytes.
    func read(_ file: TripFile, limit: Int) throws(StoreFailure) -> StoredBytes?

    /// Runs `body` holding the folder's write lock, which other processes serving the same
    /// folder respect too.
    func withLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T

    /// Runs `body` holding the write lock shared: no write is under way meanwhile, and other
    /// readers are not kept out.
    func withSharedLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T

    /// Replaces (or creates) `file` with `bytes`, whole or not at all: a new file beside it,
    /// flushed, renamed over it, and the folder flushed.
    func write(_ bytes: [UInt8], to file: TripFile) throws(StoreFailure)

    /// Removes `file`, and flushes the folder.
    func delete(_ file: TripFile) throws(StoreFailure)

    /// Removes what writes cut off by a crash left behind (a named temporary beside a trip,
    /// `.NAME.json.XXXXXX`, where the file system has no unnamed ones), and says how many; the
    /// server calls it once at start, holding the lock, so no write of another server is cut.
    func removeLeftovers() throws(StoreFailure) -> Int
}

/// A file's content as read, or the news that it is larger than the limit.
public enum StoredBytes: Sendable, Equatable {
    case bytes([UInt8])
    case tooLarge
}
