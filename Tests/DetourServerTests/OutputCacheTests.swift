import DetourCore
import DetourRender
import Dispatch
import Synchronization
import Testing

@testable import DetourServer

/// The rendered outputs, bounded in bytes, one version of each trip, day and format.
@Suite struct OutputCacheTests {
    static func key(_ name: String, _ format: OutputFormat = .html) -> OutputCache.Key {
        OutputCache.Key(name: name, today: .unixEpoch, format: format)
    }

    static func output(_ bytes: Int) -> RenderedOutput {
        RenderedOutput(bytes: Array(repeating: UInt8(ascii: "x"), count: bytes))
    }

    @Test func theLimitIsInBytesAndTheOutputUsedLongestAgoGoesFirst() {
        let cache = OutputCache(limit: 300)
        cache.keep(Self.output(100), for: Self.key("a"), etag: "1")
        cache.keep(Self.output(100), for: Self.key("b"), etag: "1")
        cache.keep(Self.output(100), for: Self.key("c"), etag: "1")
        #expect(cache.size == (300, 3), "exactly at the limit, all are kept")
        // "a" is used again, so "b" is the one used longest ago.
        #expect(cache[Self.key("a"), etag: "1"] != nil)
        cache.keep(Self.output(1), for: Self.key("d"), etag: "1")
        #expect(cache.size == (201, 3), "one byte past it, one output goes")
        #expect(cache[Self.key("b"), etag: "1"] == nil)
        #expect(cache[Self.key("a"), etag: "1"] != nil && cache[Self.key("c"), etag: "1"] != nil)
    }

    @Test func aNewVersionTakesTheOldOnesPlace() {
        let cache = OutputCache(limit: 1 << 20)
        for version in 0..<10 {
            cache.keep(Self.output(1000), for: Self.key("big"), etag: "\(version)")
            cache.keep(Self.output(500), for: Self.key("big", .markdown), etag: "\(version)")
        }
        #expect(cache.size == (1500, 2), "ten saves keep one version's outputs")
        #expect(cache[Self.key("big"), etag: "8"] == nil, "an old version is no hit")
        #expect(cache[Self.key("big"), etag: "9"] != nil)
        cache.forget("big")
        #expect(cache.size == (0, 0))
    }

    @Test func anOutputLargerThanTheLimitIsNotKept() {
        let cache = OutputCache(limit: 100)
        cache.keep(Self.output(100), for: Self.key("fits"), etag: "1")
        cache.keep(Self.output(101), for: Self.key("huge"), etag: "1")
        #expect(cache.size == (100, 1))
        #expect(cache[Self.key("huge"), etag: "1"] == nil)
    }
}
