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

    /// A report is written to `.NAME.XXXXXX` beside its target and renamed over it.
    @Test func aTemporaryBesideItsTargetReplacesIt() throws {
        try write("old", to: "plan.html")
        let temporary = try store.createTemporary(beside: path("plan.html"))
        #expect(temporary.path.removingLastComponent() == path(""))
        let name = try #require(temporary.path.lastComponent?.string)
        #expect(name.hasPrefix(".plan.html.") && name.count == ".plan.html.".count + 6, "\(name)")
        try temporary.write(Array("new".utf8))
        try temporary.setPermissions([.ownerReadWrite, .groupRead])
        try temporary.sync()
        try temporary.close()
        try temporary.close()  // a second close is no error: the file is closed already
        #expect(try store.info(temporary.path, followLinks: false).permissions == [.ownerReadWrite, .groupRead])
        try store.rename(temporary.path, to: path("plan.html"))
        #expect(try text("plan.html") == "new")
        #expect(try store.entries(in: path("")).map(\.name.string) == ["plan.html"])
        expectError(.noSuchFileOrDirectory) { _ = try store.createTemporary(beside: path("missing/plan.html")) }
        expectError(.noSuchFileOrDirectory) { try store.rename(path("gone"), to: path("plan.html")) }
    }

    /// A target named without a folder gets its temporary in the current folder.
    @Test func aTemporaryForABareNameIsInTheCurrentFolder() throws {
        let name = "detour-report-test-\(UUID().uuidString).html"
        let temporary = try store.createTemporary(beside: FilePath(name))
        defer { store.remove(temporary.path) }
        try temporary.close()
        #expect(temporary.path.components.count == 1)
        #expect(temporary.path.string.hasPrefix(".\(name)."))
        #expect(FileManager.default.fileExists(atPath: temporary.path.string))
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
        expectError(.badFileDescriptor) { try temporary.setPermissions([.ownerReadWrite]) }
        expectError(.badFileDescriptor) { try temporary.sync() }
        expectError(.badFileDescriptor) { try temporary.close() }
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
        var temporary: (any TemporaryFile)? = try store.createTemporary(beside: path("plan.html"))
        let descriptor = try #require(temporary as? DescriptorTemporary).descriptor.rawValue
        let created = try #require(temporary?.path.string)
        func opened() -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        }
        #expect(opened() == created)
        temporary = nil
        // The number may be reused by another test at once, but never for this file.
        #expect(opened() != created)
    }
}
