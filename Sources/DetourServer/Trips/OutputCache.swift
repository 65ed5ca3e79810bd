import DetourCore
import DetourRender
import Synchronization

/// The outputs the server rendered, bounded in bytes, not in count: one per trip, day and format,
/// of the trip's version that rendered it.
///
/// A new version of a trip takes its old version's place, so saving a trip again and again never
/// piles versions up; past `limit` bytes the output used longest ago goes first, and an output
/// larger than the whole limit is not kept at all.
final class OutputCache: Sendable {
    struct Key: Hashable, Sendable {
        var name: String
        var today: CalendarDay
        var format: OutputFormat
    }

    private struct Entry {
        var etag: String
        var output: RenderedOutput
        var used: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock = 0
    }

    private let state = Mutex(State())
    /// The most bytes of output kept.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The output of `key` rendered from the version `etag`, if it is kept.
    subscript(key: Key, etag etag: String) -> RenderedOutput? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.etag == etag else { return nil }
            state.clock += 1
            state.entries[key]?.used = state.clock
            return entry.output
        }
    }

    /// Keeps `output` of `key` from the version `etag`, in place of any other version's.
    func keep(_ output: RenderedOutput, for key: Key, etag: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.output.bytes.count }
            guard output.bytes.count <= limit else { return }
            state.clock += 1
            state.entries[key] = Entry(etag: etag, output: output, used: state.clock)
            state.bytes += output.bytes.count
            while state.bytes > limit, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.output.bytes.count
            }
        }
    }

    /// Drops every output of the trip `name`: its file is gone.
    func forget(_ name: String) {
        state.withLock { state in
            for (key, entry) in state.entries where key.name == name {
                state.entries[key] = nil
                state.bytes -= entry.output.bytes.count
            }
        }
    }

    /// How many bytes of output are kept, and in how many outputs.
    var size: (bytes: Int, count: Int) {
        state.withLock { ($0.bytes, $0.entries.count) }
    }
}
