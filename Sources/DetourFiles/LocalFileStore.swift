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
    public init() {}

    public func openForReading(_ path: FilePath) throws(FileError) -> any ReadableFile {
        let owned = path != .standardStream
        let descriptor: FileDescriptor
        if !owned {
            descriptor = .standardInput
        } else {
            do {
                descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            } catch {
                throw failure(error)
            }
        }
        let info: Stat
        do {
            info = try descriptor.stat()
        } catch {
            if owned { try? descriptor.close() }
            throw failure(error)
        }
        if info.type == .directory {
            if owned { try? descriptor.close() }
            throw FileError(.isDirectory, reason: "it is a folder")
        }
        let size = info.type == .regular ? Int(info.size) : nil
        return DescriptorFile(descriptor, owned: owned, regularFileSize: size)
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

    public func createTemporary(beside path: FilePath) throws(FileError) -> any TemporaryFile {
        // `dir/.name.XXXXXX` from `dir/name`, made in one buffer: a batch makes one per report.
        var template = path.withPlatformString { pointer in
            let whole = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
            let name = whole.lastIndex(of: CChar(UInt8(ascii: "/"))).map { $0 + 1 } ?? 0
            var bytes: [CChar] = []
            bytes.reserveCapacity(whole.count + 9)
            bytes.append(contentsOf: whole[..<name])
            bytes.append(CChar(UInt8(ascii: ".")))
            bytes.append(contentsOf: whole[name...])
            for byte in ".XXXXXX\0".utf8 { bytes.append(CChar(bitPattern: byte)) }
            return bytes
        }
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw lastError }
        let created = FilePath(platformString: template)
        return DescriptorTemporary(FileDescriptor(rawValue: descriptor), path: created)
    }

    public func rename(_ source: FilePath, to target: FilePath) throws(FileError) {
        let status = source.withPlatformString { from in target.withPlatformString { to in systemRename(from, to) } }
        guard status == 0 else { throw lastError }
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

    public var standardOutputIdentity: FileIdentity? {
        (try? FileDescriptor.standardOutput.stat()).map { FileInfo($0).identity }
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
    private static let processUmask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// Reads what must be read on one thread before several write files.
    public static func prepareForThreads() {
        _ = processUmask
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

/// `rename(2)`, under a name the store's own `rename` does not hide.
private func systemRename(_ source: UnsafePointer<CChar>, _ target: UnsafePointer<CChar>) -> Int32 {
    rename(source, target)
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

/// A new file beside the one it will replace.
final class DescriptorTemporary: TemporaryFile {
    let descriptor: FileDescriptor
    let path: FilePath
    private var open = true

    init(_ descriptor: FileDescriptor, path: FilePath) {
        self.descriptor = descriptor
        self.path = path
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

    func setPermissions(_ permissions: FilePermissions) throws(FileError) {
        guard fchmod(descriptor.rawValue, permissions.rawValue) == 0 else { throw lastError }
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
