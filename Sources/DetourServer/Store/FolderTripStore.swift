import DetourIO
import DetourJob
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real ``TripStore``: a folder on disk, read and written through a ``FileStore``.
///
/// The system calls the file store has no use for are made here, each where swift-system has no
/// wrapper for it: `flock(2)` for the write lock (a file lock, as Radicale takes, so two servers
/// over one folder exclude each other), `fsync(2)` on the folder after a rename, `realpath(3)`
/// to tell where a link leads, and `stat(2)`'s nanosecond times.
public struct FolderTripStore: TripStore {
    /// The folder, as given.
    public let folder: FilePath
    /// Its real path, links resolved: what a link's target must be inside.
    let realFolder: FilePath
    let files: any FileStore

    /// The lock file, a dotfile the listing never shows.
    public static let lockName = ".detour-report.lock"

    /// The store over `folder`, or a failure when it is no folder.
    public init(folder: FilePath, files: some FileStore) throws(StoreFailure) {
        self.folder = folder
        self.files = files
        guard let real = FolderTripStore.realPath(folder) else {
            throw .failed("cannot open the folder")
        }
        realFolder = real
        let kind: FileInfo.Kind
        do throws(FileError) {
            kind = try files.info(folder, followLinks: true).kind
        } catch {
            throw StoreFailure(error)
        }
        guard kind == .directory else { throw .failed("not a folder") }
    }

    func path(_ file: TripFile) -> FilePath { folder.appending(file.fileName) }

    public func list() throws(StoreFailure) -> [TripFile] {
        let entries: [FolderEntry]
        do {
            entries = try files.entries(in: folder)
        } catch {
            throw StoreFailure(error)
        }
        return entries.compactMap { entry in
            // The listing's word for a plain file is enough; anything else is looked at.
            guard let file = TripFile(fileName: entry.name.string), entry.kind == .regular || isServable(path(file))
            else { return nil }
            return file
        }
    }

    /// The names of the folder's files that would be trips but for the case of their extension
    /// (`Lisbon.JSON`), with the name each would be a trip under, sorted; the server leaves them
    /// out, as a batch run does.
    public func misspelled() -> [(name: String, renamed: String)] {
        guard let entries = try? files.entries(in: folder) else { return [] }
        return entries.compactMap { entry in
            TripFormat.misspelledInFolder(entry.name.string).map { (entry.name.string, $0) }
        }.sorted { $0.name < $1.name }
    }

    /// Whether `path` is a regular file inside the folder, after following any links.
    func isServable(_ path: FilePath) -> Bool {
        guard let info = try? files.info(path, followLinks: false) else { return false }
        switch info.kind {
        case .regular:
            return true
        case .symbolicLink:
            guard let real = FolderTripStore.realPath(path), real.starts(with: realFolder), real != realFolder,
                (try? files.info(real, followLinks: false))?.kind == .regular
            else { return false }
            return true
        case .directory, .other:
            return false
        }
    }

    public func signature(_ file: TripFile) -> FileSignature? {
        let path = path(file)
        var status = stat()
        // One look for a plain file, the common case; a link is followed only once it is known
        // to stay inside the folder.
        guard path.withPlatformString({ lstat($0, &status) }) == 0 else { return nil }
        if status.st_mode & S_IFMT != S_IFREG {
            guard isServable(path), path.withPlatformString({ stat($0, &status) }) == 0 else { return nil }
        }
        return FileSignature(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }

    /// The file's bytes, read from what was opened: a regular file in the folder, or reached by a
    /// link that stays in it, checked once open, so a swap of the name cannot leak or block.
    public func read(_ file: TripFile, limit: Int) throws(StoreFailure) -> StoredBytes? {
        do {
            guard let bytes = try files.contents(of: path(file), inside: realFolder, limit: limit) else {
                return .tooLarge
            }
            return .bytes(bytes)
        } catch {
            // Gone, or not a file the folder serves: the same answer as for no file.
            switch error.errno {
            case .noSuchFileOrDirectory, .permissionDenied, .tooManySymbolicLinkLevels: return nil
            default: break
            }
            throw StoreFailure(error)
        }
    }

    public func withLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T {
        try locked(LOCK_EX, body)
    }

    public func withSharedLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T {
        try locked(LOCK_SH, body)
    }

    private func locked<T>(_ kind: Int32, _ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T {
        let lockPath = folder.appending(FolderTripStore.lockName)
        // Never through a link: a link in its place would have the lock file made wherever it
        // points. Nor anything but a regular file.
        let descriptor = lockPath.withPlatformString { open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard descriptor >= 0 else { throw StoreFailure(FileError(Errno(rawValue: errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .failed("the lock file \(FolderTripStore.lockName) is not a regular file")
        }
        // Each call opens the lock file anew: flock locks belong to an open file, so two requests
        // of this process exclude each other as two processes do.
        while flock(descriptor, kind) != 0 {
            guard errno == EINTR else { throw StoreFailure(FileError(Errno(rawValue: errno))) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Replaces the trip's file all at once, through ``Delivery``'s one replace sequence: a file
    /// there keeps its permissions; anything else in its place (a link, which may lead out of the
    /// folder, or a FIFO) is replaced by the new file, never written through.
    public func write(_ bytes: [UInt8], to file: TripFile) throws(StoreFailure) {
        let target = path(file)
        var permissions = files.newFilePermissions
        if let info = try? files.info(target, followLinks: false), info.kind == .regular {
            permissions = info.permissions
        }
        do throws(Delivery.Failure) {
            try Delivery.replace(
                target, with: { sink in sink(bytes) }, permissions: permissions, replacing: true, flush: true,
                store: files)
        } catch {
            throw StoreFailure(error)
        }
        try syncFolder()
    }

    public func removeLeftovers() throws(StoreFailure) -> Int {
        let entries: [FolderEntry]
        do {
            entries = try files.entries(in: folder)
        } catch {
            throw StoreFailure(error)
        }
        let leftovers = entries.map(\.name.string).filter(FolderTripStore.isLeftover)
        for name in leftovers { files.remove(folder.appending(name)) }
        return leftovers.count
    }

    /// `.NAME.json.XXXXXX` (or `.gpx`): a trip file's name between a dot and the six letters or
    /// digits `mkstemp` and the store's own links add.
    static func isLeftover(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 8, bytes[0] == UInt8(ascii: "."), bytes[bytes.count - 7] == UInt8(ascii: "."),
            bytes.suffix(6).allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & ~0x20) })
        else { return false }
        return TripFile(fileName: String(decoding: bytes[1..<(bytes.count - 7)], as: UTF8.self)) != nil
    }

    public func delete(_ file: TripFile) throws(StoreFailure) {
        let target = path(file)
        guard target.withPlatformString({ unlink($0) }) == 0 else {
            throw StoreFailure(FileError(Errno(rawValue: errno)))
        }
        try syncFolder()
    }

    /// Flushes the folder, so that a rename or removal survives a crash.
    func syncFolder() throws(StoreFailure) {
        let descriptor = folder.withPlatformString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw StoreFailure(FileError(Errno(rawValue: errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StoreFailure(FileError(Errno(rawValue: errno))) }
    }

    /// `path` with every link resolved, or `nil` when it does not exist.
    static func realPath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }
}
