import DetourCore
import DetourRender
import SystemPackage

/// Delivering an output to where it goes: standard output, a device, or a file that is replaced
/// all at once or not at all.
public enum Delivery {
    /// Why an output could not be delivered, which decides the exit code.
    public enum Failure: Error, Sendable {
        /// The target cannot be opened, created or replaced; nothing was written (exit 73).
        case cannotCreate(FileError)
        /// Writing began and failed part-way (exit 74); `readerWentAway` when the other end of
        /// a pipe closed (`| head`), which is said quietly.
        case cutOff(FileError, readerWentAway: Bool = false)
        /// A PDF could not be printed (exit 69); nothing was written.
        case unprintable(PrintFailure)

        /// The diagnostic for an output that did not reach `target` (standard output for `nil`).
        public func diagnostic(target: FilePath?) -> Diagnostic {
            let what = target == nil ? "standard output" : "the file"
            switch self {
            case .cannotCreate(let error):
                return Diagnostic(.cannotCreateOutput, "cannot create or replace \(what): \(error.reason)")
            case .cutOff(let error, _):
                return Diagnostic(.writeFailed, "writing to \(what) failed part-way: \(error.reason)")
            case .unprintable(let failure):
                return failure.diagnostic
            }
        }
    }

    /// Where a path sends an output.
    public enum Destination: Sendable, Equatable {
        /// Standard output, named `-` or by another name for the same file (`/dev/stdout`).
        case standardOutput
        /// A device, a FIFO, a terminal: written through, as the shell's `>` does.
        case stream(FilePath)
        /// A regular file, new or replaced all at once with these permissions, where the links end;
        /// `replacing` when a file is there now.
        case file(FilePath, permissions: FilePermissions, replacing: Bool = false)
    }

    /// Where `path` (`nil` or `-` for standard output) sends an output.
    ///
    /// With `followLinks` (what `-o` does), symbolic links are followed: the file they end at is
    /// replaced, and the links stay. Without (a batch run's reports), a link is replaced by the
    /// file, so a link planted in the output folder cannot send a report elsewhere.
    public static func destination(
        of path: FilePath?, store: some FileStore, followLinks: Bool = true
    ) throws(Failure) -> Destination {
        guard let path, path != .standardStream else { return .standardOutput }
        let info: FileInfo
        do {
            // Without following links, one look tells all: a link is replaced, anything else is
            // what the look saw.
            info = try store.info(path, followLinks: followLinks)
        } catch {
            // A missing file, or a link to one: created where the links end.
            guard error.isMissing else { throw .cannotCreate(error) }
            return .file(followLinks ? store.resolvingLinks(path) : path, permissions: store.newFilePermissions)
        }
        if info.kind == .symbolicLink { return .file(path, permissions: store.newFilePermissions, replacing: true) }
        if info.kind == .directory { throw .cannotCreate(FileError(.isDirectory, reason: "it is a folder")) }
        if info.identity == store.standardOutputIdentity { return .standardOutput }
        guard info.kind == .regular else { return .stream(path) }
        return .file(followLinks ? store.resolvingLinks(path) : path, permissions: info.permissions, replacing: true)
    }

