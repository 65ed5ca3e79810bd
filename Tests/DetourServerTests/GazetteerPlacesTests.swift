import DetourCore
import DetourPlaces
import Foundation
import Synchronization
import Testing

@testable import DetourServer

/// The server's places: loaded once, off the request's thread, when first needed; a request that
/// comes while they load waits for them, and one that comes after does not load them again.
@Suite struct GazetteerPlacesTests {
    /// Counts the loads, and holds each until it is let go.
    final class Loads: Sendable {
        let count = Mutex(0)
        let gate = Gate()

        func load() -> Gazetteer {
            count.withLock { $0 += 1 }
            gate.wait()
            let lisbon = Coordinate(latitude: 38.71667, longitude: -9.13333)
            return Gazetteer(
                places: lisbon.map { [Place(name: "Lisbon", coordinate: $0, country: "PT", population: 517_802)] } ?? []
            )
        }
    }

    /// A gate a plain thread waits at until it is opened.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var open = false

        func wait() {
            condition.lock()
            while !open { condition.wait() }
            condition.unlock()
        }

        func release() {
            condition.lock()
            open = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// A lookup that comes before any page prepared the places starts their load and waits
    /// for it (with the places read in a tenth of a second, the browser walks no longer meet
    /// this by chance).
    @Test func aLookupBeforeAnyPrepareStartsTheLoadAndWaitsForIt() async throws {
        let loads = Loads()
        loads.gate.release()
        let places = GazetteerPlaces(load: { loads.load() })
        let point = try #require(Coordinate(latitude: 38.74, longitude: -9.15))
        #expect(await places.name(at: point) == "Lisbon")
        #expect(await places.search("lis").map(\.name) == ["Lisbon"])
        #expect(loads.count.withLock { $0 } == 1)
    }

    @Test func loadedOnceWhenFirstNeededAndWaitedFor() async throws {
        let loads = Loads()
        let places = GazetteerPlaces(load: { loads.load() })
        #expect(loads.count.withLock { $0 } == 0, "nothing is loaded before it is needed")
        let point = try #require(Coordinate(latitude: 38.74, longitude: -9.15))
        let far = try #require(Coordinate(latitude: 0, longitude: -30))
        // Two requests while it loads: both wait, and both are answered once it is loaded.
        async let first = places.name(at: point)
        async let second = places.name(at: far)
        places.prepare()
        loads.gate.release()
        #expect(await first == "Lisbon")
        #expect(await second == nil, "no place within a day's reach")
        places.prepare()
        #expect(await places.name(at: point) == "Lisbon")
        #expect(loads.count.withLock { $0 } == 1)
        #expect(await NoPlaces().name(at: point) == nil)
        NoPlaces().prepare()
        // The search box's places come from the same load.
        #expect(await places.search("LISB").map(\.name) == ["Lisbon"])
        #expect(await places.search("Porto").isEmpty)
        #expect(await NoPlaces().search("Lisbon").isEmpty)
        #expect(loads.count.withLock { $0 } == 1)
    }
}
