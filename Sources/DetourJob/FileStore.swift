import DetourIO
import SystemPackage

/// The file system as a render job, a batch run and the server see it: the few operations they
/// need, so that tests can put a fake in the real one's place for the faults that are hard to
/// make on a real disk (a rename that fails, a disk that fills after some bytes).
///
/// Paths are `FilePath`s, which keep a name's bytes as they are: a file called `bad\xFF.json` is
/// opened by its own name, never by a lossy copy of it. ``LocalFileStore`` in `DetourFiles` is
/// the real one.
public protocol FileStore: Sendable {
    /// Opens `path` for reading; `-` is standard input.
    func openForReading(_ path: FilePath) throws(FileError) -> any ReadableFile

    /// Opens `path` for reading when, once open, it is a regular file inside `folder` (a real
    /// path, links resolved), reached directly or through links that stay inside; anything else
    /// (a link out of the folder, a FIFO, a device, a folder) is refused, and opening never waits.
    ///
    /// What is checked is the open file itself, so a name swapped for something else between
    /// a look at it and the open can never hand out another file or block the caller.
    func openForReading(_ path: FilePath, inside folder: FilePath) throws(FileError) -> any ReadableFile

    /// What `path` is, following symbolic links (`stat(2)`); `followLinks: false` looks at a
    /// link itself (`lstat(2)`).
    func info(_ path: FilePath, followLinks: Bool) throws(FileError) -> FileInfo

    /// The entries of a folder, but `.` and `..`, in no particular order.
    func entries(in folder: FilePath) throws(FileError) -> [FolderEntry]

    /// Creates the folder `path` (not its parents); succeeds when it exists already as a folder.
    func makeFolder(_ path: FilePath) throws(FileError)

    /// Creates a new, empty file in the folder of `path`, with `permissions`, for writing: one
    /// with no name where the file system allows it, else one named `.NAME.XXXXXX` after `path`.
    func createTemporary(beside path: FilePath, permissions: FilePermissions) throws(FileError)
        -> any TemporaryFile

    /// Removes the file `path`; a file that is already gone is no error.
    func remove(_ path: FilePath)

    /// Opens an existing file that is not a regular file (a device, a FIFO) for writing through.
    func openStream(_ path: FilePath) throws(FileError) -> any WritableFile

    /// Standard output, for writing.
    var standardOutput: any WritableFile { get }

    /// The identity of standard output, when it is a file that has one.
    var standardOutputIdentity: FileIdentity? { get }

    /// The identity of standard input, when it is a file that has one.
    var standardInputIdentity: FileIdentity? { get }

    /// Where the symbolic links starting at `path` end (`path` itself when it is no link).
    func resolvingLinks(_ path: FilePath) -> FilePath

    /// The permissions a new file gets: `rw-rw-rw-` less the process's umask.
    var newFilePermissions: FilePermissions { get }
}

/// A file being read, in chunks.
public protocol ReadableFile: ByteSource, AnyObject {
    /// The size of a regular file, known before reading; `nil` for a pipe or a terminal.
    var regularFileSize: Int? { get }

    /// Reads up to `buffer.count` bytes into `buffer`; returns how many (0 at the end), or throws.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file being written, in chunks.
public protocol WritableFile: AnyObject {
    /// Writes every byte of `bytes`.
    func write(_ bytes: [UInt8]) throws(FileError)
}

/// A new file beside the one it will replace.
public protocol TemporaryFile: WritableFile {
    /// Its name while it is written, or `nil` when it has none: an unnamed file (`O_TMPFILE`),
    /// which the kernel frees if the program ends before it is put in place.
    var path: FilePath? { get }
    /// Flushes what was written to the disk.
    func sync() throws(FileError)
    /// Puts it in place of `target`, which it replaces atomically (or creates), and closes it.
    ///
    /// An unnamed file is linked under `target`'s name when there is no file there yet, else
    /// under a temporary name beside it that is at once renamed over it; a named one is closed
    /// and renamed. `replacing` says a file was there when last looked: then an unnamed file
    /// is not first tried under the target's own name.
    func publish(as target: FilePath, replacing: Bool) throws(PublishFailure)
    /// Closes it and removes its name, if it has one: nothing of it is left.
    func discard()
}

/// Why a new file was not put in place.
public enum PublishFailure: Error, Sendable, Equatable {
    /// Closing it failed: its bytes may not all be there.
    case closing(FileError)
    /// Linking or renaming it failed: the target is as it was.
    case placing(FileError)
}

/// Why a file operation failed: the system's error number and its reason, as a sentence.
public struct FileError: Error, Sendable, Equatable {
    /// `errno`, as `Errno`.
    public var errno: Errno
    /// A reason of our own, if any.
    private var ownReason: String?

