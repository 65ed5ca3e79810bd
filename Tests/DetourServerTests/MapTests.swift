import DetourCore
import DetourPlaces
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import DetourServer

/// The maps' side of the server: its own copies of Leaflet and the base map, the gazetteer's
/// answers to a long press and a search box, and pages that load exactly those.
@Suite struct MapTests: SiteDriving {
    func site() throws -> DrivenSite {
        let store = FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")])
        var settings = try site(store).settings
        settings.places = AddDestinationTests.OnePlace()
        return DrivenSite(settings: settings, store: store)
    }

    @Test(arguments: [
        ("leaflet-1.7.1.js", "text/javascript; charset=utf-8"), ("leaflet-1.7.1.css", "text/css; charset=utf-8"),
        ("countries.geojson", "application/geo+json"), ("map.js", "text/javascript; charset=utf-8"),
    ])
    func eachAssetIsServedWithItsTypeAndKeptByTheBrowser(name: String, type: String) async throws {
        let site = try site()
        let response = try await site.respond(to: request(.get, "/assets/\(name)"))
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == type)
        #expect(response.headers[.cacheControl] == "no-cache")
        let etag = try #require(response.headers[.eTag])
        #expect(response.body.readableBytes == MapAssets.files[name]?.bytes.count)
        let again = try await site.respond(to: request(.get, "/assets/\(name)", headers: [.ifNoneMatch: etag]))
        #expect(again.status == .notModified)
        #expect(try await site.respond(to: request(.get, "/assets/\(name).map")).status == .notFound)
    }

    /// The base map is GeoJSON a map library reads: one multipolygon of closed rings, in range.
    @Test func theCountriesAreClosedRingsOfLongitudesAndLatitudes() throws {
        let bytes = try #require(MapAssets.files["countries.geojson"]?.bytes)
        let shape = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(shape["type"] as? String == "MultiPolygon")
        let polygons = try #require(shape["coordinates"] as? [[[[Double]]]])
        #expect(polygons.count > 200)
        for ring in polygons.flatMap({ $0 }) {
            #expect(ring.count >= 4 && ring.first == ring.last)
            #expect(ring.allSatisfy { abs($0[0]) <= 180 && abs($0[1]) <= 90 })
        }
        #expect(MapAssets.leafletScript.contains("https://leafletjs.com"))
        #expect(!MapAssets.leafletScript.contains("sourceMappingURL"), "the source map is not served")
    }

    @Test func aPointNearLisbonIsNamedLisbonAndOneAtSeaNothing() async throws {
        let site = try site()
        let near = try await site.respond(to: request(.get, "/places/nearest?lat=38.72&lon=-9.14"))
        #expect(near.status == .ok)
        #expect(near.headers[.contentType] == "application/json")
        #expect(body(near) == "{\"name\":\"Lisbon\"}\n")
        let sea = try await site.respond(to: request(.get, "/places/nearest?lat=38.72&lon=-12"))
        #expect(body(sea) == "{\"name\":null}\n")
    }

    /// A point that is not one is refused as a form's field would be: out of range, not a
    /// number, or missing.
    @Test(arguments: ["lat=91&lon=0", "lat=0&lon=180.5", "lat=north&lon=0", "lat=0", ""])
    func aPointThatIsNoneIsRefused(query: String) async throws {
        let response = try await site().respond(to: request(.get, "/places/nearest?\(query)"))
        #expect(response.status == .unprocessableContent)
        #expect(body(response).contains("bad-form"))
    }

    /// A finder that records the searches it is asked for.
    final class Searches: PlaceFinder {
        let asked = Mutex<[String]>([])

        func prepare() {}

        func name(at point: Coordinate) async -> String? { nil }

        func search(_ text: String) async -> [Place] {
            asked.withLock { $0.append(text) }
            return []
        }
    }

    /// A search of 200 bytes is made; one of 201, longer than any place's name, is not.
    @Test func aSearchPastTheLongestNameIsNotMade() async throws {
        let searches = Searches()
        var settings = try site().settings
        settings.places = searches
        let site = DrivenSite(settings: settings, store: FakeTripStore([:]))
        for length in [200, 201] {
            let response = try await site.respond(
                to: request(.get, "/places?q=" + String(repeating: "l", count: length)))
            #expect(body(response) == "[]\n")
        }
        #expect(searches.asked.withLock { $0 } == [String(repeating: "l", count: 200)])
    }

    @Test(arguments: [("?q=lis", 1), ("?q=LISB", 1), ("?q=porto", 0), ("?q=", 0), ("", 0)])
    func aSearchFindsPlacesByTheStartOfTheirNames(query: String, count: Int) async throws {
        let response = try await site().respond(to: request(.get, "/places\(query)"))
        #expect(response.status == .ok)
        let found = try #require(try JSONSerialization.jsonObject(with: Data(body(response).utf8)) as? [[String: Any]])
        #expect(found.count == count)
        if count == 1 {
            #expect(found[0]["name"] as? String == "Lisbon")
            #expect(found[0]["country"] as? String == "PT")
            #expect(found[0]["lat"] as? Double == 38.71667)
            #expect(found[0]["lon"] as? Double == -9.13333)
        }
    }

    /// A page with a map allows scripts and styles from the server itself and nothing else; one
    /// without keeps the policy that allows no script at all.
    @Test func onlyPagesWithAMapMayRunScriptsAndOnlyTheServers() async throws {
        let site = try site()
        let strict = "content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'\""
        let mapped =
            "content=\"default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'\""
        for path in ["/destinations/new", "/trips/lisbon/destinations/1"] {
            let page = body(try await site.respond(to: request(.get, path)))
            #expect(page.contains(mapped), "\(path)")
            #expect(!page.contains(strict), "\(path)")
            #expect(
                page.contains(
                    "<script src=\"/assets/leaflet-1.7.1.js\"></script>\n<script src=\"/assets/map.js\"></script>"))
            #expect(!page.contains("<script>"), "no inline script")
        }
        for path in ["/", "/new-trip"] {
            let page = body(try await site.respond(to: request(.get, path)))
            #expect(page.contains(strict), "\(path)")
            #expect(!page.contains("<script"), "\(path)")
        }
    }

    /// The version a page was made of: its form's hidden `version` field.
    static func version(of page: String) -> String? {
        guard let start = page.firstRange(of: "name=\"version\" value=\"") else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&quot;", with: "\"")
    }

    /// A detour whose two sides are both saved has no map and loads no script.
    @Test func aDetourWithBothTasksLoadsNoMap() async throws {
        let page = body(try await site().respond(to: request(.get, "/trips/lisbon/destinations/1/detours/1")))
        #expect(!page.contains("<script"))
        #expect(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none';"))
    }

    /// A destination's map has the destination and each place of its tasks once, named.
    @Test func aDestinationsMapHasItsPlaceAndItsTasksPlaces() async throws {
        let page = body(try await site().respond(to: request(.get, "/trips/lisbon/destinations/1")))
        let attribute = try #require(page.firstRange(of: "data-points=\""))
        let text = page[attribute.upperBound...].prefix { $0 != "\"" }.replacingOccurrences(of: "&quot;", with: "\"")
        let points = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(points.first?["label"] as? String == "Lisbon")
        #expect(points.count == 7, "\(points)")
        #expect(points.contains { $0["label"] as? String == "Walk the Alfama" })
    }
}
