import DetourJob
import DetourTestSupport
import Foundation
import SystemPackage
import Testing

@testable import DetourFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system behind ``FileStore``, in a scratch folder of its own for each test.
@Suite struct LocalFileStoreTests {
    let scratch: ScratchFolder
    let store = LocalFileStore()

    init() throws {
        scratch = try ScratchFolder("local-file-store")
    }

    /// `name` in the scratch folder.
    func path(_ name: String) -> FilePath {
        FilePath(scratch.url.path).appending(name)
    }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: scratch.url.appendingPathComponent(name))
    }

    func text(_ name: String) throws -> String {
        try String(contentsOf: scratch.url.appendingPathComponent(name), encoding: .utf8)
    }

    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path(name).string, withDestinationPath: target)
    }

    func expectError(_ errno: Errno, _ body: () throws -> Void) {
        #expect(throws: FileError(errno)) { try body() }
    }

    @Test func aFileIsReadWithItsSizeKnownBefore() throws {
        try write("hello, trip", to: "t.json")
        let file = try store.openForReading(path("t.json"))
        #expect(file.regularFileSize == 11)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
        #expect(Array(buffer[..<count]) == Array("hello, trip".utf8))
    }

    @Test func whatCannotBeReadSaysWhy() {
        #expect(throws: FileError(.isDirectory, reason: "it is a folder")) {
            try store.openForReading(path(""))
        }
        expectError(.noSuchFileOrDirectory) { _ = try store.openForReading(path("gone.json")) }
    }

    @Test func infoTellsWhatAPathIsFollowingLinksOrNot() throws {
        try write("abc", to: "file")
        try link("link", to: "file")
        #expect(mkfifo(path("fifo").string, 0o600) == 0)
        let file = try store.info(path("file"), followLinks: false)
        #expect(file.kind == .regular)
        #expect(file.size == 3)
        #expect(try store.info(path("link"), followLinks: true) == file)
        #expect(try store.info(path("link"), followLinks: false).kind == .symbolicLink)
        #expect(try store.info(path(""), followLinks: true).kind == .directory)
        #expect(try store.info(path("fifo"), followLinks: true).kind == .other)
        expectError(.noSuchFileOrDirectory) { _ = try store.info(path("gone"), followLinks: true) }
    }

    /// A folder's entries come with the kind its listing gives, `.` and `..` left out.
    @Test func aFolderListsItsEntriesWithTheirKinds() throws {
        try write("abc", to: "file")
        try link("link", to: "file")
        try store.makeFolder(path("folder"))
        #expect(mkfifo(path("fifo").string, 0o600) == 0)
        let entries = try store.entries(in: path("")).sorted { $0.name.string < $1.name.string }
        #expect(entries.map(\.name.string) == ["fifo", "file", "folder", "link"])
        #expect(entries.map(\.kind) == [.other, .regular, .directory, .symbolicLink])
        expectError(.noSuchFileOrDirectory) { _ = try store.entries(in: path("gone")) }
    }

    /// A folder is made once; making it again is no error, but a file in its place is, and so is
    /// a missing parent.
    @Test func aFolderIsMadeWhereNothingElseIs() throws {
        try store.makeFolder(path("reports"))
        try store.makeFolder(path("reports"))
        #expect(try store.info(path("reports"), followLinks: false).kind == .directory)
        try write("abc", to: "file")
        expectError(.fileExists) { try store.makeFolder(path("file")) }
        expectError(.noSuchFileOrDirectory) { try store.makeFolder(path("missing/reports")) }
    }

    /// The names in the scratch folder, sorted.
    func names() throws -> [String] {
        try store.entries(in: path("")).map(\.name.string).sorted()
    }

    /// A report is written to a file with no name in its target's folder, and linked into the
    /// folder when complete: under the target's own name for a new report, under a name of its
    /// own renamed over the old one else (whether or not the caller knew a file was there).
    @Test(arguments: [true, false])
    func anUnnamedTemporaryReplacesItsTarget(_ replacing: Bool) throws {
        try write("old", to: "plan.html")
        let temporary = try store.createTemporary(
            beside: path("plan.html"), permissions: [.ownerReadWrite, .groupRead])
        #expect(temporary is UnnamedTemporary)
        #expect(temporary.path == nil)
        try temporary.write(Array("new".utf8))
        try temporary.sync()
        #expect(try names() == ["plan.html"], "nothing named while it is written")
        try temporary.publish(as: path("plan.html"), replacing: replacing)
        #expect(try text("plan.html") == "new")
        #expect(try store.info(path("plan.html"), followLinks: false).permissions == [.ownerReadWrite, .groupRead])
        #expect(try names() == ["plan.html"])
    }

    @Test func anUnnamedTemporaryForANewReportIsLinkedUnderItsName() throws {
        // Permissions the umask takes away (group and others' write) are given back.
        let permissions: FilePermissions = [.ownerReadWrite, .groupReadWrite, .otherReadWrite]
        let temporary = try store.createTemporary(beside: path("new.html"), permissions: permissions)
        try temporary.write(Array("report".utf8))
        try temporary.publish(as: path("new.html"), replacing: false)
        #expect(try text("new.html") == "report")
        #expect(try store.info(path("new.html"), followLinks: false).permissions == permissions)
        #expect(try names() == ["new.html"])
    }

    /// A temporary dropped or discarded before it is put in place leaves nothing behind.
    @Test func anUnnamedTemporaryThatIsDiscardedLeavesNothing() throws {
        let discarded = try store.createTemporary(beside: path("a.html"), permissions: [.ownerReadWrite])
        try discarded.write(Array("half".utf8))
        discarded.discard()
        discarded.discard()
        var dropped: (any TemporaryFile)? = try store.createTemporary(
            beside: path("b.html"), permissions: [.ownerReadWrite])
        try dropped?.write(Array("half".utf8))
        dropped = nil
        #expect(try names() == [])
    }

    /// A target with no folder in its name gets its temporary in the current folder.
    @Test func anUnnamedTemporaryForABareNameIsInTheCurrentFolder() throws {
        let name = "detour-report-test-\(UUID().uuidString).html"
        defer { store.remove(FilePath(name)) }
        for replacing in [false, true] {
            let temporary = try store.createTemporary(beside: FilePath(name), permissions: [.ownerReadWrite])
            try temporary.write(Array("\(replacing)".utf8))
            try temporary.publish(as: FilePath(name), replacing: replacing)
            #expect(try String(contentsOfFile: name, encoding: .utf8) == "\(replacing)")
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: ".").filter { $0.hasPrefix(".\(name)") }
        #expect(hidden.isEmpty)
    }

    /// An unnamed file linked beside a target it cannot be renamed over (a folder) is unlinked
    /// again: the target stays, and nothing is left.
    @Test func anUnnamedTemporaryThatCannotReplaceItsTargetLeavesNothing() throws {
        try FileManager.default.createDirectory(atPath: path("plan.html").string, withIntermediateDirectories: false)
        try write("kept", to: "plan.html/inside")
        let temporary = try store.createTemporary(beside: path("plan.html"), permissions: [.ownerReadWrite])
        #expect(throws: PublishFailure.placing(FileError(.isDirectory))) {
            try temporary.publish(as: path("plan.html"), replacing: true)
        }
        #expect(try names() == ["plan.html"])
        #expect(try text("plan.html/inside") == "kept")
    }

    /// On a file system without unnamed files (forced here), a report is written to
    /// `.NAME.XXXXXX` beside its target and renamed over it.
    @Test func aNamedTemporaryBesideItsTargetReplacesIt() throws {
        let store = LocalFileStore(unnamedTemporaries: false)
        try write("old", to: "plan.html")
        let temporary = try store.createTemporary(
            beside: path("plan.html"), permissions: [.ownerReadWrite, .groupRead])
        let named = try #require(temporary.path)
        #expect(named.removingLastComponent() == path(""))
        let name = try #require(named.lastComponent?.string)
        #expect(name.hasPrefix(".plan.html.") && name.count == ".plan.html.".count + 6, "\(name)")
        try temporary.write(Array("new".utf8))
        try temporary.sync()
        #expect(try store.info(named, followLinks: false).permissions == [.ownerReadWrite, .groupRead])
        try temporary.publish(as: path("plan.html"), replacing: true)
        #expect(try text("plan.html") == "new")
        #expect(try names() == ["plan.html"])
        // mkstemp's own permissions need no change.
        let own = try store.createTemporary(beside: path("own.html"), permissions: [.ownerReadWrite])
        #expect(try store.info(try #require(own.path), followLinks: false).permissions == [.ownerReadWrite])
        own.discard()
        #expect(try names() == ["plan.html"])
    }

    @Test(arguments: [true, false])
    func aTemporaryInAMissingFolderOrPutInPlaceThereFails(_ unnamed: Bool) throws {
        let store = LocalFileStore(unnamedTemporaries: unnamed)
        expectError(.noSuchFileOrDirectory) {
            _ = try store.createTemporary(beside: path("missing/plan.html"), permissions: [.ownerReadWrite])
        }
        for replacing in [true, false] {
            let temporary = try store.createTemporary(beside: path("plan.html"), permissions: [.ownerReadWrite])
            #expect(throws: PublishFailure.placing(FileError(.noSuchFileOrDirectory))) {
                try temporary.publish(as: path("missing/plan.html"), replacing: replacing)
            }
            temporary.discard()
        }
        #expect(try names() == [])
    }

    /// A named temporary removed by someone else before the rename cannot be put in place.
    @Test func aNamedTemporaryThatIsGoneCannotBePutInPlace() throws {
        let store = LocalFileStore(unnamedTemporaries: false)
        let temporary = try store.createTemporary(beside: path("plan.html"), permissions: [.ownerReadWrite])
        store.remove(try #require(temporary.path))
        #expect(throws: PublishFailure.placing(FileError(.noSuchFileOrDirectory))) {
            try temporary.publish(as: path("plan.html"), replacing: false)
        }
    }

    /// Six letters and digits, as mkstemp makes, for the name an unnamed file is linked under.
    @Test func theSuffixOfATemporaryNameIsSixLettersOrDigits() {
        #expect(UnnamedTemporary.suffix(0) == "AAAAAA")
        #expect(UnnamedTemporary.suffix(61) == "9AAAAA")
        #expect(UnnamedTemporary.suffix(62) == "ABAAAA")
        #expect(UnnamedTemporary.suffix(.max).count == 6)
    }

    @Test func removingAFileThatIsGoneIsNoError() throws {
        try write("abc", to: "file")
        store.remove(path("file"))
        store.remove(path("file"))
        expectError(.noSuchFileOrDirectory) { _ = try store.info(path("file"), followLinks: false) }
    }

    @Test func aDeviceIsOpenedToWriteThrough() throws {
        try store.openStream("/dev/null").write(Array("discarded".utf8))
        expectError(.noSuchFileOrDirectory) { _ = try store.openStream(path("gone")) }
    }

    /// Links are followed to where they end, relative to the folder of each link, absolute or
    /// not; a loop is given up after 40 links, and the path where it stopped is in the loop.
    @Test func linksAreFollowedToWhereTheyEnd() throws {
        try store.makeFolder(path("sub"))
        try write("abc", to: "sub/file")
        try link("sub/relative", to: "file")
        try link("chain", to: "sub/relative")
        try link("absolute", to: path("sub/file").string)
        #expect(store.resolvingLinks(path("chain")) == path("sub/file"))
        #expect(store.resolvingLinks(path("absolute")) == path("sub/file"))
        #expect(store.resolvingLinks(path("sub/file")) == path("sub/file"))
        #expect(store.resolvingLinks(path("gone")) == path("gone"))
        try link("a", to: "b")
        try link("b", to: "a")
        #expect([path("a"), path("b")].contains(store.resolvingLinks(path("a"))))
    }

    /// A descriptor that fails (here, one that is not open) says so with the system's error, for
    /// every operation.
    @Test func aFailingDescriptorReportsTheSystemsError() {
        let file = DescriptorFile(FileDescriptor(rawValue: -1), owned: false, regularFileSize: nil)
        #expect(throws: FileError(.badFileDescriptor)) {
            var byte: UInt8 = 0
            _ = try withUnsafeMutableBytes(of: &byte) { try file.read(into: $0) }
        }
        expectError(.badFileDescriptor) { try file.write([1]) }
        let temporary = DescriptorTemporary(FileDescriptor(rawValue: -1), path: path("t"))
        expectError(.badFileDescriptor) { try temporary.write([1]) }
        expectError(.badFileDescriptor) { try temporary.sync() }
        #expect(throws: PublishFailure.closing(FileError(.badFileDescriptor))) {
            try temporary.publish(as: path("plan.html"), replacing: true)
        }
        let unnamed = UnnamedTemporary(FileDescriptor(rawValue: -1))
        expectError(.badFileDescriptor) { try unnamed.write([1]) }
        expectError(.badFileDescriptor) { try unnamed.sync() }
        #expect(throws: PublishFailure.placing(FileError(.noSuchFileOrDirectory))) {
            try unnamed.publish(as: path("plan.html"), replacing: false)
        }
        let closing = UnnamedTemporary(FileDescriptor(rawValue: -1))
        expectError(.badFileDescriptor) { try closing.close() }
    }

    /// swift-system throws `Errno`; anything else it might throw is an I/O error with its own words.
    @Test func anErrorThatIsNoErrnoIsAnIOError() {
        struct Strange: Error, CustomStringConvertible {
            var description: String { "the tape snapped" }
        }
        #expect(DetourFiles.failure(Errno.notPermitted) == FileError(.notPermitted))
        #expect(DetourFiles.failure(Strange()) == FileError(.ioError, reason: "the tape snapped"))
    }

    /// A temporary dropped without being closed closes its descriptor.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func aTemporaryDroppedOpenIsClosed() throws {
        let store = LocalFileStore(unnamedTemporaries: false)
        var temporary: (any TemporaryFile)? = try store.createTemporary(
            beside: path("plan.html"), permissions: [.ownerReadWrite])
        let descriptor = try #require(temporary as? DescriptorTemporary).descriptor.rawValue
        let created = try #require(temporary?.path?.string)
        func opened() -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        }
        #expect(opened() == created)
        temporary = nil
        // The number may be reused by another test at once, but never for this file.
        #expect(opened() != created)
    }
}
