import DetourCore
import DetourJob
import DetourTestSupport
import Foundation
import SystemPackage
import Testing

/// Replacing a file all at once or not at all, against a file system that fails on demand: the
/// old file is left as it was, no temporary file is left behind, and the failure says whether
/// anything was written (73) or writing was cut off (74).
@Suite struct DeliveryTests {
    /// Writes `chunks` to `path` through `store`.
    func deliver(_ chunks: [String], to path: String?, _ store: FakeFileStore, flush: Bool = true) throws(Delivery
        .Failure)
    {
        try Delivery.deliver(to: path.map { FilePath($0) }, store: store, flush: flush) { sink in
            for chunk in chunks { sink(Array(chunk.utf8)) }
        }
    }

    func expectOnlyTheOldFile(_ store: FakeFileStore, _ note: Comment? = nil) {
        #expect(store.paths == ["/out/plan.html"], note)
        #expect(store.text("/out/plan.html") == "old report", note)
    }

    func store(_ faults: FakeFileStore.Faults = FakeFileStore.Faults()) -> FakeFileStore {
        let store = FakeFileStore(faults: faults)
        store.folder("/out")
        store.put("/out/plan.html", "old report", permissions: [.ownerReadWrite, .groupRead])
        return store
    }

    @Test func aFileIsReplacedWithItsPermissionsAndNothingElseIsLeft() throws {
        let store = store()
        try deliver(["new ", "report"], to: "/out/plan.html", store)
        #expect(store.paths == ["/out/plan.html"])
        #expect(store.text("/out/plan.html") == "new report")
        #expect(store.node("/out/plan.html")?.permissions == [.ownerReadWrite, .groupRead])
    }

    @Test func aNewFileGetsTheUmasksPermissions() throws {
        let store = store()
        try deliver(["x"], to: "/out/new.html", store)
        #expect(store.node("/out/new.html")?.permissions == [.ownerReadWrite, .groupRead, .otherRead])
    }

    /// A target the caller knows is new (a batch run listed its folder) is not looked at; one
    /// that appeared since is replaced whole all the same.
    @Test func aTargetKnownToBeNewIsNotLookedAt() throws {
        let store = store(FakeFileStore.Faults(info: .ioError))
        for path in ["/out/new.html", "/out/plan.html"] {
            try Delivery.deliver(to: FilePath(path), store: store, followLinks: false, isNew: true) { sink in
                sink(Array("new report".utf8))
            }
            #expect(store.text(path) == "new report")
            #expect(store.node(path)?.permissions == store.newFilePermissions)
        }
        #expect(store.paths == ["/out/new.html", "/out/plan.html"])
        #expect(throws: Delivery.Failure.self) { try deliver(["x"], to: "/out/other.html", store) }
    }

