import DetourFiles
import DetourRender
import DetourTestSupport
import Foundation
import Glibc
import Synchronization
import SystemPackage
import Testing

@testable import DetourServer

/// While the folder's inotify watch is healthy, a trip read once is answered again without asking
/// the file system; an event on it, an overflow of the kernel's queue, polling and a folder that
/// went each make the next read ask again.
@Suite struct FolderFreshnessTests {
    /// The folder on disk, counting how often the library asks a file's signature (an `lstat`).
    final class CountingStore: TripStore {
        let store: FolderTripStore
        let asked = Mutex(0)

        init(_ folder: FilePath) throws {
            store = try FolderTripStore(folder: folder, files: LocalFileStore())
        }

        func list() throws(StoreFailure) -> [TripFile] { try store.list() }
        func signature(_ file: TripFile) -> FileSignature? {
            asked.withLock { $0 += 1 }
            return store.signature(file)
        }
        func read(_ file: TripFile, limit: Int) throws(StoreFailure) -> StoredBytes? {
            try store.read(file, limit: limit)
        }
        func withLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T { try store.withLock(body) }
        func withSharedLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T {
            try store.withSharedLock(body)
        }
        func write(_ bytes: [UInt8], to file: TripFile) throws(StoreFailure) { try store.write(bytes, to: file) }
        func delete(_ file: TripFile) throws(StoreFailure) { try store.delete(file) }
        func removeLeftovers() throws(StoreFailure) -> Int { try store.removeLeftovers() }

        /// How many signatures `body` asked for.
        func counting(_ body: () throws -> Void) rethrows -> Int {
            let before = asked.withLock { $0 }
            try body()
            return asked.withLock { $0 } - before
        }
    }

    /// A watched folder with the trip `nordic` (and `fiji` when asked), its store and workspace.
    ///
    /// The watch stops at the end. The files are there before it starts, so no event of theirs
    /// is due.
    func withWorkspace(
        mode: FolderWatch.Mode = .inotify, fiji: Bool = false,
        _ body: (URL, CountingStore, Workspace, TripName) async throws -> Void
    ) async throws {
        let scratch = try ScratchFolder("detour-freshness")
        try Data(try Fixtures.sample("nordic-budget.json")).write(to: scratch.url.appendingPathComponent("nordic.json"))
        if fiji {
            try Data(try Fixtures.sample("fiji-date-line.json")).write(
                to: scratch.url.appendingPathComponent("fiji.json"))
        }
        let store = try CountingStore(FilePath(scratch.url.path))
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames)
        let settings = ServerSettings(today: { .unixEpoch }, templates: templates, watch: mode)
        let workspace = Workspace(store: store, settings: settings, folder: FilePath(scratch.url.path))
        workspace.startWatching()
        defer { workspace.stopWatching() }
        try await body(scratch.url, store, workspace, try #require(TripName(decoded: "nordic")))
    }

