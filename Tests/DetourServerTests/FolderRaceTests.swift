import DetourBase
import DetourFiles
import DetourJob
import DetourTestSupport
import Dispatch
import Foundation
import Synchronization
import SystemPackage
import Testing

@testable import DetourServer

#if canImport(Glibc)
import Glibc
#endif

/// What whoever can write to the folder may try while the server reads it.
///
/// They may swap a name between a trip and a link out, put a FIFO in a trip's place, or a link in
/// the lock file's. The server reads only files it opened and checked, never waits on a FIFO, and never
/// makes a file through a link.
@Suite struct FolderRaceTests {
    let scratch: ScratchFolder
    let outside: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("detour-race")
        outside = try ScratchFolder("detour-race-outside")
    }

    var folder: URL { scratch.url }

    func store() throws -> FolderTripStore {
        try FolderTripStore(folder: FilePath(folder.path), files: LocalFileStore())
    }

    /// A name swapped between a link to a trip and a link out, under 3,000 reads, never leaks.
    ///
    /// The name is renamed over, again and again, by a link to a trip in the folder and by one to
    /// a secret outside it, while the store reads it: the secret is never read. The swaps run
    /// on their own thread until the reads are done; the reads are bounded in count.
    @Test func aNameSwappedUnderTheReadNeverLeaksAFileOutside() throws {
        let secret = Array("SECRET outside the folder".utf8)
        try Data(secret).write(to: outside.url.appendingPathComponent("secret.json"))
        try Data("{\"trip\": 1}".utf8).write(to: folder.appendingPathComponent("real.json"))
        let links = try ScratchFolder("detour-race-links")
        let inward = links.url.appendingPathComponent("in")
        let outward = links.url.appendingPathComponent("out")
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("race.json"),
            withDestinationURL: folder.appendingPathComponent("real.json"))
        let target = folder.appendingPathComponent("race.json").path
        let paths = (
            inward.path, outward.path, folder.appendingPathComponent("real.json").path,
            outside.url.appendingPathComponent("secret.json").path
        )
        let done = DispatchSemaphore(value: 0)
        let stop = Mutex(false)
        let swaps = Mutex(0)
        let swapper = try #require(
            PlainThread.start {
                var count = 0
                while !stop.withLock({ $0 }) {
                    // Make each link beside the folder, then rename it over the name: one step.
                    let (link, destination) = count % 2 == 0 ? (paths.1, paths.3) : (paths.0, paths.2)
                    unlink(link)
                    symlink(destination, link)
                    rename(link, target)
                    count += 1
                }
                swaps.withLock { $0 = count }
                done.signal()
            })
        let store = try store()
        let file = try #require(TripFile(fileName: "race.json"))
        var leaked = 0
        var served = 0
        for _ in 0..<3_000 {
            guard case .bytes(let bytes)? = try? store.read(file, limit: 1 << 20) else { continue }
            served += 1
            if bytes == secret { leaked += 1 }
        }
        stop.withLock { $0 = true }
        swapper.join()
        #expect(done.wait(timeout: .now()) == .success)
        #expect(leaked == 0, "\(leaked) of \(served) reads returned the file outside the folder")
        #expect(served > 0, "some reads found the trip")
        #expect(swaps.withLock { $0 } > 0)
    }

    /// A FIFO in a trip's place is no trip, and reading it does not wait for a writer.
    @Test func aFIFOInATripsPlaceIsMissingAndBlocksNothing() throws {
        let path = folder.appendingPathComponent("pipe.json").path
        try #require(mkfifo(path, 0o600) == 0)
        let store = try store()
        let file = try #require(TripFile(fileName: "pipe.json"))
        // On a thread, so that a read that waited would fail this test instead of hanging it.
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<StoredBytes??>(nil)
        let reader = try #require(
            PlainThread.start {
                result.withLock { $0 = .some(try? store.read(file, limit: 1 << 20)) }
                answered.signal()
            })
        let finished = answered.wait(timeout: .now() + 60) == .success
        if !finished {
            // Release the reader so the process can end: open the FIFO for writing.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        reader.join()
        #expect(finished, "the read waited on the FIFO")
        #expect(result.withLock { $0 } == .some(nil), "a FIFO is no trip")
        #expect(try store.list().isEmpty)
    }

    /// A write replaces whatever stands in the trip's place, and writes through nothing: a FIFO
    /// or a link out becomes the trip's file, the link's target untouched; a file keeps its
    /// permissions.
    @Test func aWriteReplacesWhatIsThereAndWritesThroughNothing() throws {
        let store = try store()
        let trip = Array("{}".utf8)
        let fifo = try #require(TripFile(fileName: "pipe.json"))
        try #require(mkfifo(folder.appendingPathComponent("pipe.json").path, 0o600) == 0)
        let secret = outside.url.appendingPathComponent("secret.json")
        try Data("secret".utf8).write(to: secret)
        let link = try #require(TripFile(fileName: "link.json"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link.json"), withDestinationURL: secret)
        let kept = try #require(TripFile(fileName: "kept.json"))
        let keptPath = folder.appendingPathComponent("kept.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: keptPath))
        try #require(chmod(keptPath, 0o640) == 0)
        for file in [fifo, link, kept] {
            try store.withLock { () throws(StoreFailure) in try store.write(trip, to: file) }
            #expect(try store.read(file, limit: 100) == .bytes(trip), "\(file.fileName)")
        }
        #expect(try String(contentsOf: secret, encoding: .utf8) == "secret")
        let attributes = try FileManager.default.attributesOfItem(atPath: keptPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == [".detour-report.lock", "kept.json", "link.json", "pipe.json"], "no temporary left")
    }

    /// A link in the lock file's place: the write is refused, and nothing is made where it points.
    @Test func aLinkInTheLockFilesPlaceMakesNothingOutside() throws {
        let elsewhere = outside.url.appendingPathComponent("made-by-the-server")
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(FolderTripStore.lockName), withDestinationURL: elsewhere)
        let store = try store()
        #expect(throws: StoreFailure.self) {
            try store.withLock { () throws(StoreFailure) in () }
        }
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    }
}

/// What a write cut off by a crash leaves is removed at start, and nothing else is.
@Suite struct LeftoverTests {
    @Test func onlyTemporariesOfTripsAreLeftovers() throws {
        let scratch = try ScratchFolder("detour-leftovers")
        let names = [
            ".big.json.Ab3xYz", ".big.gpx.000000", ".big.json.Ab3xY", ".big.json.Ab3xYz9", ".big.txt.Ab3xYz",
            ".lisbon.html.json.Ab3xYz", "big.json.Ab3xYz", ".big.json", "big.json", ".detour-report.lock",
            ".big.json.Ab-xYz",
        ]
        for name in names { try Data("x".utf8).write(to: scratch.url.appendingPathComponent(name)) }
        let store = try FolderTripStore(folder: FilePath(scratch.url.path), files: LocalFileStore())
        let removed = try store.withLock { () throws(StoreFailure) -> Int in try store.removeLeftovers() }
        #expect(removed == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        #expect(left == names.filter { $0 != ".big.json.Ab3xYz" && $0 != ".big.gpx.000000" }.sorted())
    }
}