    @Test func aRenameThatFailsLeavesTheOldFileAndNoTemporary() {
        let store = store(FakeFileStore.Faults(rename: .permissionDenied))
        #expect {
            try deliver(["new report"], to: "/out/plan.html", store)
        } throws: { error in
            guard case Delivery.Failure.cannotCreate(let cause) = error else { return false }
            let reason = cause.reason
            return reason == Errno.permissionDenied.description
        }
        expectOnlyTheOldFile(store)
    }

    /// The disk fills inside the first chunk, exactly at a chunk's end, and several chunks in.
    @Test(arguments: [0, 3, 4, 8, 11])
    func aDiskThatFillsPartWayLeavesTheOldFileAndNoTemporary(_ room: Int) {
        let store = store(FakeFileStore.Faults(diskFullAfter: room))
        #expect {
            try deliver(["four", "more", "and", "more"], to: "/out/plan.html", store)
        } throws: { error in
            guard case Delivery.Failure.cutOff(let cause, readerWentAway: false) = error else { return false }
            let reason = cause.reason
            return reason == Errno.noSpace.description
        }
        expectOnlyTheOldFile(store, "room for \(room) bytes")
    }

    @Test func aFlushOrACloseThatFailsIsACutOffWrite() {
        for faults in [FakeFileStore.Faults(sync: .ioError), FakeFileStore.Faults(close: .ioError)] {
            let store = store(faults)
            #expect(throws: Delivery.Failure.self) { try deliver(["new report"], to: "/out/plan.html", store) }
            expectOnlyTheOldFile(store)
        }
        // Without a flush (a batch run), a failing flush is never met.
        let store = store(FakeFileStore.Faults(sync: .ioError))
        #expect(throws: Never.self) { try deliver(["new report"], to: "/out/plan.html", store, flush: false) }
        #expect(store.text("/out/plan.html") == "new report")
    }

    /// A step before the first byte that fails writes nothing (73) and leaves nothing behind.
    ///
    /// The steps: looking at the target, opening a device, giving the new file its permissions.
    @Test(arguments: [
        (FakeFileStore.Faults(info: .ioError), "/out/plan.html", Errno.ioError),
        (FakeFileStore.Faults(openStream: .noSuchAddressOrDevice), "/dev/fake", .noSuchAddressOrDevice),
        (FakeFileStore.Faults(setPermissions: .notPermitted), "/out/plan.html", .notPermitted),
    ])
    func aStepBeforeWritingThatFailsWritesNothing(_ faults: FakeFileStore.Faults, _ path: String, _ errno: Errno) {
        let store = store(faults)
        store.state.withLock { $0.streams["/dev/fake"] = [] }
        #expect {
            try deliver(["new report"], to: path, store)
        } throws: { error in
            guard case Delivery.Failure.cannotCreate(let cause) = error else { return false }
            let reason = cause.reason
            return reason == errno.description
        }
        expectOnlyTheOldFile(store)
        #expect(store.state.withLock { $0.streams["/dev/fake"] } == [])
    }

    @Test func aTemporaryThatCannotBeCreatedWritesNothing() {
        let store = store(FakeFileStore.Faults(createTemporary: .readOnlyFileSystem))
        #expect {
            try deliver(["new report"], to: "/out/plan.html", store)
        } throws: { error in
            if case Delivery.Failure.cannotCreate = error { return true }
            return false
        }
        expectOnlyTheOldFile(store)
    }

    @Test func aReportThatFailsToRenderLeavesTheOldFile() {
        let store = store()
        #expect(throws: Delivery.Failure.self) {
            try Delivery.deliver(to: FilePath("/out/plan.html"), store: store) { sink throws(Delivery.Failure) in
                sink(Array("half a".utf8))
                throw .cutOff(FileError(.ioError, reason: "cannot write GPX: the XML writer failed"))
            }
        }
        expectOnlyTheOldFile(store)
    }

    @Test func whereAnOutputGoes() throws {
        let store = store()
        #expect(try Delivery.destination(of: nil, store: store) == .standardOutput)
        #expect(try Delivery.destination(of: "-", store: store) == .standardOutput)
        #expect(
            try Delivery.destination(of: "/out/new.md", store: store)
                == .file("/out/new.md", permissions: store.newFilePermissions))
        #expect(
            try Delivery.destination(of: "/out/plan.html", store: store)
                == .file("/out/plan.html", permissions: [.ownerReadWrite, .groupRead], replacing: true))
        #expect(throws: Delivery.Failure.self) { try Delivery.destination(of: "/out", store: store) }
        store.state.withLock { $0.streams["/dev/fake"] = [] }
        #expect(try Delivery.destination(of: "/dev/fake", store: store) == .stream("/dev/fake"))
    }

    @Test func standardOutputAndStreamsAreWrittenThrough() throws {
        let store = store()
        try deliver(["to ", "stdout"], to: nil, store)
        #expect(store.standardOutputText == "to stdout")
        store.state.withLock { $0.streams["/dev/fake"] = [] }
        try deliver(["to ", "a device"], to: "/dev/fake", store)
        #expect(store.state.withLock { $0.streams["/dev/fake"] } == Array("to a device".utf8))
        // A full disk under a stream is a cut-off write too.
        let full = FakeFileStore(faults: FakeFileStore.Faults(diskFullAfter: 2))
        #expect(throws: Delivery.Failure.self) { try deliver(["abc"], to: nil, full) }
    }

    @Test func foldersAreMadeParentsFirstAndAFileInTheWayIsNamed() throws {
        let store = FakeFileStore()
        try Folders.make("/a/b/c", store: store)
        #expect(store.state.withLock { $0.folders } == ["/", "/a", "/a/b", "/a/b/c"])
        store.put("/file", "x")
        #expect {
            try Folders.make("/file/sub", store: store)
        } throws: { error in
            guard case Delivery.Failure.cannotCreate(let cause) = error else { return false }
            let reason = cause.reason
            return reason == Errno.notDirectory.description
        }
        let refusing = FakeFileStore(faults: FakeFileStore.Faults(makeFolder: .permissionDenied))
        #expect(throws: Delivery.Failure.self) { try Folders.make("/new", store: refusing) }
        // A folder that cannot even be looked at is not made either.
        let unreadable = FakeFileStore(faults: FakeFileStore.Faults(info: .permissionDenied))
        #expect {
            try Folders.make("/a/b", store: unreadable)
        } throws: { error in
            guard case Delivery.Failure.cannotCreate(let cause) = error else { return false }
            let reason = cause.reason
            return reason == Errno.permissionDenied.description
        }
        #expect(unreadable.state.withLock { $0.folders } == ["/"])
    }

    @Test func failuresSayWhatWentWrongAndWhere() {
        let created = Delivery.Failure.cannotCreate(FileError(.permissionDenied)).diagnostic(target: "/out/plan.html")
        #expect(created.code == .cannotCreateOutput)
        #expect(created.message == "cannot create or replace the file: Permission denied")
        let cut = Delivery.Failure.cutOff(FileError(.noSpace)).diagnostic(target: nil)
        #expect(cut.code == .writeFailed)
        #expect(cut.message == "writing to standard output failed part-way: No space left on device")
    }
}
