import DetourBase
import DetourJob
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when trip files in one folder change, once per save.
///
/// It watches the folder, not the files: editors save by renaming a new file over the old one
/// (vim, and `git checkout`), which a watch on the old file's inode would miss. On Linux it
/// uses inotify; with `--poll S` (network drives, some containers), or where inotify is not
/// available, it compares the files' signatures every S seconds (every second without `--poll`).
///
/// Every folder of a server is watched by its one ``FolderWatcher``: one inotify instance and one
/// thread, however many accounts' folders are open.
///
/// Events are debounced per trip: a save is several events (vim: its `4913` probe, a backup
/// `NAME.json~`, a create, a write, a close), and a change is reported once the trip's file
/// has been quiet for ``quietTime``. Dotfiles, `~` backups, `.swp` files and vim's probe are
/// not trips and are ignored by ``TripFile/init(fileName:)``.
public final class FolderWatch: Sendable {
    /// How long a trip's file must be quiet before its change is reported.
    public static let quietTime: Duration = .milliseconds(150)

    /// How the folder is watched.
    public enum Mode: Sendable, Equatable {
        case inotify
        case poll(Duration)
    }

    let folder: FilePath
    let mode: Mode
    let changed: @Sendable (TripName) -> Void
    let watcher: FolderWatcher
    /// What the folder's library may know without asking the file system, while this watch is
    /// healthy: told of every event at once, before the debounce.
    let freshness: FolderFreshness?
    private let state = Mutex(State())

    private struct State {
        /// When each trip's file last had an event, for the debounce.
        var pending: [TripName: ContinuousClock.Instant] = [:]
        /// The trips' signatures when the folder was last polled, and when it is next due.
        var polled: [TripName: FileSignature] = [:]
        var nextPoll: ContinuousClock.Instant?
        /// The trips' signatures now, from ``FolderWatch/start(signatures:)`` on.
        var signatures: (@Sendable () -> [TripName: FileSignature])?
    }

    /// A watch over `folder`, kept by `watcher`, that calls `changed` with each trip whose file
    /// changed.
    public init(
        folder: FilePath, mode: Mode, watcher: FolderWatcher = FolderWatcher(), freshness: FolderFreshness? = nil,
        changed: @escaping @Sendable (TripName) -> Void
    ) {
        self.folder = folder
        self.mode = mode
        self.watcher = watcher
        self.freshness = freshness
        self.changed = changed
    }

    /// Watches until ``stop()``; `signatures` lists the trips' signatures, for polling and for a
    /// folder made again.
    ///
    /// With inotify the watch is made before this returns, so no change made after is missed.
    public func start(signatures: @escaping @Sendable () -> [TripName: FileSignature]) {
        state.withLock { $0.signatures = signatures }
        // A polled folder's first look is taken now, not when the watcher's thread comes round to
        // it: a change made once this returns is never taken for how the folder was.
        if case .poll(let interval) = mode { poll(every: interval) }
        if !watcher.add(self) { poll(every: .seconds(1)) }
    }

    /// Stops watching within a tick of the watcher.
    public func stop() {
        watcher.remove(self)
    }

    /// Notes an event on `name`'s file now.
    func touch(_ name: TripName) {
        freshness?.changed(name)
        let now = ContinuousClock.now
        state.withLock { $0.pending[name] = now }
    }

    /// Notes an event on every trip of the folder: the folder was made again.
    func touchAll() {
        freshness?.changedAll()
        guard let signatures = state.withLock({ $0.signatures }) else { return }
        for name in signatures().keys { touch(name) }
    }

    /// Reports the trips whose files have been quiet long enough.
    func flush() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [TripName] in
            let due = state.pending.filter { now - $0.value >= FolderWatch.quietTime }.map(\.key)
            for name in due { state.pending[name] = nil }
            return due
        }
        for name in due.sorted() { changed(name) }
    }

    /// Compares the trips' signatures with the last poll's when `interval` has passed since it,
    /// and reports each that changed at once (the interval is its debounce).
    func poll(every interval: Duration) {
        let now = ContinuousClock.now
        let (signatures, last, first) = state.withLock { state in
            (state.signatures, state.polled, state.nextPoll == nil)
        }
        guard let signatures else { return }
        if let due = state.withLock({ $0.nextPoll }), due > now { return }
        let current = signatures()
        state.withLock {
            $0.polled = current
            $0.nextPoll = now + interval
        }
        guard !first else { return }
        for name in Set(last.keys).union(current.keys).sorted() where last[name] != current[name] {
            changed(name)
        }
    }
}

/// Every folder a server watches, on one inotify instance and one thread of its own (its reads
/// block), started when the first folder is added and ended when the last is removed.
///
/// A server with accounts opens a folder per account; each used to cost a thread and an inotify
/// instance for the life of the server, and a system allows 128 instances to a user. Now the cost
/// of a folder is one inotify watch.
public final class FolderWatcher: Sendable {
    private struct Watched {
        let watch: FolderWatch
        /// The folder's inotify watch, or -1 while the folder is not there (or is polled).
        var descriptor: Int32
    }

    private struct State {
        var folders: [ObjectIdentifier: Watched] = [:]
        /// The inotify instance, while the thread runs; `nil` when inotify is not to be had.
        var inotify: Int32?
        var running = false
    }

    private let state = Mutex(State())

    public init() {}

    /// How many folders are watched.
    public var count: Int { state.withLock { $0.folders.count } }

