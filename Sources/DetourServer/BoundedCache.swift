import Synchronization

/// A cache of at most `limit` values, the oldest dropped first.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var values: [Key: Value] = [:]
        var order: [Key] = []
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    subscript(key: Key) -> Value? {
        get { state.withLock { $0.values[key] } }
        set {
            state.withLock { state in
                guard let newValue else {
                    state.values[key] = nil
                    state.order.removeAll { $0 == key }
                    return
                }
                if state.values.updateValue(newValue, forKey: key) == nil { state.order.append(key) }
                while state.order.count > limit { state.values[state.order.removeFirst()] = nil }
            }
        }
    }
}
