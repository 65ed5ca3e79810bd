import DetourIO
import DetourJob
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, as ``FileStore`` names it.
///
/// Descriptors, reads, writes, `stat` and errors go through apple/swift-system (`FileDescriptor`,
/// `Stat`, `Errno`), which retries interrupted calls and keeps paths as bytes (`FilePath`).
/// swift-system 1.8 has no `rename`, `fsync`, `mkstemp`, `mkdir`, `readdir`, `readlink` or
/// `umask` in its public interface; those few calls are made here directly, each once.
public struct LocalFileStore: FileStore {
    /// Whether new files start with no name (`O_TMPFILE`) where the file system allows it.
    let unnamedTemporaries: Bool

    /// The real file system; `unnamedTemporaries: false` gives every new file a name from the
    /// start, as file systems without `O_TMPFILE` do.
    public init(unnamedTemporaries: Bool = true) {
        self.unnamedTemporaries = unnamedTemporaries
    }

    public func openForReading(_ path: FilePath) throws(FileError) -> any ReadableFile {
        guard path != .standardStream else {
            let info = try LocalFileStore.checked(.standardInput, owned: false) { _ throws(FileError) in }
            return DescriptorFile(.standardInput, owned: false, regularFileSize: info.regularSize)
        }
        let descriptor = try LocalFileStore.opened(path, options: [.closeOnExec])
        let info = try LocalFileStore.checked(descriptor, owned: true) { _ throws(FileError) in }
        return DescriptorFile(descriptor, owned: true, regularFileSize: info.regularSize)
    }

    public func openForReading(_ path: FilePath, inside folder: FilePath) throws(FileError) -> any ReadableFile {
        // Non-blocking: a FIFO opens at once (and is then refused) instead of waiting for a
        // writer; a regular file reads as it always does.
        let descriptor = try LocalFileStore.opened(path, options: [.closeOnExec, .nonBlocking])
        let info = try LocalFileStore.checked(descriptor, owned: true) { info throws(FileError) in
            guard info.type == .regular else { throw FileError(.permissionDenied, reason: "not a regular file") }
            // Where the open file is, as the kernel knows it: whatever the name led to when opened.
            guard let opened = LocalFileStore.location(of: descriptor), opened.starts(with: folder), opened != folder
            else { throw FileError(.permissionDenied, reason: "not inside the folder") }
        }
        return DescriptorFile(descriptor, owned: true, regularFileSize: info.regularSize)
    }

    private static func opened(_ path: FilePath, options: FileDescriptor.OpenOptions) throws(FileError)
        -> FileDescriptor
    {
        do {
            return try FileDescriptor.open(path, .readOnly, options: options)
        } catch {
            throw failure(error)
        }
    }

    /// The status of the open `descriptor`, when it is no folder and `check` accepts it; else the
    /// descriptor is closed (when `owned`) and the reason thrown.
    private static func checked(
        _ descriptor: FileDescriptor, owned: Bool, _ check: (Stat) throws(FileError) -> Void
    ) throws(FileError) -> Stat {
        do throws(FileError) {
            let info: Stat
            do {
                info = try descriptor.stat()
            } catch {
                throw failure(error)
            }
            if info.type == .directory { throw FileError(.isDirectory, reason: "it is a folder") }
            try check(info)
            return info
        } catch {
            if owned { try? descriptor.close() }
            throw error
        }
    }

