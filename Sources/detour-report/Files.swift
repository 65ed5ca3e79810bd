import ArgumentParser
import DetourCore
import DetourIO
import DetourRender

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

    /// Whether `output` is the trip's own file, `input` (standard input for `-`): the same
    /// regular file (device and inode), which a report written there would replace.
    static func isTrip(_ output: String, input: String) -> Bool {
        var target = stat()
        var source = stat()
        guard output != "-", stat(output, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { return false }
        let known = input == "-" ? fstat(STDIN_FILENO, &source) == 0 : stat(input, &source) == 0
        return known && target.st_dev == source.st_dev && target.st_ino == source.st_ino
    }

    /// A file's device and inode: what tells two names for one file.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The identity of the file at `path`, when there is one.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Opens `path` (or standard input for `-`) for reading as a stream.
    static func open(_ path: String) throws(Failure) -> FileSource {
        let descriptor = path == "-" ? STDIN_FILENO : SystemCalls.openFile(path, O_RDONLY | O_CLOEXEC)
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

    /// Delivers `text` as ``writeReport(to:printer:_:)`` delivers a report.
    static func writeReport(_ text: String, to path: String?, printer: DiagnosticPrinter) throws(ExitCode) {
        let bytes = Array(text.utf8)
        try writeReport(to: path, printer: printer) { sink in sink(bytes) }
    }

    /// Delivers what `produce` hands its sink as ``deliver(to:flush:_:)`` does, saying on
    /// standard error what went wrong.
    ///
    /// Throws 73 when the target cannot be created or replaced, 74 when writing failed part-way;
    /// a reader that went away (`| head`) ends it quietly, with 74 still.
    static func writeReport(to path: String?, printer: DiagnosticPrinter, _ produce: (@escaping ReportSink) -> Void)
        throws(ExitCode)
    {
        do {
            try deliver(to: path, produce)
        } catch {
            let problem = error.problem(path: path)
            if case .cutOff(.brokenPipe) = error {
            } else {
                printer.print([problem.diagnostic], file: problem.file)
            }
            throw problem.code
        }
    }

    /// Why a report could not be delivered, which decides the exit code.
    enum DeliveryError: Error {
        /// The target cannot be opened, created or replaced; nothing was written (exit 73).
        case cannotCreate(String)
        /// Writing began and failed part-way (exit 74).
        case cutOff(StandardStreams.WriteError)

        /// The diagnostic for a report that did not reach `path` (standard output for `nil` or
        /// `-`), the file it names (detour-report itself for standard output), and the exit code.
        func problem(path: String?) -> (diagnostic: Diagnostic, file: String, code: ExitCode) {
            let file = path.flatMap { $0 == "-" ? nil : $0 }
            let target = file == nil ? "standard output" : "the file"
            switch self {
            case .cannotCreate(let reason):
                return (
                    Diagnostic(.cannotCreateOutput, "cannot create or replace \(target): \(reason)"),
                    file ?? "detour-report", ExitCodes.cannotCreate
                )
            case .cutOff(let failure):
                let reason = if case .failed(let reason) = failure { reason } else { "the reader went away" }
                return (
                    Diagnostic(.writeFailed, "writing to \(target) failed part-way: \(reason)"),
                    file ?? "detour-report",
                    ExitCodes.ioError
                )
            }
        }
    }

    /// What an `-o` target is, which decides how the report gets there.
    enum Destination {
        /// Standard output, named `-` or by another name for the same file (`/dev/stdout`).
        case standardOutput
        /// A device, a FIFO, a terminal: written through, as the shell's `>` does.
        case stream(String)
        /// A regular file, new or replaced all at once with this mode, where the links end.
        case file(String, mode: mode_t)
    }

    /// Where `path` (`nil` or `-` for standard output) sends a report.
    static func destination(of path: String?) throws(DeliveryError) -> Destination {
        guard let path, path != "-" else { return .standardOutput }
        var target = stat()
        guard stat(path, &target) == 0 else {
            // A missing file, or a link to one: created where the links end.
            guard errno == ENOENT else { throw .cannotCreate(systemReason()) }
            return .file(finalTarget(of: path), mode: 0o666 & ~currentUmask())
        }
        let kind = target.st_mode & S_IFMT
        if kind == S_IFDIR { throw .cannotCreate("it is a directory") }
        var standardOutput = stat()
        if fstat(STDOUT_FILENO, &standardOutput) == 0,
            standardOutput.st_dev == target.st_dev, standardOutput.st_ino == target.st_ino
        {
            return .standardOutput
        }
        return kind == S_IFREG ? .file(finalTarget(of: path), mode: target.st_mode & 0o7777) : .stream(path)
    }

    /// Writes what `produce` hands its sink to the `-o` target `path`, or to standard output for
    /// `nil` or `-`, chunk by chunk as it comes: a large report is never held whole.
    ///
    /// A regular file (or a new one) is replaced all at once, when the last chunk is written;
    /// through a symbolic link, the file it finally points to is replaced and the link stays.
    /// Anything else is written through.
    ///
    /// With `flush`, the file is on disk before it replaces the target, so a power cut cannot
    /// leave an empty report where a good one was. A batch run passes `false`: a flush for each
    /// of hundreds of reports was a quarter of the run and kept a second worker waiting, and a
    /// batch that is cut short is run again anyway. Each report is still replaced atomically.
    static func deliver(to path: String?, flush: Bool = true, _ produce: (@escaping ReportSink) -> Void)
        throws(DeliveryError)
    {
        switch try destination(of: path) {
        case .standardOutput:
            try writeThrough(produce, to: STDOUT_FILENO)
        case .file(let file, let mode):
            try replace(file, with: produce, mode: mode, flush: flush)
        case .stream(let stream):
            let descriptor = SystemCalls.openFile(stream, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotCreate(systemReason()) }
            defer { close(descriptor) }
            try writeThrough(produce, to: descriptor)
        }
    }

    /// Writes each chunk as it comes; after a failure the rest are dropped and the first
    /// failure is kept for the caller.
    private final class ChunkWriter {
        let descriptor: Int32
        var failure: StandardStreams.WriteError?

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        func write(_ chunk: [UInt8]) {
            guard failure == nil else { return }
            do {
                try StandardStreams.write(chunk, to: descriptor)
            } catch {
                failure = error
            }
        }
    }

    private static func writeThrough(_ produce: (@escaping ReportSink) -> Void, to descriptor: Int32)
        throws(DeliveryError)
    {
        let writer = ChunkWriter(descriptor: descriptor)
        produce(writer.write)
        if let failure = writer.failure { throw .cutOff(failure) }
    }

    /// Replaces the regular file `path` with what `produce` writes, all at once, or leaves it as
    /// it was.
    ///
    /// The bytes go to a new file beside the target, which is given `mode`, flushed to disk
    /// (with `flush`) and then renamed over the target, so a reader never sees half a report and
    /// a failure leaves no stray file.
    private static func replace(
        _ path: String, with produce: (@escaping ReportSink) -> Void, mode: mode_t, flush: Bool
    ) throws(DeliveryError) {
        let (directory, name) = split(path)
        var template = Array("\(directory.isEmpty ? "./" : directory).\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw .cannotCreate(systemReason()) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var finished = false
        defer {
            if !finished { unlink(temporary) }
        }
        guard fchmod(descriptor, mode) == 0 else {
            let reason = systemReason()
            close(descriptor)
            throw .cannotCreate(reason)
        }
        let writer = ChunkWriter(descriptor: descriptor)
        produce(writer.write)
        if let failure = writer.failure {
            close(descriptor)
            throw .cutOff(failure)
        }
        guard !flush || fsync(descriptor) == 0 else {
            let reason = systemReason()
            close(descriptor)
            throw .cutOff(.failed(reason))
        }
        guard close(descriptor) == 0 else { throw .cutOff(.failed(systemReason())) }
        guard rename(temporary, path) == 0 else { throw .cannotCreate(systemReason()) }
        finished = true
    }

    /// Where the symbolic links starting at `path` end (`path` itself when it is no link).
    private static func finalTarget(of path: String) -> String {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        // A longer chain is a loop, which rename then reports.
        for _ in 0..<40 {
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : split(current).directory + destination
        }
        return current
    }

    /// A path's folder (with its final `/`, or empty) and its last component.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    private static func currentUmask() -> mode_t { processUmask }

    /// The process's umask, read once: reading it means setting it, which must not happen while a batch run's workers
    /// create files.
    ///
    /// ``prepareForThreads()`` reads it before they start.
    private static let processUmask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// Reads what must be read on one thread before several write files.
    static func prepareForThreads() {
        _ = processUmask
    }

    /// Whether `path` is a folder (through links); never standard input's `-`.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in `folder` but `.` and `..`, sorted by their bytes; `nil` when it cannot be
    /// listed.
    static func names(in folder: String) -> [String]? {
        entries(in: folder)?.map(\.name)
    }

    /// One name in a folder, with what the folder says it is.
    struct Entry {
        var name: String
        /// `readdir(3)`'s `d_type`: `DT_REG`, `DT_DIR`, `DT_LNK`, or `DT_UNKNOWN` where the file
        /// system does not say (then only `lstat` can tell).
        var type: UInt8
    }

    /// The entries of `folder` without `.` and `..`, sorted by name (byte order); `nil` when it
    /// cannot be read.
    static func entries(in folder: String) -> [Entry]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { entries.append(Entry(name: name, type: entry.pointee.d_type)) }
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Creates `path` and any folders above it that are missing (`mkdir -p`); true when it is
    /// a folder afterwards.
    static func makeFolders(_ path: String) -> Bool {
        if path.isEmpty || isDirectory(path) { return true }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex,
            !makeFolders(String(path[..<slash]))
        {
            return false
        }
        return mkdir(path, 0o777) == 0 || (errno == EEXIST && isDirectory(path))
    }

    /// The system's reason for the last failed call, as a sentence.
    static func lastSystemReason() -> String { systemReason() }

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
            let count = SystemCalls.readBytes(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw Files.Failure(reason: Files.systemReason()) }
        }
    }
}
