import DetourCore
import DetourIO
import DetourPlaces
import DetourRender
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import DetourServer

/// The add-destination form: every post is one change to one trip file, validated whole by the
/// trip validator, each error beside its field, the file written back in its own format.
@Suite struct AddDestinationTests: SiteDriving {
    /// A finder that knows one place, Lisbon, within 40 km of its centre.
    struct OnePlace: PlaceFinder {
        let prepared = Counter()

        func prepare() { prepared.add() }

        func name(at point: Coordinate) async -> String? {
            Self.places(or: point).place(at: point, within: 40_000)?.place.name
        }

        func search(_ text: String) async -> [Place] {
            guard let centre = Coordinate(latitude: 0, longitude: 0) else { return [] }
            return Self.places(or: centre).search(text)
        }

        /// Lisbon at its centre (`fallback` only if the centre were no coordinate).
        static func places(or fallback: Coordinate) -> Gazetteer {
            Gazetteer(places: [
                Place(
                    name: "Lisbon", coordinate: Coordinate(latitude: 38.71667, longitude: -9.13333) ?? fallback,
                    country: "PT", population: 517_802)
            ])
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static let form: HTTPFields = [
        .contentType: "application/x-www-form-urlencoded", .origin: "http://localhost",
        .accept: "text/html",
    ]

    func site(_ store: FakeTripStore, places: some PlaceFinder) throws -> DrivenSite {
        var settings = try site(store).settings
        settings.places = places
        return DrivenSite(settings: settings, store: store)
    }

    func store() throws -> FakeTripStore {
        FakeTripStore([
            "lisbon.json": try Fixtures.sample("lisbon-city-break.json"),
            "nordic.gpx": Array(
                try TripGPXWriter.write(
                    try #require(TripLoader.load(try Fixtures.sample("nordic-budget.json"), format: .json).trip)
                ).utf8),
            "broken.json": Array("{\"title\": 3, \"destinations\": []}".utf8),
        ])
    }

    func post(_ site: DrivenSite, _ fields: [(String, String)]) async throws -> TestResponse {
        try await site.respond(
            to: request(.post, "/destinations", headers: Self.form, body: Array(AccountSite.encoded(fields).utf8)))
    }

    /// The trip `file` of `store` as it is now, read and validated.
    func trip(_ store: FakeTripStore, _ file: String) throws -> Trip {
        let name = try #require(TripFile(fileName: file))
        let bytes = try #require(store.state.withLock { $0.files[name] })
        return try #require(TripLoader.load(bytes, format: name.format).trip)
    }

    @Test func theFormHasItsLabelledFieldsAndTheTrips() async throws {
        let places = OnePlace()
        let site = try site(try store(), places: places)
        let response = try await site.respond(to: request(.get, "/destinations/new?trip=nordic"))
        #expect(response.status == .ok)
        let page = body(response)
        for (name, label) in [
            ("name", "Name"), ("arrival", "Arrival"), ("departure", "Departure"), ("lat", "Latitude"),
            ("lon", "Longitude"), ("title", "Title of the new trip"),
        ] {
            #expect(page.contains("<label for=\"\(name)\">\(label)</label>"), "\(name)")
        }
        #expect(page.contains("<input id=\"arrival\" name=\"arrival\" type=\"date\" value=\"\" required>"))
        #expect(
            page.contains("<input id=\"name\" name=\"name\" type=\"text\" value=\"\" aria-describedby=\"name-hint\">"))
        #expect(page.contains("<option value=\"nordic\" selected>Stockholm and Oslo on a budget</option>"))
        #expect(page.contains("<option value=\"lisbon\">Lisbon in December</option>"))
        #expect(!page.contains("broken"), "a trip with errors cannot take a destination")
        #expect(page.contains("<option value=\"+new\">A new trip</option>"))
        #expect(places.prepared.value == 1, "the form readies the places for its post")
        let list = body(try await site.respond(to: request(.get, "/")))
        #expect(list.contains("<a class=\"button\" href=\"/destinations/new\">Add destination</a>"))
    }

