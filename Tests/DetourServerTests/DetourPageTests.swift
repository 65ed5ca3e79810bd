import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import DetourServer

/// A detour's page and its forms: the two panes and their three states, the title made of the
/// tasks' names, the task form's three required fields, pros and cons added and deleted, nothing
/// else of a saved task changed, a page made of an older version refused, and the deletes.
@Suite struct DetourPageTests: SiteDriving {
    static let form: HTTPFields = [
        .contentType: "application/x-www-form-urlencoded", .origin: "http://localhost", .accept: "text/html",
    ]
    static let stay = "/trips/lisbon/destinations/1"

    func store() throws -> FakeTripStore {
        FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")])
    }

    func post(_ site: DrivenSite, _ path: String, _ fields: [(String, String)]) async throws -> TestResponse {
        try await site.respond(
            to: request(.post, path, headers: Self.form, body: Array(AccountSite.encoded(fields).utf8)))
    }

    func trip(_ store: FakeTripStore) throws -> Trip {
        let file = try #require(TripFile(fileName: "lisbon.json"))
        let bytes = try #require(store.state.withLock { $0.files[file] })
        return try #require(TripLoader.load(bytes, format: .json).trip)
    }

    /// The version a page was made of: its hidden `version` field.
    func version(_ page: String) throws -> String {
        let marker = "name=\"version\" value=\""
        let start = try #require(page.range(of: marker))
        return String(page[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&quot;", with: "\"")
    }

    /// How many of the page's panes are forms that add a task.
    func editing(_ page: String) -> Int {
        page.components(separatedBy: "<section class=\"pane\"").dropFirst().count { $0.contains("-name\"") }
    }

    /// A new detour, its tasks added one after the other: no task, both panes are forms; one,
    /// the left shows it and the right is a form; two, both show theirs.
    @Test func theTwoPanesAndTheirThreeStates() async throws {
        let store = try store()
        let site = try site(store)
        let stay = body(try await site.respond(to: request(.get, Self.stay)))
        #expect(stay.contains("<button type=\"submit\">Add detour</button>"))
        let added = try await post(site, "\(Self.stay)/detours", [("version", try version(stay))])
        #expect(added.status == .seeOther)
        let detour = try #require(added.headers[.location])
        #expect(detour == "\(Self.stay)/detours/4")
        var page = body(try await site.respond(to: request(.get, detour)))
        #expect(page.contains("<h1>Undecided detour</h1>"))
        #expect(editing(page) == 2)
        #expect(
            page.contains("<h2 id=\"pane-left\">Left side</h2>")
                && page.contains("<h2 id=\"pane-right\">Right side</h2>"))
        let first = try await post(
            site, "\(detour)/tasks",
            [
                ("version", try version(page)), ("left-name", "Honor the Past"), ("left-duration", "1h30m"),
                ("left-cost", "12.50 EUR"),
            ])
        #expect(first.status == .seeOther, "\(body(first))")
        page = body(try await site.respond(to: request(.get, detour)))
        #expect(page.contains("<h1>Honor the Past or undecided</h1>"))
        #expect(editing(page) == 1)
        #expect(page.contains("<h3>Honor the Past</h3>"))
        #expect(page.contains("<dt>Duration</dt><dd>1 h 30 min</dd><dt>Cost</dt><dd>12.50 EUR</dd>"), "\(page)")
        let second = try await post(
            site, "\(detour)/tasks",
            [
                ("version", try version(page)), ("right-name", "Embrace the Future"), ("right-duration", "PT2H"),
                ("right-cost", "EUR 30"), ("right-lat", "38.7"), ("right-lon", "-9.2"),
            ])
        #expect(second.status == .seeOther, "\(body(second))")
        page = body(try await site.respond(to: request(.get, detour)))
        #expect(page.contains("<h1>Honor the Past or Embrace the Future</h1>"), "the title is the report's")
        #expect(editing(page) == 0)
        let tasks = try trip(store).destinations[0].detours[3].tasks
        #expect(tasks.map(\.name) == ["Honor the Past", "Embrace the Future"])
        #expect(tasks[1].duration.minutes == 120 && tasks[1].cost.amount == 30)
        #expect(tasks[1].location == Coordinate(latitude: 38.7, longitude: -9.2))
    }

    /// The cost field takes a price as people type it when it names one currency; else the
    /// words as typed go to the validator, which says what is wrong with them.
    @Test(arguments: [
        ("12.50 EUR", "12.50", "EUR"), ("EUR 30", "30", "EUR"), ("€12", "12", "EUR"), ("12,50 eur", "12.50", "EUR"),
        ("1.234,50 €", "1234.50", "EUR"), ("£3", "3", "GBP"), ("12.50", "12.50", ""), ("$5", "$5", ""),
        ("5 dollars", "5", "dollars"), ("cheap", "cheap", ""), ("XYZ 30", "30", "XYZ"),
    ])
    func aCostIsReadAsTyped(_ text: String, _ amount: String, _ currency: String) {
        #expect(AppDetours.cost(text) == (amount, currency))
    }