    /// The path of the file open on `descriptor`, links resolved (`/proc/self/fd`).
    static func location(of descriptor: FileDescriptor) -> FilePath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor.rawValue)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return FilePath(platformString: Array(buffer[0..<count]) + [0])
    }

    public func info(_ path: FilePath, followLinks: Bool) throws(FileError) -> FileInfo {
        do {
            return FileInfo(try Stat(path, followTargetSymlink: followLinks))
        } catch {
            throw FileError(error)
        }
    }

    public func entries(in folder: FilePath) throws(FileError) -> [FolderEntry] {
        let handle = folder.withPlatformString { opendir($0) }
        guard let handle else { throw lastError }
        defer { closedir(handle) }
        var entries: [FolderEntry] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }) + [0]
            }
            guard let component = FilePath.Component(platformString: name), component.kind == .regular else { continue }
            let kind: FileInfo.Kind? =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): .regular
                case Int32(DT_DIR): .directory
                case Int32(DT_LNK): .symbolicLink
                case Int32(DT_UNKNOWN): nil
                default: .other
                }
            entries.append(FolderEntry(name: component, kind: kind))
        }
        return entries
    }

    public func makeFolder(_ path: FilePath) throws(FileError) {
        let status = path.withPlatformString { mkdir($0, 0o777) }
        guard status != 0 else { return }
        let failure = Errno(rawValue: errno)
        if failure == .fileExists, (try? info(path, followLinks: true))?.kind == .directory { return }
        throw FileError(failure)
    }

    public func createTemporary(beside path: FilePath, permissions: FilePermissions) throws(FileError)
        -> any TemporaryFile
    {
        #if os(Linux)
        if unnamedTemporaries, LocalFileStore.procFileLinks,
            let file = try UnnamedTemporary.create(beside: path, permissions: permissions)
        {
            return file
        }
        #endif
        var template = hiddenName(beside: path, suffix: "XXXXXX")
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw lastError }
        let file = DescriptorTemporary(FileDescriptor(rawValue: descriptor), path: FilePath(platformString: template))
        // mkstemp makes the file rw------- whatever the umask.
        if permissions.rawValue != 0o600, fchmod(descriptor, permissions.rawValue) != 0 {
            let failure = lastError
            file.discard()
            throw failure
        }
        return file
    }

    public func remove(_ path: FilePath) {
        _ = path.withPlatformString { unlink($0) }
    }

    public func openStream(_ path: FilePath) throws(FileError) -> any WritableFile {
        // O_NOCTTY, which swift-system does not name: a terminal given as -o must not become the
        // process's controlling terminal.
        let descriptor = path.withPlatformString { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw lastError }
        return DescriptorFile(FileDescriptor(rawValue: descriptor), owned: true, regularFileSize: nil)
    }

    public var standardOutput: any WritableFile {
        DescriptorFile(.standardOutput, owned: false, regularFileSize: nil)
    }

    public var standardOutputIdentity: FileIdentity? { LocalFileStore.standardOutputIdentity }

    /// Standard output's identity, looked at once: a batch run compares each report's target
    /// with it.
    private static let standardOutputIdentity = (try? FileDescriptor.standardOutput.stat()).map {
        FileInfo($0).identity
    }

    public var standardInputIdentity: FileIdentity? {
        (try? FileDescriptor.standardInput.stat()).map { FileInfo($0).identity }
    }

    public func resolvingLinks(_ path: FilePath) -> FilePath {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        // A longer chain is a loop, which the rename then reports.
        for _ in 0..<40 {
            let count = current.withPlatformString { readlink($0, &buffer, buffer.count - 1) }
            guard count > 0 else { return current }
            buffer[count] = 0
            let destination = FilePath(platformString: buffer)
            current = destination.isAbsolute ? destination : current.removingLastComponent().pushing(destination)
        }
        return current
    }

    public var newFilePermissions: FilePermissions {
        FilePermissions(rawValue: 0o666 & ~LocalFileStore.processUmask)
    }

    /// The process's umask, read once.
    ///
    /// Reading it means setting it, which must not happen while a batch run's workers create
    /// files; ``prepareForThreads()`` reads it before they start.
    static let processUmask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// Whether `/proc/self/fd` is there, through which an unnamed file is linked into its folder
    /// (`linkat` with `AT_EMPTY_PATH` needs a privilege a user seldom has).
    static let procFileLinks = access("/proc/self/fd", X_OK) == 0

    /// Reads what must be read on one thread before several write files.
    public static func prepareForThreads() {
        _ = processUmask
        _ = procFileLinks
        _ = standardOutputIdentity
    }
}

/// An error swift-system threw (an `Errno`, though its calls are untyped), as a ``FileError``.
func failure(_ error: any Error) -> FileError {
    (error as? Errno).map { FileError($0) } ?? FileError(.ioError, reason: "\(error)")
}

/// The last failed call's error.
private var lastError: FileError { FileError(Errno(rawValue: errno)) }

extension FileInfo {
    init(_ stat: Stat) {
        let kind: Kind =
            switch stat.type {
            case .regular: .regular
            case .directory: .directory
            case .symbolicLink: .symbolicLink
            default: .other
            }
        self.init(
            kind: kind,
            identity: FileIdentity(device: UInt64(stat.deviceID.rawValue), inode: UInt64(stat.inode.rawValue)),
            permissions: stat.permissions, size: Int(stat.size))
    }
}

/// open(2), under a name a file's own `open` flag does not hide.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

/// A file read or written through its descriptor, closed when it goes away when owned.
final class DescriptorFile: ReadableFile, WritableFile {
    let descriptor: FileDescriptor
    let owned: Bool
    let regularFileSize: Int?

    init(_ descriptor: FileDescriptor, owned: Bool, regularFileSize: Int?) {
        self.descriptor = descriptor
        self.owned = owned
        self.regularFileSize = regularFileSize
    }

    deinit {
        if owned { try? descriptor.close() }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try descriptor.read(into: buffer)
        } catch {
            throw failure(error)
        }
    }

    func write(_ bytes: [UInt8]) throws(FileError) {
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw failure(error)
        }
    }
}

/// `dir/.name.SUFFIX` from `dir/name`, as a C string, made in one buffer: a batch makes one per
/// report.
func hiddenName(beside path: FilePath, suffix: String) -> [CChar] {
    path.withPlatformString { pointer in
        let whole = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
        let name = whole.lastIndex(of: CChar(UInt8(ascii: "/"))).map { $0 + 1 } ?? 0
        var bytes: [CChar] = []
        bytes.reserveCapacity(whole.count + suffix.utf8.count + 3)
        bytes.append(contentsOf: whole[..<name])
        bytes.append(CChar(UInt8(ascii: ".")))
        bytes.append(contentsOf: whole[name...])
        bytes.append(CChar(UInt8(ascii: ".")))
        for byte in suffix.utf8 { bytes.append(CChar(bitPattern: byte)) }
        bytes.append(0)
        return bytes
    }
}