    /// Saved: the file has the stay at its end, still a valid trip, and the person is taken to
    /// the stay's page.
    @Test func aDestinationIsAddedToTheTripFileAndOpened() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        let response = try await post(
            site,
            [
                ("name", "Sintra"), ("arrival", "2026-12-05"), ("departure", "2026-12-07"), ("lat", "38.8029"),
                ("lon", "-9.3817"), ("trip", "lisbon"),
            ])
        #expect(response.status == .seeOther, "\(body(response))")
        #expect(response.headers[.location] == "/trips/lisbon/destinations/2")
        let trip = try trip(store, "lisbon.json")
        #expect(trip.destinations.map(\.name) == ["Lisbon", "Sintra"])
        #expect(trip.destinations[1].arrival == CalendarDay(iso: "2026-12-05"))
        #expect(trip.destinations[0].detours.count == 3, "nothing else of the trip changed")
        let page = body(try await site.respond(to: request(.get, "/trips/lisbon/destinations/2")))
        #expect(page.contains("<h1>Sintra</h1>"))
    }

    /// A GPX trip stays GPX.
    @Test func aGPXTripIsWrittenBackAsGPX() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        let response = try await post(
            site,
            [
                ("name", "Bergen"), ("arrival", "2026-12-07"), ("departure", "2026-12-09"), ("lat", "60.39"),
                ("lon", "5.32"), ("trip", "nordic"),
            ])
        #expect(response.status == .seeOther, "\(body(response))")
        #expect(try trip(store, "nordic.gpx").destinations.map(\.name) == ["Stockholm", "Oslo", "Bergen"])
        let file = try #require(TripFile(fileName: "nordic.gpx"))
        let bytes = try #require(store.state.withLock { $0.files[file] })
        #expect(String(decoding: bytes.prefix(5), as: UTF8.self) == "<?xml")
    }

    /// A place and no name: the name of the nearest populated place is filled in on save.
    @Test func aPlaceWithoutANameIsNamedAfterTheNearestTown() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        let response = try await post(
            site,
            [
                ("name", ""), ("arrival", "2026-12-05"), ("departure", "2026-12-06"), ("lat", "38.74"),
                ("lon", "-9.15"), ("trip", "lisbon"),
            ])
        #expect(response.status == .seeOther)
        #expect(try trip(store, "lisbon.json").destinations.last?.name == "Lisbon")
    }

    /// Every refusal, each beside its field, and the file unchanged: what was typed is kept.
    @Test(arguments: [
        ("departure", "2026-12-05", "2026-12-05", "departure", "Departure 2026-12-05 is not after arrival 2026-12-05."),
        (
            "arrival", "2026-13-05", "2026-12-08", "arrival",
            "is not a calendar day (YYYY-MM-DD); did you mean &quot;2026-05-13&quot; (month and day swapped)?"
        ),
        ("name", "", "", "name", "name"),
        ("lat", "2026-12-05", "2026-12-07", "lat", "latitude"),
    ])
    func aRefusalIsShownAtItsField(
        _ what: String, arrival: String, departure: String, field: String, message: String
    ) async throws {
        let store = try store()
        let before = store.state.withLock { $0.files }
        let site = try site(store, places: NoPlaces())
        var fields = [
            ("name", "Sintra"), ("arrival", arrival), ("departure", departure), ("lat", "38.8"), ("lon", "-9.38"),
        ]
        if what == "name" {
            fields = [("name", ""), ("arrival", "2026-12-05"), ("departure", "2026-12-06"), ("lat", ""), ("lon", "")]
        }
        if what == "lat" { fields[3].1 = "north" }
        let response = try await post(site, fields + [("trip", "lisbon")])
        #expect(response.status == .unprocessableContent)
        let page = body(response)
        let problem = page.components(separatedBy: "<span class=\"problem\" id=\"\(field)-problem\">").dropFirst()
            .first?
            .components(separatedBy: "</span>").first
        #expect(problem?.localizedCaseInsensitiveContains(message) == true, "\(page)")
        #expect(
            page.contains("id=\"\(field)\"")
                && page.contains("aria-invalid=\"true\" aria-describedby=\"\(field)-problem"))
        #expect(page.contains("value=\"\(fields[0].1)\""), "what was typed is kept")
        #expect(store.state.withLock { $0.files } == before, "nothing was written")
    }

    /// A new trip: its title is required, and its file is named after it.
    @Test func aNewTripIsMadeForTheFirstDestination() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        let stay = [
            ("name", "Porto"), ("arrival", "2027-03-01"), ("departure", "2027-03-04"), ("lat", "41.15"),
            ("lon", "-8.61"),
        ]
        let untitled = try await post(site, stay + [("trip", "+new"), ("title", "")])
        #expect(untitled.status == .unprocessableContent)
        #expect(
            body(untitled).contains("<span class=\"problem\" id=\"title-problem\">Give the new trip a title.</span>"))
        for expected in ["spring-in-portugal", "spring-in-portugal-2"] {
            let response = try await post(site, stay + [("trip", "+new"), ("title", "Spring in Portugal!")])
            #expect(response.headers[.location] == "/trips/\(expected)/destinations/1")
            let trip = try trip(store, "\(expected).json")
            #expect(trip.title == "Spring in Portugal!")
            #expect(trip.destinations.map(\.name) == ["Porto"])
        }
        #expect(TripNaming.name(for: "Ålesund & Łódź", taken: []).text == "alesund-lodz")
        #expect(TripNaming.name(for: "Straße nach Ærø", taken: []).text == "strasse-nach-aero")
        #expect(TripNaming.name(for: "Москва и Санкт-Петербург", taken: []).text == "moskva-i-sankt-peterburg")
        #expect(TripNaming.name(for: "!!!", taken: ["trip"]).text == "trip-2")
    }

    /// A trip that is invalid on disk is not changed: the person is told to fix it first.
    @Test func aTripWithErrorsOnDiskIsNotChanged() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        let response = try await post(
            site,
            [
                ("name", "X"), ("arrival", "2027-03-01"), ("departure", "2027-03-04"), ("lat", "1"), ("lon", "1"),
                ("trip", "broken"),
            ])
        #expect(response.status == .conflict)
        #expect(body(response).contains("The trip&#39;s file broken has errors"))
        #expect(try await post(site, [("trip", "nowhere"), ("arrival", "2027-03-01")]).status == .notFound)
        #expect(try await post(site, [("trip", "../x")]).status == .badRequest)
    }

    /// A change on disk between the form's load and its post is kept: the post is made to the
    /// file as it is then, never to the version the page saw.
    @Test func aChangeMadeElsewhereMeanwhileIsKept() async throws {
        let store = try store()
        let site = try site(store, places: OnePlace())
        _ = try await site.respond(to: request(.get, "/destinations/new?trip=lisbon"))
        var changed = try trip(store, "lisbon.json")
        changed.title = "Lisbon, edited by hand"
        let file = try #require(TripFile(fileName: "lisbon.json"))
        store.state.withLock { $0.files[file] = Array(TripJSONWriter.write(changed).utf8) }
        let response = try await post(
            site,
            [
                ("name", "Sintra"), ("arrival", "2026-12-05"), ("departure", "2026-12-07"), ("lat", "38.8"),
                ("lon", "-9.38"), ("trip", "lisbon"),
            ])
        #expect(response.status == .seeOther)
        let trip = try trip(store, "lisbon.json")
        #expect(trip.title == "Lisbon, edited by hand")
        #expect(trip.destinations.map(\.name) == ["Lisbon", "Sintra"])
    }
}
