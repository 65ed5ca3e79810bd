import NIOCore
import NIOEmbedded
import Testing

@testable import DetourServer

/// Several live previews of one trip: closing one leaves the others listening, and the trip is
/// watched until the last one closes.
@Suite struct LiveReloadTests {
    /// Opens a preview's stream, takes its first version, and lets it go: the page was closed.
    static func openAndClose(_ reload: LiveReload, _ name: TripName) async -> String? {
        var iterator = reload.listen(to: name, current: "v1")?.makeAsyncIterator()
        return await iterator?.next()
    }

    @Test(arguments: 0..<3)
    func closingOnePreviewLeavesTheOthers(_ closed: Int) async throws {
        let reload = LiveReload()
        let trip = try #require(TripName(decoded: "lisbon"))
        let other = try #require(TripName(decoded: "oslo"))
        var streams = (0..<3).compactMap { _ in reload.listen(to: trip, current: "v1") }
        let elsewhere = try #require(reload.listen(to: other, current: "o1"))
        // The closed page's stream goes away, as its connection does.
        streams.remove(at: closed)
        // Required, not expected: a stream the hub forgot would never end, and the reads below
        // would wait for ever.
        try #require(reload.hasListeners(trip))
        reload.send("v2", to: trip)
        reload.send("o2", to: other)
        reload.closeAll()
        for stream in streams {
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == "v1")
            #expect(await iterator.next() == "v2")
            #expect(await iterator.next() == nil)
        }
        var otherVersions: [String] = []
        for await version in elsewhere { otherVersions.append(version) }
        #expect(otherVersions == ["o1", "o2"])
    }

    @Test func theTripIsWatchedUntilItsLastPreviewCloses() async throws {
        let reload = LiveReload()
        let trip = try #require(TripName(decoded: "lisbon"))
        var first: AsyncStream<String>? = reload.listen(to: trip, current: "v1")
        #expect(await Self.openAndClose(reload, trip) == "v1")
        #expect(reload.hasListeners(trip), "one preview is still open")
        #expect(first != nil)
        first = nil
        #expect(!reload.hasListeners(trip), "the last preview closed")
        // A preview opened again is sent the next version.
        let again = try #require(reload.listen(to: trip, current: "v2"))
        reload.send("v3", to: trip)
        reload.closeAll()
        var versions: [String] = []
        for await version in again { versions.append(version) }
        #expect(versions == ["v2", "v3"])
    }

    /// A version is sent to a stream once: the watch's late word of the change a page was made
    /// from, or a save that changed nothing, sends nothing; going back to an older version does.
    @Test func eachStreamIsSentAVersionOnce() async throws {
        let reload = LiveReload()
        let trip = try #require(TripName(decoded: "lisbon"))
        let early = try #require(reload.listen(to: trip, current: "v1"))
        let late = try #require(reload.listen(to: trip, current: "v2"))
        for version in ["v2", "v2", "v1", "v1"] { reload.send(version, to: trip) }
        reload.closeAll()
        var versions: [[String]] = [[], []]
        for await version in early { versions[0].append(version) }
        for await version in late { versions[1].append(version) }
        #expect(versions[0] == ["v1", "v2", "v1"])
        #expect(versions[1] == ["v2", "v1"])
    }

    /// A stream whose connection has closed ends, and gives its place back.
    @Test func aStreamEndsWhenItsConnectionCloses() async throws {
        let reload = LiveReload(limit: 1)
        let trip = try #require(TripName(decoded: "lisbon"))
        let closed = EmbeddedEventLoop().makePromise(of: Void.self)
        let stream = try #require(reload.listen(to: trip, current: "v1", until: closed.futureResult))
        #expect(reload.listen(to: trip, current: "v1") == nil, "the one place is taken")
        closed.succeed()
        var versions: [String] = []
        for await version in stream { versions.append(version) }
        #expect(versions == ["v1"])
        #expect(!reload.hasListeners(trip))
        #expect(reload.listen(to: trip, current: "v1") != nil, "the place is free again")
    }

    /// Streams past the limit are refused, and a closed one makes room: open previews never take
    /// the connections requests need.
    @Test func streamsPastTheLimitAreRefusedUntilOneCloses() throws {
        let reload = LiveReload(limit: 2)
        let trip = try #require(TripName(decoded: "lisbon"))
        var first = reload.listen(to: trip, current: "v1")
        let second = reload.listen(to: trip, current: "v1")
        #expect(first != nil && second != nil)
        #expect(reload.listen(to: trip, current: "v1") == nil, "the third is one past the limit")
        first = nil
        #expect(reload.listen(to: trip, current: "v1") != nil, "a closed stream makes room")
    }
}
