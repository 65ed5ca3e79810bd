import Synchronization

/// What a trip library may know of its folder without asking the file system.
///
/// While the folder's inotify watch is healthy, what a trip name holds is what it was last found
/// to hold, until the watch tells of an event on one of its files: a cached report is answered
/// with no `lstat` at all (two a request before, one per format the name may have). The file
/// system is asked again for the name an event names, for every name after the kernel's queue
/// overflowed (events were lost), and for every request while the watch is not healthy: the
/// folder is polled (`--poll`), inotify is not to be had, or the folder went away and is not
/// back yet.
///
/// A read that started before an event and ends after it is not kept: each event moves the
/// epoch, and only a read made within one epoch is kept.
public final class FolderFreshness: Sendable {
    private struct State {
        var trusted = false
        var epoch = 0
        var known: [TripName: CurrentRead] = [:]
    }

    private let state = Mutex(State())

    /// What `name` was found to hold, while the watch is healthy and no event named it since.
    func known(_ name: TripName) -> CurrentRead? {
        state.withLock { $0.trusted ? $0.known[name] : nil }
    }

    /// The epoch now, to be given back to ``keep(_:for:since:)``.
    var epoch: Int { state.withLock { $0.epoch } }

    /// Keeps what `name` was found to hold by a read begun in `epoch`, when the watch is healthy
    /// and nothing happened since.
    func keep(_ read: CurrentRead, for name: TripName, since epoch: Int) {
        state.withLock { state in
            guard state.trusted, state.epoch == epoch else { return }
            state.known[name] = read
        }
    }

    /// An event on `name`'s files (or a write through the server): its next read asks again.
    func changed(_ name: TripName) {
        state.withLock { state in
            state.epoch += 1
            state.known[name] = nil
        }
    }

    /// Events were lost, or the folder was made again: every name's next read asks again.
    func changedAll() {
        state.withLock { state in
            state.epoch += 1
            state.known = [:]
        }
    }

    /// Whether the watch is healthy now; either way, nothing known before is kept.
    func trust(_ healthy: Bool) {
        state.withLock { state in
            state.epoch += 1
            state.known = [:]
            state.trusted = healthy
        }
    }

    /// Whether the watch is healthy.
    var isTrusted: Bool { state.withLock { $0.trusted } }

    /// The epoch now, while the watch is healthy: an answer made from the folder in it holds
    /// until it moves (``ResponseReplay``).
    var trustedEpoch: Int? { state.withLock { $0.trusted ? $0.epoch : nil } }
}
