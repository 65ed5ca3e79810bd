import DetourTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import DetourServer

/// `serve --tiles`: a tile server's template is held to what a page's policy can name exactly,
/// and a page with a map draws from it, allowed by its policy, crediting it.
@Suite struct TileLayerTests: SiteDriving {
    static let osm = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    static let credit = "© OpenStreetMap contributors"

    @Test(arguments: [
        (osm, "https://tile.openstreetmap.org"),
        ("https://{s}.tile.example.org/{z}/{x}/{y}.png", "https://*.tile.example.org"),
        ("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png", "http://127.0.0.1:8080"),
    ])
    func aTileServersTemplateIsAllowedByItsOrigin(template: String, source: String) throws {
        var problem = ""
        let layer = try #require(TileLayer(template: template, attribution: Self.credit, problem: &problem))
        #expect(layer.source == source)
        #expect(layer.template == template)
        #expect(problem.isEmpty)
    }

    @Test(arguments: [
        (osm, "", "needs --tiles-attribution"),
        (osm, "two\nlines", "one line"),
        (osm, "\u{202E}srotubirtnoc", "plain text"),
        (osm, "C1\u{85}next", "plain text"),
        ("https://tile.example.org/{z}/{x}/{y}{foo}.png", credit, "{foo… is none of them"),
        ("https://tile.example.org/{z}/{x}/{y}.png{", credit, "{… is none of them"),
        ("https://tile.example.org/{z}/{x}/{y}.png\"><script>", credit, "no quote"),
        ("https://user@tile.example.org/{z}/{x}/{y}.png", credit, "plainly"),
        ("https://tile.example.org/{z}/{x}/{y}.png\n", credit, "no quote"),
        ("ftp://tile.example.org/{z}/{x}/{y}.png", credit, "https:// or http://"),
        ("https://tile.example.org", credit, "must have a path"),
        ("https://tile.example.org/{z}/{x}.png", credit, "({y} is missing)"),
        ("https://tile.exa mple.org/{z}/{x}/{y}.png", credit, "plainly"),
        ("https://*.example.org/{z}/{x}/{y}.png", credit, "plainly"),
        ("https://tile.example.org:http/{z}/{x}/{y}.png", credit, "plainly"),
        ("https://tile.example.org/{z}/{x}/{y}.png';script-src", credit, "no quote"),
        ("https://tile.example.org/{z}/{x}/{y}.png?a=1,2", credit, "no quote"),
    ])
    func aTemplateThatIsNotPlainlyOneTileServerIsRefused(template: String, attribution: String, reason: String) {
        var problem = ""
        #expect(TileLayer(template: template, attribution: attribution, problem: &problem) == nil)
        #expect(problem.contains(reason), "\(problem)")
    }

    func site(tiles: TileLayer?) throws -> DrivenSite {
        let store = FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")])
        var settings = try site(store).settings
        settings.tiles = tiles
        return DrivenSite(settings: settings, store: store)
    }

    /// With tiles, every map of every page draws from them and credits them, and the page's
    /// policy allows images from their origin; without, no page names any.
    @Test func everyMapDrawsFromTheTileServerAndThePolicyAllowsIt() async throws {
        var problem = ""
        let layer = try #require(TileLayer(template: Self.osm, attribution: Self.credit, problem: &problem))
        let paths = ["/destinations/new", "/trips/lisbon/destinations/1", "/trips/lisbon/destinations/1/detours/4"]
        let tiled = try site(tiles: layer)
        let plain = try site(tiles: nil)
        // A detour with no task yet, whose sides have maps.
        for site in [tiled, plain] {
            let stay = "/trips/lisbon/destinations/1"
            let version = try #require(MapTests.version(of: body(try await site.respond(to: request(.get, stay)))))
            let made = try await site.respond(
                to: request(
                    .post, "\(stay)/detours", headers: AddDestinationTests.form,
                    body: Array(AccountSite.encoded([("version", version)]).utf8)))
            #expect(made.status == .seeOther)
        }
        for path in paths {
            let page = body(try await tiled.respond(to: request(.get, path)))
            #expect(page.contains("img-src 'self' data: https://tile.openstreetmap.org; base-uri"), "\(path)")
            #expect(
                page.contains(
                    "data-tiles=\"https://tile.openstreetmap.org/{z}/{x}/{y}.png\" data-tiles-attribution=\"© OpenStreetMap contributors\""
                ), "\(path)")
            let without = body(try await plain.respond(to: request(.get, path)))
            #expect(without.contains("img-src 'self' data:; base-uri"), "\(path)")
            #expect(!without.contains("data-tiles"), "\(path)")
        }
    }
}
