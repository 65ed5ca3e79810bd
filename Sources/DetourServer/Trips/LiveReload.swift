import NIOCore
import Synchronization

/// The live preview's event streams: each open preview page listens on its trip's stream, and a
/// change to the trip's file sends every listener the trip's new version.
///
/// A version is the trip file's entity tag (or `missing`): a page reloads only when the version
/// it gets differs from the one it was made from, so a save that changes nothing reloads
/// nothing, and a save made between a page's load and its stream's start is not missed.
///
/// Each stream sends a version once: one that is the last it sent is not sent again. The folder's
/// watch tells of a change a quiet time after it, so a change made just before a stream opened
/// is told after the stream has sent the version that holds it.
public final class LiveReload: Sendable {
    private struct Listener {
        let continuation: AsyncStream<String>.Continuation
        /// The version this stream sent last.
        var sent: String
    }

    private struct State {
        var listeners: [TripName: [Int: Listener]] = [:]
        var next = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// The streams open at once, counted for the whole server: each holds a connection for as
    /// long as its page is open, and they must leave the server's connections to requests.
    let streams: StreamBudget

    /// The most streams open at once.
    public var limit: Int { streams.limit }

    /// A hub with a budget of its own of `limit` streams.
    public convenience init(limit: Int = 64) {
        self.init(streams: StreamBudget(limit: limit))
    }

    /// A hub whose streams count against `streams`, shared with the server's other folders.
    init(streams: StreamBudget) {
        self.streams = streams
    }

    /// A stream of `name`'s versions, starting with `current`, or `nil` when ``limit`` streams are
    /// open; it ends when ``closeAll()`` is called, when the listener goes away, or when `closed`
    /// completes (the connection it is sent on has closed).
    public func listen(
        to name: TripName, current: String, until closed: EventLoopFuture<Void>? = nil
    ) -> AsyncStream<String>? {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(4))
        continuation.yield(current)
        enum Added {
            case full
            case closed
            case listening(Int)
        }
        let added = state.withLock { state -> Added in
            guard !state.closed else { return .closed }
            guard streams.take() else { return .full }
            let id = state.next
            state.next += 1
            state.listeners[name, default: [:]][id] = Listener(continuation: continuation, sent: current)
            return .listening(id)
        }
        let id: Int
        switch added {
        case .full: return nil
        case .closed:
            continuation.finish()
            return stream
        case .listening(let listening): id = listening
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                if state.listeners[name]?.removeValue(forKey: id) != nil { self?.streams.give() }
                if state.listeners[name]?.isEmpty == true { state.listeners[name] = nil }
            }
        }
        closed?.whenComplete { _ in continuation.finish() }
        return stream
    }

    /// Sends `version` to every listener of `name` whose last version it is not.
    public func send(_ version: String, to name: TripName) {
        // Yielded under the lock, so that two sends reach every stream in the order they were
        // noted; a yield only appends to the stream's buffer.
        state.withLock { state in
            guard let listeners = state.listeners[name] else { return }
            for (id, listener) in listeners where listener.sent != version {
                state.listeners[name]?[id]?.sent = version
                listener.continuation.yield(version)
            }
        }
    }

    /// Sends every listener an empty version, which its stream writes as a comment line.
    ///
    /// A page closed without a word leaves its connection half open; the server learns it is
    /// gone only when a write to it fails. Sent every ``heartbeat`` seconds, this closes such a
    /// connection within two of them, so closed tabs never pile up against the connection limit.
    public func beat() {
        let listeners = state.withLock { $0.listeners.values.flatMap(\.values) }
        for listener in listeners { listener.continuation.yield("") }
    }

    /// How often ``beat()`` is sent.
    public static let heartbeat: Duration = .seconds(10)

    /// Whether anyone listens to any trip.
    var isListenedTo: Bool {
        state.withLock { !$0.listeners.isEmpty }
    }

    /// Whether anyone listens to `name`.
    public func hasListeners(_ name: TripName) -> Bool {
        state.withLock { $0.listeners[name] != nil }
    }

    /// Ends every stream, and every stream opened from now on: the server is stopping.
    public func closeAll() {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.closed = true
            let open = state.listeners.values.flatMap(\.values).map(\.continuation)
            for _ in open { streams.give() }
            state.listeners = [:]
            return open
        }
        for listener in listeners { listener.finish() }
    }
}

/// How many live-reload streams a server keeps open at once, across all its folders.
final class StreamBudget: Sendable {
    let limit: Int
    private let open = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes one stream of the budget; false when all are taken.
    func take() -> Bool {
        open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// Gives one back.
    func give() {
        open.withLock { $0 = max(0, $0 - 1) }
    }
}
