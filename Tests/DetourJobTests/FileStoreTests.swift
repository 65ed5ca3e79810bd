import DetourIO
import DetourJob
import SystemPackage
import Testing

/// What every file store shares: reading a whole file up to a limit, and how its errors read.
@Suite struct FileStoreTests {
    /// An error that is not a file store's own.
    struct Strange: Error, CustomStringConvertible {
        var description: String { "the tape snapped" }
    }

    func store(_ faults: FakeFileStore.Faults = FakeFileStore.Faults()) -> FakeFileStore {
        let store = FakeFileStore(faults: faults)
        store.put("/t.json", "0123456789")
        return store
    }

    @Test func aFileUpToTheLimitIsReadWhole() throws {
        #expect(try store().contents(of: "/t.json", limit: 10) == Array("0123456789".utf8))
        #expect(try store(FakeFileStore.Faults(sizeUnknown: true)).contents(of: "/t.json", limit: 10)?.count == 10)
    }

    /// Past the limit there is no content, whether the size was known before reading or not.
    @Test(arguments: [false, true])
    func aFilePastTheLimitHasNoContent(_ sizeUnknown: Bool) throws {
        #expect(try store(FakeFileStore.Faults(sizeUnknown: sizeUnknown)).contents(of: "/t.json", limit: 9) == nil)
    }

    @Test func aReadThatFailsSaysWhy() {
        #expect(throws: FileError(.noSuchFileOrDirectory)) { try store().contents(of: "/gone.json", limit: 10) }
        let failing = store(FakeFileStore.Faults(read: FileError(.ioError), readFailsAfter: 4))
        #expect(throws: FileError(.ioError)) { try failing.contents(of: "/t.json", limit: 10) }
        let strange = store(FakeFileStore.Faults(read: Strange(), readFailsAfter: 4))
        #expect(throws: FileError(.ioError, reason: "the tape snapped")) {
            try strange.contents(of: "/t.json", limit: 10)
        }
    }

    @Test func anErrorReadsAsItsReason() {
        #expect("\(FileError(.noSuchFileOrDirectory))" == "No such file or directory")
        #expect("\(FileError(.isDirectory, reason: "it is a folder"))" == "it is a folder")
        #expect(FileError(.noSuchFileOrDirectory).isMissing)
        #expect(!FileError(.isDirectory).isMissing)
    }
}
