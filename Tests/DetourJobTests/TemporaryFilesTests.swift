import SystemPackage
import Testing

@testable import DetourJob

/// The registry an interrupted run empties: a temporary file is in it from its creation to its
/// rename or removal, and once the run is stopped no more are made.
@Suite struct TemporaryFilesTests {
    @Test func aFileIsListedWhileItIsWrittenAndNoneIsMadeAfterTheStop() throws {
        let registry = TemporaryFiles()
        let store = FakeFileStore()
        let first = try registry.making { () throws(FileError) in try store.createTemporary(beside: "/out/a.html") }
        let second = try registry.making { () throws(FileError) in try store.createTemporary(beside: "/out/b.html") }
        registry.forget(second.path)
        #expect(registry.stop() == [first.path])
        #expect(throws: FileError.self) {
            try registry.making { () throws(FileError) in try store.createTemporary(beside: "/out/c.html") }
        }
    }
}