    /// A sentence for the user: `No such file or directory`, or a reason of our own.
    ///
    /// The system's sentence is looked up only when asked for: most errors (a report that does
    /// not exist yet, a trip's output checked in a batch) are handled without a word.
    public var reason: String { ownReason ?? errno.description }

    /// The error for `errno`, with the system's own sentence.
    public init(_ errno: Errno) {
        self.errno = errno
    }

    /// An error with a reason of its own.
    public init(_ errno: Errno, reason: String) {
        self.errno = errno
        ownReason = reason
    }

    /// Whether the file does not exist.
    public var isMissing: Bool { errno == .noSuchFileOrDirectory }
}

/// What a path is: its kind, its identity and its permissions.
public struct FileInfo: Sendable, Equatable {
    /// A regular file, a folder, a symbolic link (seen without following it), or anything else.
    public enum Kind: Sendable, Equatable {
        case regular
        case directory
        case symbolicLink
        case other
    }

    public var kind: Kind
    public var identity: FileIdentity
    public var permissions: FilePermissions
    /// The size in bytes.
    public var size: Int

    public init(kind: Kind, identity: FileIdentity, permissions: FilePermissions, size: Int) {
        self.kind = kind
        self.identity = identity
        self.permissions = permissions
        self.size = size
    }
}

/// A file's device and inode: what tells two names for one file.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// One name in a folder, with what the folder says it is.
public struct FolderEntry: Sendable, Equatable {
    /// The name, as its bytes.
    public var name: FilePath.Component
    /// What the folder's listing says (`readdir(3)`'s `d_type`), when it says; `nil` means only
    /// ``FileStore/info(_:followLinks:)`` can tell.
    public var kind: FileInfo.Kind?

    public init(name: FilePath.Component, kind: FileInfo.Kind?) {
        self.name = name
        self.kind = kind
    }
}

extension FileError: CustomStringConvertible {
    /// The reason, as messages show it.
    public var description: String { reason }
}

extension FileStore {
    /// The whole content of `path`, or `nil` when it is longer than `limit` bytes (reading stops
    /// there, so a huge file is never held whole).
    public func contents(of path: FilePath, limit: Int) throws(FileError) -> [UInt8]? {
        try contents(of: openForReading(path), limit: limit)
    }

    /// The whole content of `path` opened only as a regular file inside `folder` (see
    /// ``openForReading(_:inside:)``), or `nil` when it is longer than `limit` bytes.
    public func contents(of path: FilePath, inside folder: FilePath, limit: Int) throws(FileError) -> [UInt8]? {
        try contents(of: openForReading(path, inside: folder), limit: limit)
    }

    private func contents(of file: any ReadableFile, limit: Int) throws(FileError) -> [UInt8]? {
        if let size = file.regularFileSize, size > limit { return nil }
        do {
            return try TripInput.readWhole(file, after: [], limit: limit)
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(.ioError, reason: "\(error)")
        }
    }
}

extension FilePath {
    /// `-`, which names standard input (to read) or standard output (to write).
    ///
    /// Made once: comparing with the literal `"-"` would build and normalise a path each time.
    public static let standardStream: FilePath = "-"
}
