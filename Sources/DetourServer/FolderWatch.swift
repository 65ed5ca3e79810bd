import DetourJob
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when trip files in the folder change, once per save.
///
/// It watches the folder, not the files: editors save by renaming a new file over the old one
/// (vim, and `git checkout`), which a watch on the old file's inode would miss. On Linux it
/// uses inotify; with `--poll S` (network drives, some containers), or where inotify is not
/// available, it compares the files' signatures every S seconds.
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
    private let state = Mutex(State())

    private struct State {
        /// When each trip's file last had an event, for the debounce.
        var pending: [TripName: ContinuousClock.Instant] = [:]
        var stopped = false
    }

    /// A watch over `folder` that calls `changed` with each trip whose file changed.
    public init(folder: FilePath, mode: Mode, changed: @escaping @Sendable (TripName) -> Void) {
        self.folder = folder
        self.mode = mode
        self.changed = changed
    }

    /// Watches until ``stop()``, on a thread of its own (its reads block).
    ///
    /// With inotify the watch is made before this returns, so no change made after is missed.
    public func start(signatures: @escaping @Sendable () -> [TripName: FileSignature]) {
        #if os(Linux)
        if mode == .inotify, let watch = Inotify(folder) {
            PlainThread.detach { [self] in self.watch(with: watch, signatures: signatures) }
            return
        }
        #endif
        PlainThread.detach { [self] in self.run(signatures: signatures) }
    }

    /// Stops watching within a tick (200 ms).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Notes an event on `name`'s file now.
    func touch(_ name: TripName) {
        let now = ContinuousClock.now
        state.withLock { $0.pending[name] = now }
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

    /// Polls: every `--poll` interval, or every second where inotify is not to be had.
    private func run(signatures: @escaping @Sendable () -> [TripName: FileSignature]) {
        if case .poll(let interval) = mode {
            poll(every: interval, signatures: signatures)
            return
        }
        poll(every: .seconds(1), signatures: signatures)
    }

    /// Compares the trips' signatures every `interval`; a change is reported at once (the
    /// interval is its debounce).
    private func poll(every interval: Duration, signatures: () -> [TripName: FileSignature]) {
        var last = signatures()
        var waited: Duration = .zero
        while !isStopped {
            let tick = min(interval, .milliseconds(200))
            sleepFor(tick)
            waited += tick
            guard waited >= interval else { continue }
            waited = .zero
            let now = signatures()
            for name in Set(last.keys).union(now.keys).sorted() where last[name] != now[name] {
                changed(name)
            }
            last = now
        }
    }

    private func sleepFor(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 {
            guard errno == EINTR else { return }
            request = remaining
        }
    }

    #if os(Linux)
    /// An inotify instance with a watch on the folder.
    struct Inotify: Sendable {
        static let mask =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_CREATE)
            | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        let descriptor: Int32
        let watch: Int32

        /// The watch, or `nil` when inotify is not to be had.
        init?(_ folder: FilePath) {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else { return nil }
            let watch = folder.withPlatformString { inotify_add_watch(descriptor, $0, Inotify.mask) }
            guard watch >= 0 else {
                close(descriptor)
                return nil
            }
            (self.descriptor, self.watch) = (descriptor, watch)
        }
    }

    /// Watches with inotify until stopped.
    ///
    /// A folder removed or moved away, and made again (a `git checkout`, a sync tool, `rm -r`
    /// then a copy), ends its watch: the watch is made again on the folder now at the path, as
    /// soon as there is one, and every trip of it counts as changed.
    private func watch(with inotify: Inotify, signatures: () -> [TripName: FileSignature]) {
        let descriptor = inotify.descriptor
        defer { close(descriptor) }
        let mask = Inotify.mask
        var watch = inotify.watch
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let headerSize = MemoryLayout<inotify_event>.size
        let gone = UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)
        while !isStopped {
            if watch < 0 {
                // The folder went: watch again once something is at its path.
                watch = folder.withPlatformString { inotify_add_watch(descriptor, $0, mask) }
                if watch >= 0 { for name in signatures().keys { touch(name) } }
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Wakes at least every 50 ms to flush the debounce and to notice a stop.
            let ready = Glibc.poll(&poller, 1, 50)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                var offset = 0
                while count > 0, offset + headerSize <= count {
                    let (length, name, event) = buffer.withUnsafeBytes { raw -> (Int, String, inotify_event) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let length = Int(event.len)
                        let start = offset + headerSize
                        let bytes = raw[start..<min(start + length, count)].prefix { $0 != 0 }
                        return (length, String(decoding: bytes, as: UTF8.self), event)
                    }
                    if event.wd == watch, event.mask & gone != 0 {
                        if event.mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(descriptor, watch) }
                        watch = -1
                    } else if let file = TripFile(fileName: name) {
                        touch(file.name)
                    }
                    offset += headerSize + length
                }
            }
            flush()
        }
    }
    #endif
}
