import DetourIO
import DetourJob
import Foundation
import Synchronization
import SystemPackage

/// A file system in memory, with the faults a real disk seldom gives on demand: a rename that
/// fails, a disk that fills after so many bytes, a flush or a close that fails.
final class FakeFileStore: FileStore, Sendable {
    struct Node {
        var bytes: [UInt8]
        var permissions: FilePermissions
        var inode: UInt64
    }

    struct State {
        var files: [String: Node] = [:]
        var folders: Set<String> = ["/"]
        var nextInode: UInt64 = 100
        var written = 0
        var temporaries = 0
        var stdout: [UInt8] = []
        var streams: [String: [UInt8]] = [:]
    }

    /// The faults to give.
    struct Faults: Sendable {
        var rename: Errno?
        /// Writes fail with "No space left on device" once this many bytes have been written in all.
        var diskFullAfter: Int?
        var sync: Errno?
        var close: Errno?
        var createTemporary: Errno?
        var makeFolder: Errno?
        var openStream: Errno?
        var setPermissions: Errno?
        /// What looking at any path fails with, in place of what it is.
        var info: Errno?
        /// What reading a file fails with, once its first `readFailsAfter` bytes are read.
        var read: (any Error & Sendable)?
        var readFailsAfter = 0
        /// Files are read as pipes are: their size is not known before.
        var sizeUnknown = false
    }

    let state = Mutex(State())
    let faults: Faults

    init(faults: Faults = Faults()) {
        self.faults = faults
    }

    // MARK: What tests look at

