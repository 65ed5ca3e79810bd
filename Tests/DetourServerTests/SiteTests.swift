import DetourBase
import DetourCore
import DetourFiles
import DetourIO
import DetourJob
import DetourRender
import DetourTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import SystemPackage
import Testing

@testable import DetourServer

@Suite struct SiteTests: SiteDriving {
    @Test func aFullDiskAnswers507AndKeepsTheOldTrip() async throws {
        let original = try Fixtures.sample("nordic-budget.json")
        let store = FakeTripStore(["nordic-budget.json": original])
        let site = try site(store)
        let etag = TripLibrary.entityTag(of: original)
        store.state.withLock { $0.diskFull = true }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.ifMatch] = etag
        let replacement = try Fixtures.sample("fiji-date-line.json")
        let response = try await site.respond(
            to: request(.put, "/api/v1/trips/nordic-budget", headers: headers, body: replacement))
        #expect(response.status.code == 507)
        #expect(body(response).contains("\"code\":\"disk-full\""))
        #expect(store.state.withLock { $0.files[TripFile(fileName: "nordic-budget.json")!] } == original)
        store.state.withLock { $0.diskFull = false }
        let retried = try await site.respond(
            to: request(.put, "/api/v1/trips/nordic-budget", headers: headers, body: replacement))
        #expect(retried.status == .ok, "the same request succeeds once there is room")
    }

    /// The server's index says what a served trip is, in the server's words: ready, or has
    /// errors; never a batch run's "written".
    @Test func theIndexSaysReadyOrHasErrors() async throws {
        let store = FakeTripStore([
            "nordic-budget.json": try Fixtures.sample("nordic-budget.json"), "broken.json": Array("{}".utf8),
        ])
        let page = body(try await site(store).respond(to: request(.get, "/trips")))
        #expect(page.contains("<p class=\"summary\">1 ready, 1 with errors, 0 unreadable</p>"), "\(page)")
        #expect(page.contains(">ready</span>"))
        #expect(page.contains(">has errors</span>"))
        #expect(!page.contains(">written<"))
    }

    /// A request reads a trip file on the server's own threads, never on the cooperative thread
    /// it runs on: a read blocks.
    @Test func aTripFileIsReadOnTheServersOwnThreads() async throws {
        let store = FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")])
        let site = try site(store)
        for path in ["/trips/lisbon.html", "/api/v1/trips/lisbon", "/trips/lisbon"] {
            #expect(try await site.respond(to: request(.get, path)).status == .ok, "\(path)")
        }
        let reads = store.state.withLock { $0.readsOnPlainThreads }
        #expect(!reads.isEmpty && reads.allSatisfy { $0 }, "\(reads)")
        #expect(!PlainThread.isCurrent, "a test's own thread is none of them")
    }

    /// The policy lets a format be repeated (``ResponseReplay``) only where it is everyone's.
    ///
    /// That is a format, read without a credential, on a server without accounts and without a
    /// token. The router marks it; on the wire the mark is taken off (`ResponseReplayTests`,
    /// `ServeTests`).
    @Test func onlyAFormatThatIsEveryonesIsMarkedToBeRepeated() async throws {
        let store = FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")])
        let open = try site(store)
        let marked = try await open.respond(to: [
            request(.get, "/trips/lisbon.html"), request(.get, "/trips/lisbon.ics"), request(.head, "/trips/lisbon.md"),
        ])
        #expect(marked.allSatisfy { $0.status == .ok && $0.headers[ResponseReplay.marker] == "1" })
        let unmarked = try await open.respond(to: [
            request(.get, "/trips/lisbon"), request(.get, "/"), request(.get, "/trips"),
            request(.get, "/api/v1/trips/lisbon"),
            request(.get, "/trips/missing.html"),
        ])
        #expect(unmarked.allSatisfy { $0.headers[ResponseReplay.marker] == nil })

        var settings = open.settings
        settings.token = "s3cret-token-for-tests"
        let guarded = DrivenSite(settings: settings, store: store)
        let withToken = try await guarded.respond(to: [
            request(.get, "/trips/lisbon.html", headers: [.authorization: "Bearer s3cret-token-for-tests"]),
            request(.get, "/trips/lisbon.html?token=s3cret-token-for-tests"),
        ])
        #expect(withToken.allSatisfy { $0.status == .ok && $0.headers[ResponseReplay.marker] == nil })
    }

    /// A browser asking for a page is never answered with JSON.
    ///
    /// A refusal is a page that says the same, with the same status and fields. The API keeps its JSON whatever is accepted, and
    /// so does a client that does not ask for HTML.
    @Test func aBrowserIsToldARefusalInAPage() async throws {
        let site = try site(FakeTripStore(["lisbon.json": try Fixtures.sample("lisbon-city-break.json")]))
        let browser: HTTPFields = [.accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
        let missing = try await site.respond(to: request(.get, "/trips/nowhere.html", headers: browser))
        #expect(missing.status == .notFound)
        #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
        let page = body(missing)
        #expect(page.contains("<h1>Not Found</h1>\n<p>no such trip or page</p>\n<p>Code: <code>not-found</code></p>"))
        #expect(page.contains("<a href=\"/\">← Destinations</a> · <a href=\"/trips\">All trips</a>"))
        let refused = try await site.respond(to: request(.patch, "/trips/lisbon.html", headers: browser))
        #expect(refused.status == .methodNotAllowed)
        #expect(refused.headers[.allow] != nil && body(refused).contains("<code>method-not-allowed</code>"))
        for (path, headers) in [("/api/v1/trips/nowhere", browser), ("/trips/nowhere.html", [:] as HTTPFields)] {
            let json = try await site.respond(to: request(.get, path, headers: headers))
            #expect(json.status == .notFound && body(json).hasPrefix("{\"error\":{\"code\":\"not-found\""), "\(path)")
        }
    }

    @Test func aFolderThatCannotBeListedIsAServerErrorThatNamesNoPath() async throws {
        let store = FakeTripStore()
        store.state.withLock { $0.listingFails = true }
        let site = try site(store)
        for path in ["/", "/trips", "/api/v1/trips", "/calendar.ics"] {
            let response = try await site.respond(to: request(.get, path))
            #expect(response.status == .internalServerError, "\(path)")
            #expect(
                body(response)
                    == "{\"error\":{\"code\":\"store-failed\",\"message\":\"the trip folder cannot be used: Permission denied\"}}\n"
            )
        }
    }

    /// Two files under one name (a crash between a format change's two steps, or a person): reads
    /// answer 409 naming both; a PUT whose precondition names either replaces both with one, and
    /// a DELETE removes both, so the API can always repair the name.
    @Test func aNameWithTwoFilesIsAClashForReadsAndResolvedByAWrite() async throws {
        let trip = try Fixtures.sample("nordic-budget.json")
        let gpx = Array("<gpx/>".utf8)
        let store = FakeTripStore(["x.json": trip, "x.gpx": gpx])
        let site = try site(store)
        #expect(try await site.respond(to: request(.get, "/trips/x.html")).status == .conflict)
        let read = try await site.respond(to: request(.get, "/api/v1/trips/x"))
        #expect(read.status == .conflict)
        #expect(body(read).contains("both x.json and x.gpx exist"))
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.ifMatch] = TripLibrary.entityTag(of: Array("stale".utf8))
        let stale = try await site.respond(to: request(.put, "/api/v1/trips/x", headers: headers, body: trip))
        #expect(stale.status == .preconditionFailed)
        #expect(store.state.withLock { $0.writes } == 0)
        headers[.ifMatch] = TripLibrary.entityTag(of: gpx)
        let put = try await site.respond(to: request(.put, "/api/v1/trips/x", headers: headers, body: trip))
        #expect(put.status == .ok)
        #expect(store.state.withLock { $0.files.keys.map(\.fileName) } == ["x.json"])
        #expect(try await site.respond(to: request(.get, "/api/v1/trips/x")).status == .ok)

        store.state.withLock { $0.files[TripFile(name: TripName(decoded: "x")!, format: .gpx)] = gpx }
        var delete = HTTPFields()
        delete[.ifMatch] = TripLibrary.entityTag(of: trip)
        #expect(try await site.respond(to: request(.delete, "/api/v1/trips/x", headers: delete)).status == .noContent)
        #expect(store.state.withLock { $0.files.isEmpty }, "both files go")
    }

    @Test func headAnswersTheLengthWithoutABody() async throws {
        let store = FakeTripStore(["nordic-budget.json": try Fixtures.sample("nordic-budget.json")])
        let site = try site(store)
        let get = try await site.respond(to: request(.get, "/trips/nordic-budget.json"))
        let head = try await site.respond(to: request(.head, "/trips/nordic-budget.json"))
        #expect(head.status == .ok)
        #expect(head.headers[.contentLength] == String(body(get).utf8.count))
        #expect(body(head).isEmpty)
        #expect(head.headers[.eTag] == get.headers[.eTag])
    }

    @Test func aRouteAnswersOnlyItsMethods() async throws {
        let site = try site(FakeTripStore())
        for (method, path, allowed) in [
            (HTTPRequest.Method.post, "/", "GET, HEAD"), (.put, "/calendar.ics", "GET, HEAD"),
            (.delete, "/trips/x", "GET, HEAD"), (.post, "/trips/x/events", "GET"),
            (.post, "/api/v1/trips", "GET, HEAD"), (.post, "/api/v1/trips/x", "GET, HEAD, PUT, DELETE"),
            (.put, "/docs/diagnostics/blank-text", "GET, HEAD"),
        ] {
            let response = try await site.respond(to: request(method, path))
            #expect(response.status == .methodNotAllowed, "\(method) \(path)")
            #expect(response.headers[.allow] == allowed, "\(method) \(path)")
        }
        #expect(try await site.respond(to: request(.get, "/no/such/page")).status == .notFound)
    }

    /// A body declared past the limit is 413 from the head, before a byte of it is read (the
    /// real binary's tests send one without a declared length).
    @Test func aBodyDeclaredPastTheLimitIs413() async throws {
        let site = try site(FakeTripStore())
        let headers: HTTPFields = [
            .contentType: "application/json", .ifNoneMatch: "*", .contentLength: String((1 << 20) + 1),
        ]
        let response = try await site.respond(to: request(.put, "/api/v1/trips/x", headers: headers))
        #expect(response.status == .contentTooLarge)
        #expect(body(response).contains("\"code\":\"body-too-large\""))
    }

    /// Past the stream limit, a preview's stream is refused with 503 and when to try again.
    @Test func aStreamPastTheLimitIs503() async throws {
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames + ReportTemplates.indexNames)
        let settings = ServerSettings(today: { .unixEpoch }, templates: templates, maxStreams: 0)
        let site = DrivenSite(settings: settings, store: FakeTripStore())
        let response = try await site.respond(to: request(.get, "/trips/x/events"))
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "10")
        #expect(body(response).contains("\"code\":\"too-many-streams\""))
    }

    /// A page of the whole folder is made again only when a trip, the day or the address changed.
    @Test func aFolderPageIsMadeAgainOnlyWhenSomethingItShowsChanged() async throws {
        let store = FakeTripStore(["a.json": try Fixtures.sample("nordic-budget.json")])
        let library = try site(store).library
        let made = Mutex(0)
        func page(_ variant: String) async throws -> [UInt8] {
            try await library.listing("index", today: Self.today, variant: variant) { _ in
                made.withLock { $0 += 1 }
                return Array("page \(made.withLock { $0 })".utf8)
            }.bytes
        }
        #expect(try await page("day 1") == Array("page 1".utf8))
        #expect(try await page("day 1") == Array("page 1".utf8), "nothing changed")
        #expect(try await page("day 2") == Array("page 2".utf8), "the day or address changed")
        store.state.withLock { $0.files[TripFile(fileName: "b.json")!] = Array("{}".utf8) }
        #expect(try await page("day 2") == Array("page 3".utf8), "a trip was added")
        store.state.withLock { $0.files[TripFile(fileName: "b.json")!] = Array("[]".utf8) }
        library.forget(TripFile(fileName: "b.json")!)
        #expect(try await page("day 2") == Array("page 4".utf8), "a trip changed")
        #expect(made.withLock { $0 } == 4)
    }

    @Test func aFileOverTheLimitIsRefusedWithoutBeingRendered() async throws {
        let large = Array(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)
        let site = try site(FakeTripStore(["big.json": large]))
        #expect(try await site.respond(to: request(.get, "/trips/big.html")).status == .contentTooLarge)
    }
}