    /// The first version `stream` sends that `satisfies` the test, or `nil` when none comes
    /// within 30 s (a bound on a broken watch, never a wait the test relies on).
    static func version(from stream: AsyncStream<String>, where satisfies: @escaping @Sendable (String) -> Bool) async
        -> String?
    {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await version in stream where satisfies(version) { return version }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The etag of what `name` holds now, looked up on this thread (as a request's read does on
    /// the server's threads for files), so that the file system's calls can be counted.
    func etag(_ workspace: Workspace, _ name: TripName) throws -> String {
        guard case .snapshot(let snapshot) = try workspace.library.lookUp(name) else { throw StoreFailure.failed("") }
        return snapshot.etag
    }

    @Test func whileTheWatchIsHealthyATripReadOnceIsNotAskedAgain() async throws {
        try await withWorkspace { folder, store, workspace, name in
            let first = try store.counting { _ = try etag(workspace, name) }
            #expect(first == 2, "NAME.json and NAME.gpx looked for")
            #expect(workspace.library.freshness.isTrusted)
            let epoch = try #require(workspace.library.freshness.trustedEpoch)
            let again = try store.counting { for _ in 0..<100 { _ = try etag(workspace, name) } }
            #expect(again == 0)
            // A save on disk: the next read, once the watch has told of it, finds the new version.
            let before = try etag(workspace, name)
            let stream = try #require(workspace.reload.listen(to: name, current: before))
            var bytes = try Data(contentsOf: folder.appendingPathComponent("nordic.json"))
            bytes.append(contentsOf: Array(" \n".utf8))
            try bytes.write(to: folder.appendingPathComponent("nordic.json"))
            let told = await Self.version(from: stream) { $0 != before && !$0.isEmpty }
            #expect(told != nil)
            #expect(try etag(workspace, name) == told, "asked again after the event")
            #expect((workspace.library.freshness.trustedEpoch ?? epoch) > epoch, "an answer made before is stale")
        }
    }

    @Test func withPollingEveryReadAsksTheFileSystem() async throws {
        try await withWorkspace(mode: .poll(.seconds(60))) { _, store, workspace, name in
            let polled = try store.counting { for _ in 0..<10 { _ = try etag(workspace, name) } }
            #expect(polled == 20)
            #expect(!workspace.library.freshness.isTrusted, "a polled folder is never vouched for")
            #expect(workspace.library.freshness.trustedEpoch == nil, "so no answer made from it is repeated")
        }
    }

    /// One event in inotify's layout: the header, then the name padded with NULs.
    func event(descriptor: Int32, mask: UInt32, name: String = "") -> [UInt8] {
        var header = inotify_event()
        header.wd = descriptor
        header.mask = mask
        let padded = name.isEmpty ? [] : Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count % 16)
        header.len = UInt32(padded.count)
        return withUnsafeBytes(of: header) { Array($0) } + padded
    }

    @Test func anOverflowOfTheKernelsQueueMakesEveryTripBeAskedAgain() async throws {
        try await withWorkspace { _, store, workspace, name in
            _ = try etag(workspace, name)
            let afterRead = try store.counting { _ = try etag(workspace, name) }
            #expect(afterRead == 0)
            let watcher = try #require(workspace.watch).watcher
            event(descriptor: -1, mask: UInt32(IN_Q_OVERFLOW)).withUnsafeBytes {
                watcher.dispatch($0, inotify: -1)
            }
            let afterOverflow = try store.counting { _ = try etag(workspace, name) }
            #expect(afterOverflow == 2)
            let thereafter = try store.counting { _ = try etag(workspace, name) }
            #expect(thereafter == 0, "and kept again after")
        }
    }

    /// A folder removed ends its watch: until it is watched again, every read asks.
    @Test func aFolderThatWentIsAskedAgainOnEveryRead() async throws {
        try await withWorkspace { folder, store, workspace, name in
            let before = try etag(workspace, name)
            let beforeGoing = try store.counting { _ = try etag(workspace, name) }
            #expect(beforeGoing == 0)
            let stream = try #require(workspace.reload.listen(to: name, current: before))
            try FileManager.default.removeItem(at: folder)
            // Told once its trip's file went with it: the folder's own watch ended before.
            #expect(await Self.version(from: stream) { $0 == "missing" } != nil)
            let gone = store.counting { _ = try? workspace.library.lookUp(name) }
            #expect(gone > 0)
            let goneAgain = store.counting { _ = try? workspace.library.lookUp(name) }
            #expect(goneAgain > 0, "and again")
        }
    }

    @Test func anEventOnATripMakesOnlyItBeAskedAgain() async throws {
        try await withWorkspace(fiji: true) { _, store, workspace, name in
            let fiji = try #require(TripName(decoded: "fiji"))
            _ = try etag(workspace, name)
            _ = try etag(workspace, fiji)
            let watch = try #require(workspace.watch)
            let descriptor = watch.watcher.descriptor(of: watch)
            event(descriptor: descriptor, mask: UInt32(IN_CLOSE_WRITE), name: "fiji.json").withUnsafeBytes {
                watch.watcher.dispatch($0, inotify: -1)
            }
            let untouched = try store.counting { _ = try etag(workspace, name) }
            #expect(untouched == 0)
            let touched = try store.counting { _ = try etag(workspace, fiji) }
            #expect(touched == 2)
        }
    }
}