    /// The task form's three fields are required, each refused beside its field, in the
    /// validator's words; nothing is written and what was typed is kept.
    @Test func aTasksThreeFieldsAreRequiredEachAtItsField() async throws {
        let store = try store()
        let site = try site(store)
        let stay = body(try await site.respond(to: request(.get, Self.stay)))
        _ = try await post(site, "\(Self.stay)/detours", [("version", try version(stay))])
        let detour = "\(Self.stay)/detours/4"
        let page = body(try await site.respond(to: request(.get, detour)))
        let before = try trip(store)
        let refused = try await post(
            site, "\(detour)/tasks",
            [("version", try version(page)), ("left-name", ""), ("left-duration", "soon"), ("left-cost", "12.50")])
        #expect(refused.status == .unprocessableContent)
        let text = body(refused)
        for field in ["left-name", "left-duration", "left-cost"] {
            #expect(text.contains("<span class=\"problem\" id=\"\(field)-problem\">"), "\(field): \(text)")
            #expect(text.contains("aria-describedby=\"\(field)-problem"), "\(field)")
        }
        #expect(text.contains("value=\"soon\""), "what was typed is kept")
        #expect(try trip(store) == before)
        // Left without Save, nothing of it stays: the page opened again has empty fields.
        let again = body(try await site.respond(to: request(.get, detour)))
        #expect(!again.contains("value=\"soon\"") && !again.contains("problem\" id="))
    }

    /// Pros and cons are added and deleted on a saved task; a blank one is refused at its field.
    @Test func prosAndConsAreAddedAndDeleted() async throws {
        let store = try store()
        let site = try site(store)
        let detour = "\(Self.stay)/detours/1"
        var page = body(try await site.respond(to: request(.get, detour)))
        #expect(page.contains("<h1>Ride Tram 28 or Walk the Alfama</h1>"))
        #expect(editing(page) == 0)
        let added = try await post(site, "\(detour)/tasks/2", [("version", try version(page)), ("right-pro", "Views")])
        #expect(added.status == .seeOther)
        page = body(try await site.respond(to: request(.get, detour)))
        let con = try await post(
            site, "\(detour)/tasks/1", [("version", try version(page)), ("left-con", "Pickpockets")])
        #expect(con.status == .seeOther)
        var tasks = try trip(store).destinations[0].detours[0].tasks
        #expect(tasks[1].pros.last == "Views")
        #expect(tasks[0].cons == ["Crowded", "Pickpockets"])
        page = body(try await site.respond(to: request(.get, detour)))
        #expect(page.contains("<li>Pickpockets <form method=\"post\" action=\"\(detour)/tasks/1\" class=\"inline\">"))
        let deleted = try await post(site, "\(detour)/tasks/1", [("version", try version(page)), ("delete-con", "0")])
        #expect(deleted.status == .seeOther)
        tasks = try trip(store).destinations[0].detours[0].tasks
        #expect(tasks[0].cons == ["Pickpockets"])
        page = body(try await site.respond(to: request(.get, detour)))
        let blank = try await post(site, "\(detour)/tasks/1", [("version", try version(page)), ("left-pro", "  ")])
        #expect(blank.status == .unprocessableContent)
        #expect(body(blank).contains("<span class=\"problem\" id=\"left-pro-problem\">"), "\(body(blank))")
    }

