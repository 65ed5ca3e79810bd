import DetourTestSupport
import Dispatch
import Foundation
import Synchronization
import SystemPackage
import Testing

@testable import DetourServer

/// The folder watch, on the kernel's own notices: a save is told once, and a folder removed and
/// made again is watched again.
@Suite struct FolderWatchTests {
    /// The trips a watch told of, in order, and a signal for each.
    final class Told: Sendable {
        let names = Mutex<[String]>([])
        let each = DispatchSemaphore(value: 0)

        func note(_ name: TripName) {
            names.withLock { $0.append(name.text) }
            each.signal()
        }

        /// Waits for the watch to tell of `name`; bounded, so a watch that never does fails the
        /// test instead of hanging it.
        func wait(for name: String) -> Bool {
            while !names.withLock({ $0.contains(name) }) {
                guard each.wait(timeout: .now() + 30) == .success else { return false }
            }
            return true
        }
    }

    @Test func aFolderRemovedAndMadeAgainIsWatchedAgain() throws {
        let scratch = try ScratchFolder("detour-watch")
        let folder = scratch.url.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let told = Told()
        let watch = FolderWatch(folder: FilePath(folder.path), mode: .inotify) { told.note($0) }
        let trips: @Sendable () -> [TripName: FileSignature] = {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let files = names.compactMap { TripFile(fileName: $0) }
            let signature = FileSignature(device: 0, inode: 0, size: 0, modified: 0, changed: 0)
            return Dictionary(uniqueKeysWithValues: files.map { ($0.name, signature) })
        }
        watch.start(signatures: trips)
        defer { watch.stop() }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("first.json"))
        #expect(told.wait(for: "first"), "a save in the folder is told")
        // Replaced whole, as a checkout or a sync tool does.
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("again.json"))
        #expect(told.wait(for: "again"), "the new folder's trips are told")
        try Data("{}".utf8).write(to: folder.appendingPathComponent("later.json"))
        #expect(told.wait(for: "later"), "and a save in it after")
    }
}
