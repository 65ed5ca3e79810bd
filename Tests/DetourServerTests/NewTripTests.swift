import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// The new-trip form: a title, and a trip file with no destinations yet named after it, through
/// the same validator and writer as every other change.
@Suite struct NewTripTests: SiteDriving {
    func post(_ site: DrivenSite, title: String) async throws -> TestResponse {
        try await site.respond(
            to: request(
                .post, "/trips", headers: AddDestinationTests.form,
                body: Array(AccountSite.encoded([("title", title)]).utf8)))
    }

    @Test func theFormHasItsLabelledTitleAndIsLinkedFromTheList() async throws {
        let site = try site(FakeTripStore([:]))
        let response = try await site.respond(to: request(.get, "/new-trip"))
        #expect(response.status == .ok)
        let page = body(response)
        #expect(page.contains("<form method=\"post\" action=\"/trips\">"))
        #expect(page.contains("<label for=\"title\">Title</label>"), "\(page)")
        #expect(page.contains("aria-describedby=\"title-hint\""), "\(page)")
        #expect(body(try await site.respond(to: request(.get, "/"))).contains("<a href=\"/new-trip\">New trip</a>"))
    }

    /// Saved, the trip is a file of its own with the title and no destinations, and the person
    /// is sent on to add its first destination, the new trip chosen.
    @Test func aTripIsMadeEmptyAndTheFormForItsFirstDestinationOpens() async throws {
        let store = FakeTripStore([:])
        let site = try site(store)
        for expected in ["spring-in-portugal", "spring-in-portugal-2"] {
            let response = try await post(site, title: "Spring in Portugal!")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/destinations/new?trip=\(expected)")
            let file = try #require(TripFile(fileName: "\(expected).json"))
            let bytes = try #require(store.state.withLock { $0.files[file] })
            let trip = try #require(TripLoader.load(bytes, format: .json).trip)
            #expect(trip.title == "Spring in Portugal!")
            #expect(trip.destinations.isEmpty)
        }
        let form = body(try await site.respond(to: request(.get, "/destinations/new?trip=spring-in-portugal")))
        #expect(form.contains("<option value=\"spring-in-portugal\" selected>Spring in Portugal!</option>"), "\(form)")
    }

    /// A title left empty, or only spaces, is refused beside the field.
    ///
    /// One past the validator's limit on text gets the validator's own message there. Nothing is
    /// written.
    @Test(arguments: [
        (0, "Give the new trip a title."), (-3, "Give the new trip a title."),
        (
            TripLimits.standard.maxTextBytes + 1,
            "The text is longer than 10000 bytes, the limit for any text in a trip."
        ),
    ])
    func aTitleThatCannotBeIsRefusedAtItsField(letters: Int, message: String) async throws {
        let store = FakeTripStore([:])
        let site = try site(store)
        // A negative count: that many spaces.
        let title = letters < 0 ? String(repeating: " ", count: -letters) : String(repeating: "a", count: letters)
        let response = try await post(site, title: title)
        #expect(response.status == .unprocessableContent)
        let page = body(response)
        #expect(page.contains("<span class=\"problem\" id=\"title-problem\">\(message)"), "\(page.suffix(2000))")
        #expect(store.state.withLock { $0.files.isEmpty })
    }

    /// A title at the limit is a trip.
    @Test func aTitleAtTheLimitIsATrip() async throws {
        let store = FakeTripStore([:])
        let response = try await post(
            try site(store), title: String(repeating: "a", count: TripLimits.standard.maxTextBytes))
        #expect(response.status == .seeOther)
        #expect(store.state.withLock { $0.files.count } == 1)
    }

    /// With accounts, the form carries the session's token; a post without it is refused.
    @Test(arguments: AccountSite.Backing.all) func aPostWithoutTheFormTokenIsRefused(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database) { site in
            let ana = try #require(try await site.register("ana@example.org"))
            let form = body(try await site.send(.get, "/new-trip", cookie: ana))
            let token = try await site.formToken(ana)
            #expect(form.contains("name=\"csrf\" value=\"\(token)\""))
            let refused = try await site.send(.post, "/trips", cookie: ana, form: [("title", "Autumn")])
            #expect(refused.status == .forbidden)
            let made = try await site.send(.post, "/trips", cookie: ana, form: [("title", "Autumn"), ("csrf", token)])
            #expect(made.status == .seeOther)
            let folder = try await site.tripsFolder("ana@example.org")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("autumn.json").path))
        }
    }
}