    /// A change is saved when the changed trip is at the server's input limit, and refused (413,
    /// nothing written) one byte past it: a file the server would not read could not be changed
    /// again from its pages.
    @Test func aChangeThatWouldPassTheInputLimitIsRefused() async throws {
        let store = try store()
        let file = try #require(TripFile(fileName: "lisbon.json"))
        let original = try #require(store.state.withLock { $0.files[file] })
        // The size of the trip with a pro of `letters` letters, as the page's post would write it.
        func size(_ letters: Int) throws -> Int {
            let edit = TripEdit.addNote(stay: 0, detour: 0, side: 0, .pro, String(repeating: "x", count: letters))
            guard case .changed(_, let bytes) = TripEditing.apply(edit, to: original, format: .json).outcome else {
                throw CancellationError()
            }
            return bytes.count
        }
        // The limit is the size with a pro of `letters` letters, and the sample fits under it.
        let letters = max(20, 20 + original.count - (try size(20)))
        let limit = try size(letters)
        #expect(try size(letters + 1) == limit + 1)
        var settings = try site(store).settings
        settings.maxInputBytes = limit
        let site = DrivenSite(settings: settings, store: store)
        let detour = "\(Self.stay)/detours/1"
        var page = body(try await site.respond(to: request(.get, detour)))
        let past = try await post(
            site, "\(detour)/tasks/1",
            [("version", try version(page)), ("left-pro", String(repeating: "x", count: letters + 1))])
        #expect(past.status == .contentTooLarge)
        #expect(body(past).contains("past the server&#39;s input limit of \(limit)"), "\(body(past))")
        #expect(store.state.withLock { $0.files[file] } == original)
        page = body(try await site.respond(to: request(.get, detour)))
        let at = try await post(
            site, "\(detour)/tasks/1",
            [("version", try version(page)), ("left-pro", String(repeating: "x", count: letters))])
        #expect(at.status == .seeOther)
        #expect(store.state.withLock { $0.files[file]?.count } == limit)
    }

    /// Nothing of a saved task but its pros and cons can be changed: the server refuses any other
    /// field, not only the page; and a side with no task has no such form.
    @Test(arguments: ["left-name", "name", "duration", "cost", "lat"])
    func aSavedTasksOtherFieldsAreRefused(field: String) async throws {
        let store = try store()
        let site = try site(store)
        let detour = "\(Self.stay)/detours/1"
        let page = body(try await site.respond(to: request(.get, detour)))
        let before = try trip(store)
        let response = try await post(site, "\(detour)/tasks/1", [("version", try version(page)), (field, "X")])
        #expect(response.status == .unprocessableContent)
        #expect(body(response).contains("cannot be changed, only its pros and cons"))
        #expect(try trip(store) == before)
        #expect(
            try await post(site, "\(detour)/tasks/3", [("version", try version(page)), ("left-pro", "x")]).status
                == .notFound)
    }

    /// A post from a page made of an older version of the file is not made: the page is shown as
    /// the trip is now, saying why, with what was typed kept.
    @Test func aPostFromAnOlderVersionIsRefusedAndTheTypedTextKept() async throws {
        let store = try store()
        let site = try site(store)
        let detour = "\(Self.stay)/detours/1"
        let page = body(try await site.respond(to: request(.get, detour)))
        var changed = try trip(store)
        changed.destinations[0].detours[0].tasks[0].pros.append("Edited by hand")
        let file = try #require(TripFile(fileName: "lisbon.json"))
        store.state.withLock { $0.files[file] = Array(TripJSONWriter.write(changed).utf8) }
        let response = try await post(
            site, "\(detour)/tasks/1", [("version", try version(page)), ("left-pro", "Cheap")])
        #expect(response.status == .preconditionFailed)
        let text = body(response)
        #expect(text.contains("This trip changed since the page was opened"))
        #expect(text.contains("<li>Edited by hand"), "the page shows the trip as it is now")
        #expect(text.contains("value=\"Cheap\""), "what was typed is kept")
        #expect(try trip(store) == changed, "nothing is overwritten")
    }

    /// A delete is asked once more, then made; a destination's detours go with it.
    @Test func aDetourAndADestinationAreDeletedAfterAskingOnceMore() async throws {
        let store = try store()
        let site = try site(store)
        let detour = "\(Self.stay)/detours/2"
        let ask = body(try await site.respond(to: request(.get, "\(detour)/delete")))
        #expect(ask.contains("<h1>Delete the detour “Jerónimos Monastery or Oceanário de Lisboa”?</h1>"))
        #expect(try trip(store).destinations[0].detours.count == 3, "asking deletes nothing")
        let gone = try await post(site, "\(detour)/delete", [("version", try version(ask))])
        #expect(gone.status == .seeOther && gone.headers[.location] == Self.stay)
        #expect(
            try trip(store).destinations[0].detours.map(\.title) == [
                "Ride Tram 28 or Walk the Alfama", "Day trip to Sintra and Pena Palace or Coast train to Cascais",
            ])
        let stale = try await post(site, "\(Self.stay)/delete", [("version", try version(ask))])
        #expect(stale.status == .preconditionFailed, "made of the version before the detour went")
        let askStay = body(try await site.respond(to: request(.get, "\(Self.stay)/delete")))
        #expect(askStay.contains("<h1>Delete the destination “Lisbon”?</h1>"))
        let stayGone = try await post(site, "\(Self.stay)/delete", [("version", try version(askStay))])
        #expect(stayGone.headers[.location] == "/")
        #expect(try trip(store).destinations.isEmpty)
        #expect(try await site.respond(to: request(.get, Self.stay)).status == .notFound)
    }
}