    /// Writes what `produce` hands its sink to `path` (standard output for `nil` or `-`), chunk
    /// by chunk as it comes, so a large report is never held whole.
    ///
    /// A regular file (or a new one) is replaced all at once when the last chunk is written: the
    /// bytes go to a new file beside it, which gets the old file's permissions, is flushed to disk
    /// (with `flush`) and is renamed over it. A reader never sees half a report, and a failure
    /// leaves the old file as it was and no new file behind. A batch run passes `flush: false`:
    /// a flush for each of hundreds of reports was a quarter of the run, and a batch cut short is
    /// run again anyway. Anything else is written through.
    ///
    /// With `isNew`, the caller knows that no file is at `path` (a batch run lists its folder
    /// before it writes), and it is not looked at: a look for a name that is not there waits for
    /// the folder's lock, which the workers creating files hold in turn. Should a file be there
    /// after all, it is replaced as a link is.
    ///
    /// `registry` keeps the files' names from a signal's handler (see ``TemporaryFiles``).
    public static func deliver(
        to path: FilePath?, store: some FileStore, flush: Bool = true, followLinks: Bool = true, isNew: Bool = false,
        registry: TemporaryFiles = .shared, _ produce: (@escaping ReportSink) throws(Failure) -> Void
    ) throws(Failure) {
        let destination =
            if isNew, let path, path != .standardStream {
                Destination.file(path, permissions: store.newFilePermissions)
            } else {
                try destination(of: path, store: store, followLinks: followLinks)
            }
        switch destination {
        case .standardOutput:
            try writeThrough(produce, to: store.standardOutput)
        case .stream(let stream):
            let file: any WritableFile
            do {
                file = try store.openStream(stream)
            } catch {
                throw .cannotCreate(error)
            }
            try writeThrough(produce, to: file)
        case .file(let target, let permissions, let replacing):
            try replace(
                target, with: produce, permissions: permissions, replacing: replacing, flush: flush, store: store,
                registry: registry)
        }
    }

    /// Hands each chunk to `file` as it comes; after a failure the rest are dropped, and the
    /// first failure is kept.
    private final class ChunkWriter {
        let file: any WritableFile
        var failure: FileError?

        init(_ file: any WritableFile) {
            self.file = file
        }

        func write(_ chunk: [UInt8]) {
            guard failure == nil else { return }
            do {
                try file.write(chunk)
            } catch {
                failure = error
            }
        }

        func check() throws(Failure) {
            if let failure { throw .cutOff(failure, readerWentAway: failure.errno == .brokenPipe) }
        }
    }

    private static func writeThrough(
        _ produce: (@escaping ReportSink) throws(Failure) -> Void, to file: any WritableFile
    ) throws(Failure) {
        let writer = ChunkWriter(file)
        try produce(writer.write)
        try writer.check()
    }

    /// Replaces `target` all at once, or leaves it as it was.
    ///
    /// This is the one sequence every file an output or a store writes goes through. The bytes go to a new file beside it with
    /// `permissions`, flushed (with `flush`), then renamed over whatever is there (a file, a
    /// link, which is replaced and never written through, or nothing when not `replacing`).
    public static func replace(
        _ target: FilePath, with produce: (@escaping ReportSink) throws(Failure) -> Void,
        permissions: FilePermissions, replacing: Bool, flush: Bool, store: some FileStore,
        registry: TemporaryFiles = .shared
    ) throws(Failure) {
        let created: (any TemporaryFile)?
        do {
            created = try registry.step { () throws(FileError) in
                let file = try store.createTemporary(beside: target, permissions: permissions)
                if let path = file.path { registry.remember(path) }
                return file
            }
        } catch {
            throw .cannotCreate(error)
        }
        guard let temporary = created else { throw .cannotCreate(interrupted) }
        var published = false
        defer {
            if !published { temporary.discard() }
            if let path = temporary.path { registry.forget(path) }
        }
        let writer = ChunkWriter(temporary)
        try produce(writer.write)
        try writer.check()
        if flush {
            do {
                try temporary.sync()
            } catch {
                throw .cutOff(error)
            }
        }
        let placed: Void?
        do {
            placed = try registry.step { () throws(PublishFailure) in
                try temporary.publish(as: target, replacing: replacing)
            }
        } catch {
            switch error {
            case .closing(let failure): throw .cutOff(failure)
            case .placing(let failure): throw .cannotCreate(failure)
            }
        }
        guard placed != nil else { throw .cannotCreate(interrupted) }
        published = true
    }

    /// Why no file is made or put in place once a signal has stopped the run.
    private static let interrupted = FileError(.interrupted, reason: "the run was interrupted")
}