    func put(_ path: String, _ text: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead]) {
        state.withLock { state in
            state.nextInode += 1
            state.files[path] = Node(bytes: Array(text.utf8), permissions: permissions, inode: state.nextInode)
        }
    }

    func folder(_ path: String) {
        _ = state.withLock { $0.folders.insert(path) }
    }

    func text(_ path: String) -> String? {
        state.withLock { $0.files[path].map { String(decoding: $0.bytes, as: UTF8.self) } }
    }

    func node(_ path: String) -> Node? {
        state.withLock { $0.files[path] }
    }

    var paths: [String] { state.withLock { $0.files.keys.sorted() } }

    var standardOutputText: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }

    // MARK: FileStore

    func openForReading(_ path: FilePath) throws(FileError) -> any ReadableFile {
        let found: [UInt8]? = state.withLock { $0.files[path.string]?.bytes }
        guard let found else {
            if state.withLock({ $0.folders.contains(path.string) }) {
                throw FileError(.isDirectory, reason: "it is a folder")
            }
            throw FileError(.noSuchFileOrDirectory)
        }
        return Reader(found, faults: faults)
    }

    /// The fake has no links and no FIFOs: a file of its own inside `folder` is opened, any other
    /// path refused as the real store refuses one outside the folder.
    func openForReading(_ path: FilePath, inside folder: FilePath) throws(FileError) -> any ReadableFile {
        guard path.starts(with: folder), path != folder else {
            throw FileError(.permissionDenied, reason: "not inside the folder")
        }
        return try openForReading(path)
    }

    func info(_ path: FilePath, followLinks: Bool) throws(FileError) -> FileInfo {
        if let fault = faults.info { throw FileError(fault) }
        let key = path.string
        return try state.withLock { state throws(FileError) in
            if state.folders.contains(key) {
                return FileInfo(
                    kind: .directory, identity: FileIdentity(device: 1, inode: 1),
                    permissions: [.ownerReadWriteExecute], size: 0)
            }
            if state.streams[key] != nil {
                return FileInfo(
                    kind: .other, identity: FileIdentity(device: 1, inode: 2), permissions: [.ownerReadWrite], size: 0)
            }
            guard let node = state.files[key] else { throw FileError(.noSuchFileOrDirectory) }
            return FileInfo(
                kind: .regular, identity: FileIdentity(device: 1, inode: node.inode), permissions: node.permissions,
                size: node.bytes.count)
        }
    }

    func entries(in folder: FilePath) throws(FileError) -> [FolderEntry] {
        let prefix = folder.string.hasSuffix("/") ? folder.string : folder.string + "/"
        return state.withLock { state in
            let files = state.files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }
            return files.compactMap { FilePath.Component(String($0.dropFirst(prefix.count))) }.map {
                FolderEntry(name: $0, kind: .regular)
            }
        }
    }

    func makeFolder(_ path: FilePath) throws(FileError) {
        if let fault = faults.makeFolder { throw FileError(fault) }
        _ = state.withLock { $0.folders.insert(path.string) }
    }

    /// A named temporary, `.NAME.N`, as file systems without unnamed files make them.
    func createTemporary(beside path: FilePath, permissions: FilePermissions) throws(FileError)
        -> any TemporaryFile
    {
        if let fault = faults.createTemporary { throw FileError(fault) }
        if let fault = faults.setPermissions { throw FileError(fault) }
        let name = state.withLock { state in
            state.temporaries += 1
            return path.removingLastComponent().appending(".\(path.lastComponent?.string ?? "").\(state.temporaries)")
                .string
        }
        put(name, "", permissions: permissions)
        return Temporary(store: self, path: FilePath(name))
    }

    func remove(_ path: FilePath) {
        _ = state.withLock { $0.files.removeValue(forKey: path.string) }
    }

    func openStream(_ path: FilePath) throws(FileError) -> any WritableFile {
        if let fault = faults.openStream { throw FileError(fault) }
        return Stream(store: self, path: path.string)
    }

    var standardOutput: any WritableFile { Stream(store: self, path: nil) }

    var standardOutputIdentity: FileIdentity? { FileIdentity(device: 9, inode: 9) }

    var standardInputIdentity: FileIdentity? { nil }

    func resolvingLinks(_ path: FilePath) -> FilePath { path }

    var newFilePermissions: FilePermissions { [.ownerReadWrite, .groupRead, .otherRead] }

    // MARK: Files

    /// Counts a write against the disk's room; false when it is full.
    func take(_ count: Int) -> Bool {
        state.withLock { state in
            if let limit = faults.diskFullAfter, state.written + count > limit {
                state.written = limit
                return false
            }
            state.written += count
            return true
        }
    }

    final class Reader: ReadableFile {
        var source: BufferSource
        let regularFileSize: Int?
        let faults: Faults
        var left: Int

        init(_ bytes: [UInt8], faults: Faults) {
            source = BufferSource(bytes)
            regularFileSize = faults.sizeUnknown ? nil : bytes.count
            self.faults = faults
            left = faults.readFailsAfter
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard let failure = faults.read else { return try source.read(into: buffer) }
            guard left > 0 else { throw failure }
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(left)))
            left -= count
            return count
        }
    }

    final class Temporary: TemporaryFile {
        let store: FakeFileStore
        let name: FilePath
        var path: FilePath? { name }

        init(store: FakeFileStore, path: FilePath) {
            self.store = store
            name = path
        }

        func write(_ bytes: [UInt8]) throws(FileError) {
            let room = store.take(bytes.count)
            let kept = room ? bytes : []
            store.state.withLock { $0.files[name.string]?.bytes += kept }
            if !room { throw FileError(.noSpace) }
        }

        func sync() throws(FileError) {
            if let fault = store.faults.sync { throw FileError(fault) }
        }

        /// Closes it (the `close` fault), then renames it over `target` (the `rename` fault).
        func publish(as target: FilePath, replacing: Bool) throws(PublishFailure) {
            if let fault = store.faults.close { throw .closing(FileError(fault)) }
            if let fault = store.faults.rename { throw .placing(FileError(fault)) }
            store.state.withLock { state in
                state.files[target.string] = state.files.removeValue(forKey: name.string)
            }
        }

        func discard() {
            store.remove(name)
        }
    }

    final class Stream: WritableFile {
        let store: FakeFileStore
        let path: String?

        init(store: FakeFileStore, path: String?) {
            self.store = store
            self.path = path
        }

        func write(_ bytes: [UInt8]) throws(FileError) {
            guard store.take(bytes.count) else { throw FileError(.noSpace) }
            store.state.withLock { state in
                if let path { state.streams[path, default: []] += bytes } else { state.stdout += bytes }
            }
        }
    }
}