@Suite struct ServerPartsTests {
    @Test func ifMatchComparesStronglyAndIfNoneMatchWeakly() {
        let tag = "\"abc\""
        #expect(EntityTags.matches("*", tag))
        #expect(EntityTags.matches(" \"x\" , \"abc\" ", tag))
        #expect(!EntityTags.matches("W/\"abc\"", tag))
        #expect(EntityTags.matches("W/\"abc\"", tag, weakly: true))
        #expect(!EntityTags.matches("\"abcd\"", tag, weakly: true))
        #expect(!EntityTags.matches("", tag))
    }

    @Test func tokensAreComparedWholeWhateverTheirLengths() {
        #expect(Authenticator.constantTimeEqual("0123456789abcdef", "0123456789abcdef"))
        #expect(!Authenticator.constantTimeEqual("0123456789abcdeX", "0123456789abcdef"))
        #expect(!Authenticator.constantTimeEqual("0123456789abcde", "0123456789abcdef"), "a prefix is no match")
        #expect(!Authenticator.constantTimeEqual("0123456789abcdef0", "0123456789abcdef"), "nor a longer text")
        #expect(!Authenticator.constantTimeEqual("", "0123456789abcdef"))
    }

    @Test func theHostsNameIsReadWithoutItsPort() {
        #expect(HostMiddleware.hostName("localhost:8080") == "localhost")
        #expect(HostMiddleware.hostName("[::1]:8080") == "[::1]")
        #expect(HostMiddleware.hostName("127.0.0.1") == "127.0.0.1")
    }

