import DetourBase
import DetourJob
import Synchronization

@testable import DetourServer

/// A folder of trips in memory, with the faults a real disk makes rarely: a write that finds the
/// disk full, a folder that cannot be listed.
final class FakeTripStore: TripStore {
    struct State {
        var files: [TripFile: [UInt8]] = [:]
        var version: Int64 = 0
        var diskFull = false
        var listingFails = false
        var writes = 0
        /// For each read, whether it ran on one of the server's own threads (``PlainThread``).
        var readsOnPlainThreads: [Bool] = []
    }

    let state = Mutex(State())

    init(_ files: [String: [UInt8]] = [:]) {
        state.withLock { state in
            for (name, bytes) in files {
                if let file = TripFile(fileName: name) { state.files[file] = bytes }
            }
        }
    }

    func list() throws(StoreFailure) -> [TripFile] {
        let (files, fails) = state.withLock { (Array($0.files.keys), $0.listingFails) }
        if fails { throw .failed("Permission denied") }
        return files
    }

    func signature(_ file: TripFile) -> FileSignature? {
        state.withLock { state in
            state.files[file].map {
                FileSignature(
                    device: 1, inode: 1, size: Int64($0.count), modified: state.version, changed: state.version)
            }
        }
    }

    func read(_ file: TripFile, limit: Int) throws(StoreFailure) -> StoredBytes? {
        let plain = PlainThread.isCurrent
        return state.withLock { state in
            state.readsOnPlainThreads.append(plain)
            return state.files[file].map { $0.count > limit ? .tooLarge : .bytes($0) }
        }
    }

    func withLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T {
        try body()
    }

    func write(_ bytes: [UInt8], to file: TripFile) throws(StoreFailure) {
        let full = state.withLock { $0.diskFull }
        if full { throw .full }
        state.withLock { state in
            state.files[file] = bytes
            state.version += 1
            state.writes += 1
        }
    }

    func delete(_ file: TripFile) throws(StoreFailure) {
        state.withLock { state in
            state.files[file] = nil
            state.version += 1
        }
    }

    /// The fake's writes are whole from the start: nothing is ever left over.
    func removeLeftovers() throws(StoreFailure) -> Int { 0 }

    /// The fake's writes are one step each: a shared hold is no hold.
    func withSharedLock<T>(_ body: () throws(StoreFailure) -> T) throws(StoreFailure) -> T { try body() }
}
