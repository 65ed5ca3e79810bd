import DetourIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the trip and writing the report: the only file access in detour-report.
enum Files {
    /// Why a file could not be read or written, with the system's reason.
    struct Failure: Error {
        /// A sentence for the user.
        var reason: String
    }

    /// The whole content of `path`, or of standard input for `-`; `nil` when it is longer than
    /// `limit` bytes (reading stops there, so a huge file is never held whole).
    static func read(_ path: String, limit: Int = .max) throws(Failure) -> [UInt8]? {
        let source = try open(path)
        var bytes: [UInt8] = []
        if let size = source.regularFileSize {
            if size > limit { return nil }
            bytes.reserveCapacity(size)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            } catch {
                throw error as? Failure ?? Failure(reason: "\(error)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return nil }
        }
        return bytes
    }

    /// Whether two paths name the same existing file (same device and inode).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Opens `path` (or standard input for `-`) for reading as a stream.
    static func open(_ path: String) throws(Failure) -> FileSource {
        let descriptor = path == "-" ? STDIN_FILENO : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(reason: systemReason()) }
        var info = stat()
        let known = fstat(descriptor, &info) == 0
        if known, (info.st_mode & S_IFMT) == S_IFDIR {
            if path != "-" { close(descriptor) }
            throw Failure(reason: "it is a directory")
        }
        let size = known && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        return FileSource(descriptor: descriptor, owned: path != "-", regularFileSize: size)
    }

    /// Replaces `path` with `text` all at once, or leaves it as it was.
    ///
    /// The text goes to a new file beside the target, which is flushed to disk and then renamed
    /// over the target, so a reader never sees half a report and a failure leaves no stray file.
    /// An existing target keeps its permissions.
    static func replace(_ path: String, with text: String) throws(Failure) {
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "./"
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw Failure(reason: "it names a directory") }
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists, (existing.st_mode & S_IFMT) == S_IFDIR { throw Failure(reason: "it is a directory") }
        let mode = exists ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask()

        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw Failure(reason: systemReason()) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var finished = false
        defer {
            if !finished { unlink(temporary) }
        }
        do {
            try StandardStreams.write(Array(text.utf8), to: descriptor)
        } catch {
            close(descriptor)
            switch error {
            case .brokenPipe: throw Failure(reason: "the write was cut off")
            case .failed(let reason): throw Failure(reason: reason)
            }
        }
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            let reason = systemReason()
            close(descriptor)
            throw Failure(reason: reason)
        }
        guard close(descriptor) == 0 else { throw Failure(reason: systemReason()) }
        guard rename(temporary, path) == 0 else { throw Failure(reason: systemReason()) }
        finished = true
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    fileprivate static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}

/// A file read in chunks, for readers that stream.
final class FileSource: ByteSource {
    private let descriptor: Int32
    private let owned: Bool
    /// The size of a regular file, known before reading; `nil` for pipes and terminals.
    let regularFileSize: Int?

    init(descriptor: Int32, owned: Bool, regularFileSize: Int?) {
        self.descriptor = descriptor
        self.owned = owned
        self.regularFileSize = regularFileSize
    }

    deinit {
        if owned { close(descriptor) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw Files.Failure(reason: Files.systemReason()) }
        }
    }
}