    @Test func onlyTripFilesWithAllowedNamesAreServed() {
        #expect(TripFile(fileName: "lisbon.json") == TripFile(name: TripName(decoded: "lisbon")!, format: .json))
        #expect(TripFile(fileName: "lisbon.gpx")?.format == .gpx)
        for name in [
            "lisbon.json~", ".lisbon.json.swp", "4913", ".hidden.json", "a b.json", "x.txt", ".json", "lisbon.JSON",
            "lisbon.Gpx", "lisbon.xml",
        ] {
            #expect(TripFile(fileName: name) == nil, "\(name)")
        }
    }

    @Test func aScriptValueCannotEndItsElement() {
        #expect(PreviewPage.jsonString("</script><b>") == "\"\\u003c/script>\\u003cb>\"")
        #expect(PreviewPage.jsonString("a\"b\\c\n\u{2028}") == "\"a\\\"b\\\\c\\n\\u2028\"")
    }

    @Test func thePreviewReplacesThePolicyAndAddsTheScriptBeforeTheBody() {
        let page = Array(
            "<head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\"></head><body>x</body>"
                .utf8)
        let preview = String(
            decoding: PreviewPage.preview(of: page, nonce: "N", version: "\"v\"", events: "/e"), as: UTF8.self)
        #expect(preview.contains("content=\"\(PreviewPage.policy(nonce: "N"))\""))
        #expect(preview.hasSuffix("</script>\n</body>"))
        let bare = String(
            decoding: PreviewPage.preview(of: Array("text".utf8), nonce: "N", version: "v", events: "/e"), as: UTF8.self
        )
        #expect(bare.hasPrefix("text<script nonce=\"N\">"), "a page without a body gets the script at its end")
    }