    /// Watches `watch`'s folder, starting the thread when it is the first; false when inotify is
    /// not to be had, and the folder is polled every second instead.
    @discardableResult
    func add(_ watch: FolderWatch) -> Bool {
        let (start, notified) = state.withLock { state -> (Bool, Bool) in
            let starting = !state.running
            if starting {
                state.running = true
                #if os(Linux)
                let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
                state.inotify = descriptor >= 0 ? descriptor : nil
                #endif
            }
            let descriptor = Self.addWatch(watch, to: state.inotify)
            state.folders[ObjectIdentifier(watch)] = Watched(watch: watch, descriptor: descriptor)
            watch.freshness?.trust(descriptor >= 0)
            return (starting, state.inotify != nil)
        }
        if start { PlainThread.detach { [self] in run() } }
        return notified
    }

    /// Stops watching `watch`'s folder; the thread ends with the last.
    func remove(_ watch: FolderWatch) {
        state.withLock { state in
            watch.freshness?.trust(false)
            guard let removed = state.folders.removeValue(forKey: ObjectIdentifier(watch)) else { return }
            #if os(Linux)
            if let inotify = state.inotify, removed.descriptor >= 0 { inotify_rm_watch(inotify, removed.descriptor) }
            #endif
        }
    }

    /// An inotify watch on `watch`'s folder, or -1 (polled, or not there now).
    private static func addWatch(_ watch: FolderWatch, to inotify: Int32?) -> Int32 {
        #if os(Linux)
        guard watch.mode == .inotify, let inotify else { return -1 }
        return watch.folder.withPlatformString { inotify_add_watch(inotify, $0, Inotify.mask) }
        #else
        return -1
        #endif
    }

    /// Reads events and polls until no folder is left; then closes the instance and ends.
    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while let (inotify, folders) = state.withLock({ state -> (Int32?, [Watched])? in
            guard !state.folders.isEmpty else {
                if let inotify = state.inotify { close(inotify) }
                state.inotify = nil
                state.running = false
                return nil
            }
            return (state.inotify, Array(state.folders.values))
        }) {
            rewatchMissing(folders, inotify: inotify)
            if let inotify {
                read(inotify, into: &buffer, folders: folders)
            } else {
                var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                nanosleep(&pause, nil)
            }
            for folder in folders {
                switch (folder.watch.mode, inotify) {
                case (.poll(let interval), _): folder.watch.poll(every: interval)
                case (.inotify, nil): folder.watch.poll(every: .seconds(1))
                case (.inotify, _?): folder.watch.flush()
                }
            }
        }
    }

    /// Watches again each folder that went and is back (a `git checkout`, a sync tool, `rm -r`
    /// then a copy): every trip of it counts as changed.
    private func rewatchMissing(_ folders: [Watched], inotify: Int32?) {
        guard let inotify else { return }
        for folder in folders where folder.descriptor < 0 && folder.watch.mode == .inotify {
            let descriptor = Self.addWatch(folder.watch, to: inotify)
            guard descriptor >= 0 else { continue }
            let kept = state.withLock { state -> Bool in
                guard state.folders[ObjectIdentifier(folder.watch)] != nil else { return false }
                state.folders[ObjectIdentifier(folder.watch)]?.descriptor = descriptor
                folder.watch.freshness?.trust(true)
                return true
            }
            if kept { folder.watch.touchAll() }
        }
    }

    /// Waits up to 50 ms for events (so the debounce is flushed and a removal noticed), and hands
    /// each to its folder's watch.
    private func read(_ inotify: Int32, into buffer: inout [UInt8], folders: [Watched]) {
        #if os(Linux)
        var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poller, 1, 50) > 0 else { return }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        buffer.withUnsafeBytes { dispatch(UnsafeRawBufferPointer(rebasing: $0[..<count]), inotify: inotify) }
        #endif
    }

    /// Hands each inotify event in `events` to its folder's watch.
    ///
    /// An event on a folder's own watch that says the folder went ends that watch (and with it
    /// what the library may know unasked) until the folder is back; an overflow of the kernel's
    /// queue (events were lost) makes every folder's trips be read again.
    func dispatch(_ events: UnsafeRawBufferPointer, inotify: Int32) {
        #if os(Linux)
        let byDescriptor = state.withLock { state in
            var byDescriptor: [Int32: FolderWatch] = [:]
            for folder in state.folders.values where folder.descriptor >= 0 {
                byDescriptor[folder.descriptor] = folder.watch
            }
            return byDescriptor
        }
        let headerSize = MemoryLayout<inotify_event>.size
        let gone = UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)
        var offset = 0
        while offset + headerSize <= events.count {
            let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let length = Int(event.len)
            let start = offset + headerSize
            let name = String(
                decoding: events[start..<min(start + length, events.count)].prefix { $0 != 0 }, as: UTF8.self)
            offset = start + length
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                for watch in byDescriptor.values { watch.touchAll() }
                continue
            }
            guard let watch = byDescriptor[event.wd] else { continue }
            if event.mask & gone != 0 {
                if event.mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(inotify, event.wd) }
                state.withLock { state in
                    if state.folders[ObjectIdentifier(watch)]?.descriptor == event.wd {
                        state.folders[ObjectIdentifier(watch)]?.descriptor = -1
                        watch.freshness?.trust(false)
                    }
                }
            } else if let file = TripFile(fileName: name) {
                watch.touch(file.name)
            }
        }
        #endif
    }

    /// The inotify watch descriptor of `watch`'s folder, or -1.
    func descriptor(of watch: FolderWatch) -> Int32 {
        state.withLock { state in
            guard let watched = state.folders[ObjectIdentifier(watch)] else { return -1 }
            return watched.descriptor
        }
    }

    #if os(Linux)
    /// What inotify is asked to tell of a folder.
    enum Inotify {
        static let mask =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE)
            | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
    }
    #endif
}