/// A new file's descriptor: written, flushed and closed once, closed when it goes away.
class NewFile {
    let descriptor: FileDescriptor
    private var open = true

    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit {
        if open { try? descriptor.close() }
    }

    func write(_ bytes: [UInt8]) throws(FileError) {
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw failure(error)
        }
    }

    func sync() throws(FileError) {
        guard fsync(descriptor.rawValue) == 0 else { throw lastError }
    }

    func close() throws(FileError) {
        guard open else { return }
        open = false
        do {
            try descriptor.close()
        } catch {
            throw failure(error)
        }
    }
}

/// A new file named `.NAME.XXXXXX` beside the one it will replace, renamed over it when complete.
final class DescriptorTemporary: NewFile, TemporaryFile {
    let path: FilePath?

    init(_ descriptor: FileDescriptor, path: FilePath) {
        self.path = path
        super.init(descriptor)
    }

    func publish(as target: FilePath, replacing: Bool) throws(PublishFailure) {
        do {
            try close()
        } catch {
            throw .closing(error)
        }
        guard let path else { return }
        let status = path.withPlatformString { from in target.withPlatformString { to in rename(from, to) } }
        guard status == 0 else { throw .placing(lastError) }
    }

    func discard() {
        try? close()
        if let path { _ = path.withPlatformString { unlink($0) } }
    }

}

#if os(Linux)
/// A new file with no name in the folder of the one it will replace (`O_TMPFILE`), linked into
/// the folder only when complete: a program that ends while writing it leaves nothing behind.
final class UnnamedTemporary: NewFile, TemporaryFile {
    var path: FilePath? { nil }

    /// `O_TMPFILE`, which Glibc declares only for `_GNU_SOURCE` (`<bits/fcntl-linux.h>`): the
    /// value of x86-64 and AArch64, with `O_DIRECTORY`.
    static let openFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// An unnamed file in the folder of `path`, or `nil` when that file system makes none (then
    /// a named one is made instead).
    static func create(beside path: FilePath, permissions: FilePermissions) throws(FileError) -> UnnamedTemporary? {
        var folder = path.removingLastComponent()
        if folder.isEmpty { folder = "." }
        // open(2) takes the umask's bits from the mode; fchmod gives them back, which a report
        // with the permissions of a new file (most of them) needs not.
        let descriptor = folder.withPlatformString {
            openFile($0, openFlag | O_WRONLY | O_CLOEXEC, permissions.rawValue)
        }
        guard descriptor >= 0 else {
            let failure = Errno(rawValue: errno)
            // The file system, or the kernel, has no unnamed files.
            if [.notSupported, .isDirectory, .invalidArgument].contains(failure) { return nil }
            throw FileError(failure)
        }
        let file = UnnamedTemporary(FileDescriptor(rawValue: descriptor))
        if permissions.rawValue & LocalFileStore.processUmask != 0, fchmod(descriptor, permissions.rawValue) != 0 {
            let failure = lastError
            file.discard()
            throw failure
        }
        return file
    }

    func publish(as target: FilePath, replacing: Bool) throws(PublishFailure) {
        defer { discard() }
        let source = "/proc/self/fd/\(descriptor.rawValue)"
        // A new report: linked under its own name, in one step.
        if !replacing {
            if link(source, target) == 0 { return try closeAfterPlacing() }
            guard errno == EEXIST else { throw .placing(lastError) }
        }
        // The target exists: linked under a name of its own beside it, then renamed over it.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let name = FilePath(platformString: hiddenName(beside: target, suffix: Self.suffix(random.next())))
            if link(source, name) == 0 {
                let status = name.withPlatformString { from in target.withPlatformString { to in rename(from, to) } }
                guard status == 0 else {
                    let failure = lastError
                    _ = name.withPlatformString { unlink($0) }
                    throw .placing(failure)
                }
                return try closeAfterPlacing()
            }
            guard errno == EEXIST else { throw .placing(lastError) }
        }
        throw .placing(FileError(.fileExists))
    }

    /// Closes the file once it is in place.
    private func closeAfterPlacing() throws(PublishFailure) {
        do {
            try close()
        } catch {
            throw .closing(error)
        }
    }

    func discard() {
        try? close()
    }

    /// Six letters and digits from `bits`, as mkstemp's `XXXXXX`.
    static func suffix(_ bits: UInt64) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bits = bits
        var name: [UInt8] = []
        for _ in 0..<6 {
            name.append(letters[Int(bits % UInt64(letters.count))])
            bits /= UInt64(letters.count)
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// linkat(2) of `source`, a `/proc/self/fd` link, to `target`: the file it stands for gets
    /// the name `target`, unless a file has it.
    private func link(_ source: String, _ target: FilePath) -> Int32 {
        target.withPlatformString { linkat(AT_FDCWD, source, AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }
    }
}
#endif

extension Stat {
    /// The size of a regular file; `nil` for anything else (a pipe, a terminal).
    var regularSize: Int? { type == .regular ? Int(size) : nil }
}