    @Test func aStreamStartsWithTheCurrentVersionAndEndsWhenTheServerStops() async throws {
        let reload = LiveReload()
        let name = TripName(decoded: "x")!
        let stream = try #require(reload.listen(to: name, current: "one"))
        #expect(reload.hasListeners(name))
        reload.send("two", to: name)
        reload.send("ignored", to: TripName(decoded: "y")!)
        reload.beat()
        reload.closeAll()
        var versions: [String] = []
        for await version in stream { versions.append(version) }
        #expect(versions == ["one", "two", ""], "a heartbeat is an empty version")
        var late: [String] = []
        for await version in try #require(reload.listen(to: name, current: "three")) { late.append(version) }
        #expect(late == ["three"], "a stream opened after the stop ends at once")
        #expect(!reload.hasListeners(name))
    }
}

@Suite struct FolderTripStoreTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("detour-store")
    }

    func store() throws -> FolderTripStore {
        try FolderTripStore(folder: FilePath(scratch.url.path), files: LocalFileStore())
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: scratch.url.appendingPathComponent(name))
    }

    @Test func theListingHoldsTripFilesOnly() throws {
        for name in ["a.json", "b.gpx", ".c.json", "d.json~", "e.txt", "4913", "f g.json"] { try write(name, "{}") }
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
        let outside = try ScratchFolder("detour-outside")
        try Data("{}".utf8).write(to: outside.url.appendingPathComponent("x.json"))
        try FileManager.default.createSymbolicLink(
            at: scratch.url.appendingPathComponent("out.json"),
            withDestinationURL: outside.url.appendingPathComponent("x.json"))
        try FileManager.default.createSymbolicLink(
            at: scratch.url.appendingPathComponent("in.json"),
            withDestinationURL: scratch.url.appendingPathComponent("a.json"))
        let names = try store().list().map(\.fileName).sorted()
        #expect(names == ["a.json", "b.gpx", "in.json"])
    }

    /// `Lisbon.JSON` is not served, as a batch run does not read it, and the server can name it.
    @Test func aTripExtensionInAnotherCaseIsNamed() throws {
        for name in ["a.json", "Lisbon.JSON", "oslo.Gpx", "e.txt"] { try write(name, "{}") }
        let store = try store()
        #expect(try store.list().map(\.fileName) == ["a.json"])
        #expect(store.misspelled().map(\.name) == ["Lisbon.JSON", "oslo.Gpx"])
        #expect(store.misspelled().map(\.renamed) == ["Lisbon.json", "oslo.gpx"])
        try FileManager.default.removeItem(at: scratch.url)
        #expect(store.misspelled().isEmpty, "a folder gone lists nothing")
    }

    @Test func readWriteAndDeleteGoThroughTheFolder() throws {
        let store = try store()
        let file = try #require(TripFile(fileName: "t.json"))
        #expect(store.signature(file) == nil)
        #expect(try store.read(file, limit: 10) == nil)
        try store.withLock { () throws(StoreFailure) in try store.write(Array("12345".utf8), to: file) }
        #expect(try store.read(file, limit: 5) == .bytes(Array("12345".utf8)), "exactly at the limit")
        #expect(try store.read(file, limit: 4) == .tooLarge, "one past it")
        let first = try #require(store.signature(file))
        try store.write(Array("67890".utf8), to: file)
        #expect(store.signature(file) != first, "a rewrite of the same size changes the signature")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter {
            $0.hasPrefix(".t.json")
        }
        #expect(leftovers.isEmpty)
        try store.delete(file)
        #expect(store.signature(file) == nil)
        #expect(throws: StoreFailure.self) { try store.delete(file) }
    }

    @Test func aFolderThatIsNotOneIsRefused() throws {
        try write("plain", "x")
        #expect(throws: StoreFailure.self) {
            try FolderTripStore(
                folder: FilePath(scratch.url.appendingPathComponent("plain").path), files: LocalFileStore())
        }
        #expect(throws: StoreFailure.self) {
            try FolderTripStore(
                folder: FilePath(scratch.url.appendingPathComponent("none").path), files: LocalFileStore())
        }
    }

    @Test func aFullDiskOrQuotaIsFullAndAnythingElseKeepsItsReason() {
        #expect(StoreFailure(FileError(.noSpace)) == .full)
        #expect(StoreFailure(FileError(.diskQuotaExceeded)) == .full)
        #expect(StoreFailure(FileError(.permissionDenied, reason: "nope")) == .failed("nope"))
        #expect(StoreFailure(Delivery.Failure.cutOff(FileError(.noSpace))) == .full, "a write cut off by a full disk")
        #expect(StoreFailure(Delivery.Failure.cannotCreate(FileError(.diskQuotaExceeded))) == .full)
        #expect(
            StoreFailure(Delivery.Failure.cannotCreate(FileError(.isDirectory, reason: "it is a folder")))
                == .failed("it is a folder"))
    }

    @Test func aFileThatGoesBetweenTheLookupAndTheReadIsMissing() throws {
        let store = FakeTripStore()
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames)
        let library = TripLibrary(store: store, settings: ServerSettings(today: { .unixEpoch }, templates: templates))
        let file = try #require(TripFile(fileName: "gone.json"))
        guard case .missing = try library.snapshot(file) else {
            Issue.record("a file that is not there has no snapshot")
            return
        }
        #expect("\(file.name)" == "gone")
    }

    /// A trip is checked on the pool once per version and day; a new version is checked again.
    @Test func aCheckIsKeptForItsVersionAndDay() async throws {
        let store = FakeTripStore()
        let templates = try ReportTemplates.builtIn(ReportTemplates.requiredNames)
        let library = TripLibrary(store: store, settings: ServerSettings(today: { .unixEpoch }, templates: templates))
        let file = try #require(TripFile(fileName: "t.json"))
        let valid = TripSnapshot(file: file, bytes: try Fixtures.sample("nordic-budget.json"))
        let first = await library.check(valid, today: SiteTests.today)
        #expect(first.status == .valid)
        #expect(await library.check(valid, today: SiteTests.today).plan?.today == first.plan?.today)
        let broken = TripSnapshot(file: file, bytes: Array(#"{"title": 3}"#.utf8))
        #expect(await library.check(broken, today: SiteTests.today).status == .invalid, "a new version is checked")
        #expect(await library.check(valid, today: .unixEpoch).status == .valid, "and a new day")
    }
}
