import HummingbirdCore
import NIOCore
import Synchronization

/// The server's open connections, so that when it nears its cap on connections it can close
/// the ones that wait for a request rather than leave a new client waiting.
///
/// As nginx does when it runs short of connections (it closes its "reusable" ones): a connection
/// that has sent no request yet, or whose last response is out and which sends nothing more
/// (an idle keep-alive), is closed; one with a request under way, a live preview's stream
/// included, never is. A client may always open a connection again, and HTTP/1.1 clients retry a
/// request on a keep-alive connection that the server closed (RFC 9112 §9.3.1).
///
/// The registry is touched when a connection opens and closes, never per request: whether a
/// connection is idle is known only to its own handler, on its own event loop, and is asked there.
final class IdleConnections: Sendable {
    /// A connection, and its handler, which answers on the connection's event loop.
    struct Entry: Sendable {
        let channel: any Channel
        let rules: NIOLoopBound<RequestHeadRules>
    }

    private let open = Mutex<[ObjectIdentifier: Entry]>([:])
    /// When connections were last shed, in nanoseconds of uptime: at most once in ``interval``.
    private let lastShed = Atomic<Int64>(Int64.min)
    /// The least time between two sheddings, in nanoseconds.
    let interval: Int64
    /// The time now, in nanoseconds: the system's uptime, or a test's clock.
    let clock: @Sendable () -> Int64

    init(
        interval: Duration = .seconds(1),
        clock: @escaping @Sendable () -> Int64 = { Int64(NIODeadline.now().uptimeNanoseconds) }
    ) {
        self.interval = TimeAmount(interval).nanoseconds
        self.clock = clock
    }

    /// How many connections are registered.
    var count: Int { open.withLock { $0.count } }

    /// Registers `channel`, served by `rules`, until it closes.
    func add(_ channel: any Channel, rules: RequestHeadRules) {
        let key = ObjectIdentifier(channel)
        let entry = Entry(channel: channel, rules: NIOLoopBound(rules, eventLoop: channel.eventLoop))
        open.withLock { $0[key] = entry }
        channel.closeFuture.whenComplete { [self] _ in _ = open.withLock { $0.removeValue(forKey: key) } }
    }

    /// Closes every registered connection that waits for a request, each on its own event loop.
    ///
    /// Unless `always`, does nothing when it did so less than ``interval`` before. Returns
    /// whether it shed.
    @discardableResult
    func shed(always: Bool = false) -> Bool {
        let now = clock()
        let last = lastShed.load(ordering: .relaxed)
        guard always || last == Int64.min || now - last >= interval else { return false }
        lastShed.store(now, ordering: .relaxed)
        for entry in open.withLock({ Array($0.values) }) {
            entry.channel.eventLoop.execute {
                if entry.rules.value.isIdle { entry.channel.close(promise: nil) }
            }
        }
        return true
    }
}

/// The server's cap on connections, which sheds idle ones as it nears it.
///
/// Hummingbird stops accepting at the cap and accepts again when a connection closes; this
/// counts as its `MaximumAvailableConnections` does, and from `cap - headroom` on asks
/// ``IdleConnections`` to close the connections that wait for a request, so that room is made
/// before a new client has to wait.
struct ConnectionBudget: AvailableConnectionsDelegate {
    let cap: Int
    let idle: IdleConnections
    private(set) var count = 0

    init(cap: Int, idle: IdleConnections) {
        self.cap = cap
        self.idle = idle
    }

    /// Where shedding starts: an eighth of the cap below it, at least one.
    var headroom: Int { max(1, cap / 8) }

    /// At the cap, Hummingbird accepts nothing until a connection closes, and asks no more: the
    /// idle are shed then whenever they were last.
    mutating func connectionOpened() {
        count += 1
        if count >= cap - headroom { idle.shed(always: count >= cap) }
    }

    mutating func connectionClosed() {
        count -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        count < cap
    }
}
