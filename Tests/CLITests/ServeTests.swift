import DetourTestSupport
import Foundation
import Testing

/// `detour-report serve`, the real binary on a free port, driven by curl: every route, media
/// types, entity tags, byte identity with `render`, names, the security checks, and writes.
@Suite(.enabled(if: CI.runs(whenAvailable: Curl.isAvailable), "needs curl"))
struct ServeTests {
    let scratch: ScratchFolder
    let folder: URL

    init() throws {
        scratch = try ScratchFolder("detour-serve")
        folder = scratch.url.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Copies the JSON samples (or, with `gpx`, the GPX ones) into the served folder.
    func copySamples(_ ext: String = "json") throws -> [String] {
        let names = Fixtures.sampleTrips(extension: ext)
        for name in names {
            try FileManager.default.copyItem(
                at: Fixtures.sampleURL(name), to: folder.appendingPathComponent(name))
        }
        return names.map { String($0.dropLast(ext.count + 1)) }
    }

    /// A server of the samples and of `broken.json`, a trip that is not valid.
    func serveSamplesAndABrokenTrip() throws -> ServerProcess {
        _ = try copySamples()
        try Data("{\"title\": 3}".utf8).write(to: folder.appendingPathComponent("broken.json"))
        return try ServerProcess(folder: folder)
    }

    func trip(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    // MARK: - Pages and formats

    static let formats: [(option: String, ext: String, type: String)] = [
        ("html", "html", "text/html; charset=utf-8"), ("markdown", "md", "text/markdown; charset=utf-8"),
        ("json", "json", "application/json"), ("ics", "ics", "text/calendar; charset=utf-8"),
        ("geojson", "geojson", "application/geo+json"), ("gpx", "gpx", "application/gpx+xml"),
    ]

    /// The server raises its limit on open files to the hard limit at start: each connection
    /// takes one, and the cap on connections is sized by it.
    @Test func theOpenFileLimitIsRaisedToItsHardLimit() throws {
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = limit.rlim_max == rlim_t.max ? "unlimited" : String(limit.rlim_max)
        let folder = try ScratchFolder("detour-serve-limit")
        let server = try ServerProcess(folder: folder.url, launcher: ["/usr/bin/prlimit", "--nofile=64:\(hard)"])
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count == 6, "\(line)")
        #expect(fields[3] == fields[4], "soft and hard: \(line)")
        #expect(String(fields[4]) == hard)
    }

    /// A `Lisbon.JSON` is not served, as a batch run does not read it, and the server says so
    /// at start, naming the file and the name to give it.
    @Test func aTripExtensionInAnotherCaseIsNamedAtStart() throws {
        let folder = try ScratchFolder("detour-serve-case")
        let lisbon = try Data(contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"))
        try lisbon.write(to: folder.url.appendingPathComponent("Lisbon.JSON"))
        let server = try ServerProcess(folder: folder.url)
        let warning =
            "\(folder.url.path)/Lisbon.JSON: warning: not served: a trip file in a folder ends in \".json\" or \".gpx\" in lower case; rename it \"Lisbon.json\" [trip-extension-case]"
        #expect(server.waitForError(containing: warning), "\(server.stderr)")
        #expect(try Curl.request("\(server.base)/trips/Lisbon.html").status == 404)
    }

    @Test(arguments: ["json", "gpx"])
    func everyFormatIsByteForByteWhatRenderWrites(_ input: String) throws {
        let names = try copySamples(input)
        let server = try ServerProcess(folder: folder)
        let cli = try CommandRunner.built()
        for name in names {
            for format in Self.formats {
                let reply = try Curl.request("\(server.base)/trips/\(name).\(format.ext)")
                let rendered = try cli.run(
                    ["\(name).\(input)", "--format", format.option, "--today", "2026-11-24"], directory: folder)
                if rendered.status == 65 {
                    #expect(reply.status == 422, "\(name).\(format.ext)")
                    continue
                }
                #expect(reply.status == 200, "\(name).\(format.ext): \(reply.text)")
                #expect(reply.header("content-type") == format.type, "\(name).\(format.ext)")
                #expect(reply.body == rendered.stdout, "\(name).\(format.ext) differs from render's output")
            }
        }
    }

    @Test func anOutputHasAStrongEntityTagAndA304() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let url = "\(server.base)/trips/lisbon-city-break.ics"
        let first = try Curl.request(url)
        let etag = try first.header("etag").orThrow("no ETag")
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        #expect(first.text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n"))
        #expect(first.text.contains("X-PUBLISHED-TTL:PT1H\r\n"))
        let again = try Curl.request(url, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("etag") == etag)
        let weak = try Curl.request(url, headers: ["If-None-Match": "\"other\", W/\(etag)"])
        #expect(weak.status == 304, "If-None-Match compares weakly")
        #expect(try Curl.request(url, headers: ["If-None-Match": "\"other\""]).status == 200)
        // An edit on disk changes the tag, whatever its modification time and size.
        var bytes = try trip("lisbon-city-break.json")
        let at = try bytes.firstIndex(of: UInt8(ascii: "L")).orThrow("no L")
        bytes[at] = UInt8(ascii: "l")
        try bytes.write(to: folder.appendingPathComponent("lisbon-city-break.json"))
        let changed = try Curl.request(url, headers: ["If-None-Match": etag])
        #expect(changed.status == 200)
        #expect(changed.header("etag") != etag)
    }

    @Test func theCalendarHasEveryValidTripAndAnswers304() throws {
        let server = try serveSamplesAndABrokenTrip()
        let feed = try Curl.request("\(server.base)/calendar.ics")
        #expect(feed.status == 200)
        #expect(feed.header("content-type") == "text/calendar; charset=utf-8")
        #expect(feed.text.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(feed.text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n"))
        // Every event of every valid trip's own calendar is in it.
        for name in Fixtures.sampleTrips() {
            let own = try Curl.request("\(server.base)/trips/\(name.dropLast(5)).ics")
            for uid in own.text.split(separator: "\r\n") where uid.hasPrefix("UID:") {
                #expect(feed.text.contains(uid), "\(name): \(uid)")
            }
        }
        let etag = try feed.header("etag").orThrow("no ETag")
        #expect(try Curl.request("\(server.base)/calendar.ics", headers: ["If-None-Match": etag]).status == 304)
    }

    @Test func theIndexListsEveryTripWithItsStatusAndLinks() throws {
        let server = try serveSamplesAndABrokenTrip()
        let page = try Curl.request("\(server.base)/trips")
        #expect(page.status == 200)
        #expect(page.header("content-type") == "text/html; charset=utf-8")
        #expect(page.text.contains("href=\"trips/lisbon-city-break.html\""))
        #expect(page.text.contains("href=\"trips/lisbon-city-break\""))
        #expect(page.text.contains("href=\"webcal://127.0.0.1:\(server.port)/trips/lisbon-city-break.ics\""))
        #expect(page.text.contains("href=\"http://127.0.0.1:\(server.port)/trips/lisbon-city-break.ics\""))
        #expect(page.text.contains("status invalid"))
        #expect(page.text.contains("[missing-field]"), "the first error is shown")
    }

    /// A preview leads back to the index and offers every format of the trip, each a route that
    /// answers with the file.
    @Test func aPreviewLinksToTheIndexAndEveryFormat() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let page = try Curl.request("\(server.base)/trips/lisbon-city-break")
        #expect(page.status == 200)
        #expect(page.text.contains("<a href=\"/\">← Destinations</a> · <a href=\"/trips\">All trips</a>"))
        for format in Self.formats {
            let href = "/trips/lisbon-city-break.\(format.ext)"
            #expect(page.text.contains("<a href=\"\(href)\" download>"), "\(href)")
            #expect(try Curl.request("\(server.base)\(href)").status == 200, "\(href)")
        }
        // On paper the bar is hidden: a printed preview is the report.
        #expect(page.text.contains("@media print { nav.preview-bar { display: none; } }"))
        // The format itself is the report as render writes it, without the bar.
        #expect(!(try Curl.request("\(server.base)/trips/lisbon-city-break.html").text.contains("preview-bar")))
    }

    @Test func aPreviewCarriesItsScriptAndPolicyButTheHTMLFormatDoesNot() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let preview = try Curl.request("\(server.base)/trips/lisbon-city-break")
        #expect(preview.status == 200)
        let policy = try preview.header("content-security-policy").orThrow("no policy")
        let nonce = try #require(policy.split(separator: "'").first { $0.hasPrefix("nonce-") }).dropFirst(6)
        #expect(policy.contains("connect-src 'self'"))
        #expect(preview.text.contains("<script nonce=\"\(nonce)\">"))
        #expect(preview.text.contains("script-src 'nonce-\(nonce)'"), "the page's own policy allows the script")
        #expect(preview.text.contains("/trips/lisbon-city-break/events"))
        let report = try Curl.request("\(server.base)/trips/lisbon-city-break.html")
        #expect(!report.text.contains("<script"))
        // The report's own policy is in its <meta> tag; the header only forbids framing it.
        #expect(report.header("content-security-policy") == "frame-ancestors 'none'")
    }

    @Test func anInvalidTripsPreviewListsItsDiagnosticsLinkedToTheirDocs() throws {
        try Data("{\n  \"title\": 3\n}\n".utf8).write(to: folder.appendingPathComponent("broken.json"))
        let server = try ServerProcess(folder: folder)
        let page = try Curl.request("\(server.base)/trips/broken")
        #expect(page.status == 200)
        #expect(page.text.contains("broken.json:2:12"))
        #expect(page.text.contains("<a href=\"/docs/diagnostics/wrong-type\">wrong-type</a>"))
        #expect(page.text.contains("must be a string, not a number"))
        #expect(page.text.contains("<a href=\"/\">← Destinations</a> · <a href=\"/trips\">All trips</a>"))
        let docs = try Curl.request("\(server.base)/docs/diagnostics/wrong-type")
        #expect(docs.status == 200)
        // The section as HTML: its heading, paragraphs, code blocks and table, no Markdown left.
        #expect(docs.text.contains("<h1><code>wrong-type</code></h1>"))
        #expect(docs.text.contains("<p><strong>Severity:</strong> error</p>"))
        #expect(docs.text.contains("<pre><code>trip.json:2:42: error: destinations[0].location.lat: must be a number"))
        #expect(docs.text.contains("<thead><tr><th>written</th><th>message ends</th></tr></thead>"))
        #expect(docs.text.contains("<a href=\"/\">← Destinations</a> · <a href=\"/trips\">All trips</a>"))
        for markdown in ["```", "**", "| --- |", "<pre>wrong-type"] {
            #expect(!docs.text.contains(markdown), "\(markdown) is left in the page")
        }
        #expect(try Curl.request("\(server.base)/docs/diagnostics/no-such-code").status == 404)
        let report = try Curl.request("\(server.base)/trips/broken.html")
        #expect(report.status == 422)
        #expect(report.text.contains("\"code\":\"wrong-type\""))
    }

    @Test(arguments: [[], ["--poll", "0.2"]])
    func theLiveReloadStreamSendsTheVersionThenEachChangeOnce(_ watch: [String]) throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, arguments: watch)
        let etag = try Curl.request("\(server.base)/api/v1/trips/nordic-budget").header("etag").orThrow("no tag")
        let listener = try RawConnection(port: server.port)
        try listener.send(Data("GET /trips/nordic-budget/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        // The stream is open once the current version has come.
        #expect(Self.versions(listener.receive(until: "data: ", count: 1)) == [etag])
        // A save as vim makes it: a probe file, a backup, a new file renamed over the old.
        var bytes = try trip("nordic-budget.json")
        bytes.append(contentsOf: Array(" \n".utf8))
        try Data().write(to: folder.appendingPathComponent("4913"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("4913"))
        try bytes.write(to: folder.appendingPathComponent(".nordic-budget.json.swp"))
        try bytes.write(to: folder.appendingPathComponent("nordic-budget.json.new"))
        #expect(
            rename(
                folder.appendingPathComponent("nordic-budget.json.new").path,
                folder.appendingPathComponent("nordic-budget.json").path) == 0)
        // A page opened at once, before the watch has told of the save, is not sent the saved
        // version twice: once it has it, the watch's word of the save sends nothing. (It may
        // start from the version before, when its request comes before the kernel's event has
        // been read: then the save is sent to it as to the others.)
        let opened = try RawConnection(port: server.port)
        try opened.send(Data("GET /trips/nordic-budget/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let saved = Self.versions(listener.receive(until: "data: ", count: 2))
        #expect(saved.count == 2 && saved[1] != etag)
        // A second save marks the end: the first was sent once if the next version is the second's.
        bytes.append(contentsOf: Array(" \n".utf8))
        try bytes.write(to: folder.appendingPathComponent("nordic-budget.json"))
        let versions = Self.versions(listener.receive(until: "data: ", count: 3))
        #expect(versions.count == 3 && Set(versions).count == 3, "\(versions)")
        let seen = Self.versions(opened.receive { Self.versions($0).last == versions.last })
        #expect(seen.last == versions.last && seen.contains(saved[1]), "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "a version sent twice: \(seen)")
        listener.close()
        opened.close()
    }

    /// A format asked for again on one connection is the same answer, but for its `Date`.
    ///
    /// No field of the server's own is in it, and an edit on disk is in the next answer as soon
    /// as the live-reload stream tells of it. With the watch the answer is repeated from the event loop;
    /// with `--poll` it never is. Either way a reader sees the same.
    @Test(arguments: [[], ["--poll", "0.2"]])
    func aFormatAskedForAgainIsTheSameAnswerUntilItsTripChanges(_ watch: [String]) throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, arguments: watch)
        let reader = try RawConnection(port: server.port)
        let get = Data("GET /trips/lisbon-city-break.md HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: t\r\n\r\n".utf8)
        func answers(_ count: Int) throws -> [(head: String, body: String)] {
            try reader.send(get)
            let all = Self.answers(reader.receive { Self.answers($0).count >= count })
            #expect(all.count == count)
            return all
        }
        let first = try answers(1)[0]
        let again = try answers(2)[1]
        let withoutDate = { (head: String) in head.split(separator: "\r\n").filter { !$0.hasPrefix("Date: ") } }
        #expect(withoutDate(again.head) == withoutDate(first.head) && again.body == first.body)
        #expect(!(first.head + again.head).lowercased().contains("detour-replay"))
        #expect(!again.head.contains(" 1970 "), "dated by the system's clock")
        // A connection whose first request carried another field has its answers repeated after
        // the codec (`ResponseReplay`), not from the bytes (`WireReplay`): the same answer.
        let other = try RawConnection(port: server.port)
        try other.send(Data("GET /trips/lisbon-city-break.md HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Other: 1\r\n\r\n".utf8))
        _ = other.receive { Self.answers($0).count >= 1 }
        try other.send(get)
        let typed = Self.answers(other.receive { Self.answers($0).count >= 2 })
        #expect(
            typed.count == 2 && withoutDate(typed[1].head) == withoutDate(again.head) && typed[1].body == again.body)
        other.close()

        let listener = try RawConnection(port: server.port)
        try listener.send(Data("GET /trips/lisbon-city-break/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        _ = listener.receive(until: "data: ", count: 1)
        var bytes = try trip("lisbon-city-break.json")
        let at = try bytes.firstIndex(of: UInt8(ascii: "L")).orThrow("no L")
        bytes[at] = UInt8(ascii: "l")
        try bytes.write(to: folder.appendingPathComponent("lisbon-city-break.json"))
        _ = listener.receive(until: "data: ", count: 2)
        let edited = try answers(3)[2]
        #expect(edited.body != first.body && edited.body.contains("lisbon in December"), "\(edited.body.prefix(80))")
        listener.close()
        reader.close()
    }

    /// The answers in `text`, each with a `Content-Length`: heads and bodies, complete ones only.
    static func answers(_ text: String) -> [(head: String, body: String)] {
        var found: [(head: String, body: String)] = []
        var rest = Substring(text)
        while let end = rest.range(of: "\r\n\r\n") {
            let head = rest[..<end.lowerBound]
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length: ") }
                .flatMap { Int($0.dropFirst(16)) } ?? 0
            let body = rest[end.upperBound...].utf8
            guard body.count >= length else { break }
            let bodyEnd = body.index(body.startIndex, offsetBy: length)
            found.append((String(head), String(decoding: body[..<bodyEnd], as: UTF8.self)))
            rest = Substring(body[bodyEnd...])
        }
        return found
    }

    /// The versions a live-reload stream sent, from its `data:` lines.
    static func versions(_ text: String) -> [String] {
        // Chunked: each event stands in its chunk, between sizes on lines of their own.
        text.replacingOccurrences(of: "\r", with: "").split(separator: "\n").filter { $0.hasPrefix("data: ") }
            .map { String($0.dropFirst(6)) }
    }

    // MARK: - Names

    @Test func everySpellingOfAPathOutsideTheFolderIsRefused() throws {
        _ = try copySamples()
        let secret = scratch.url.appendingPathComponent("secret.json")
        try Fixtures.samples.appendingPathComponent("nordic-budget.json").path.write(
            to: secret, atomically: true, encoding: .utf8)
        let server = try ServerProcess(folder: folder)
        for path in [
            "/trips/..", "/trips/%2e%2e", "/trips/%2E%2E", "/trips/%252e%252e", "/trips/..%2fsecret",
            "/trips/%2e%2e%2fsecret", "/trips/..%5csecret", "/trips/.hidden", "/trips/a%00b", "/api/v1/trips/..",
            "/api/v1/trips/%2e%2e%2fsecret", "/api/v1/trips/.%2e", "/trips/../secret.json", "/trips/..%2fsecret.json",
            "/api/v1/trips/%2e%2e%2f..%2f..%2fetc%2fpasswd",
        ] {
            let reply = try Curl.request(server.base + path)
            #expect([400, 404].contains(reply.status), "\(path): \(reply.status)")
            #expect(!reply.text.contains(scratch.url.path), "\(path) names a path")
        }
        let put = try Curl.request(
            "\(server.base)/api/v1/trips/%2e%2e%2fsecret", method: "PUT",
            headers: ["Content-Type": "application/json", "If-None-Match": "*"], body: try trip("nordic-budget.json"))
        #expect(put.status == 400)
    }

    /// A write cut off by a crash on a file system without unnamed files leaves `.NAME.json.XXXXXX`;
    /// the next start removes it before it listens.
    @Test func theNextStartRemovesWhatACrashedWriteLeft() throws {
        let leftover = folder.appendingPathComponent(".big.json.Q7xK2p")
        try Data("{\"title\": \"half".utf8).write(to: leftover)
        let server = try ServerProcess(folder: folder)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        server.stop()
    }

    @Test func aLinkOutOfTheFolderIsNeverFollowed() throws {
        let outside = scratch.url.appendingPathComponent("outside.json")
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("nordic-budget.json"), to: outside)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("escape.json"), withDestinationURL: outside)
        try FileManager.default.copyItem(
            at: Fixtures.samples.appendingPathComponent("fiji-date-line.json"),
            to: folder.appendingPathComponent("fiji.json"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("inside.json"),
            withDestinationURL: folder.appendingPathComponent("fiji.json"))
        let server = try ServerProcess(folder: folder)
        #expect(try Curl.request("\(server.base)/trips/escape.html").status == 404)
        #expect(try Curl.request("\(server.base)/api/v1/trips/escape").status == 404)
        #expect(try Curl.request("\(server.base)/trips/inside.html").status == 200, "a link inside is followed")
        let list = try Curl.request("\(server.base)/api/v1/trips")
        #expect(!list.text.contains("escape"))
        // A write to the link's name replaces the link with a file; what it pointed at is untouched.
        let before = try Data(contentsOf: outside)
        let put = try Curl.request(
            "\(server.base)/api/v1/trips/escape", method: "PUT",
            headers: ["Content-Type": "application/json", "If-None-Match": "*"], body: try trip("fiji.json"))
        #expect(put.status == 201)
        #expect(try Data(contentsOf: outside) == before)
    }

    // MARK: - Security defaults

    @Test func aHostThatIsNeitherTheAddressNorLocalhostIsRefused() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        #expect(try Curl.request("\(server.base)/", headers: ["Host": "evil.example"]).status == 421)
        #expect(try Curl.request("\(server.base)/", headers: ["Host": "evil.example:\(server.port)"]).status == 421)
        #expect(try Curl.request("\(server.base)/", headers: ["Host": "localhost:\(server.port)"]).status == 200)
        #expect(try Curl.request("\(server.base)/", headers: ["Host": "127.0.0.1:\(server.port)"]).status == 200)
    }

    @Test func aWriteFromAnotherSiteIsRefused() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let body = try trip("nordic-budget.json")
        let refused = try Curl.request(
            "\(server.base)/api/v1/trips/copy", method: "PUT",
            headers: ["Content-Type": "application/json", "If-None-Match": "*", "Origin": "http://evil.example"],
            body: body)
        #expect(refused.status == 403)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.json").path))
        let same = try Curl.request(
            "\(server.base)/api/v1/trips/copy", method: "PUT",
            headers: [
                "Content-Type": "application/json", "If-None-Match": "*", "Origin": "http://127.0.0.1:\(server.port)",
            ], body: body)
        #expect(same.status == 201)
    }

    @Test func aTokenGuardsEveryRouteAndTheLogNeverPrintsIt() throws {
        _ = try copySamples()
        let token = "s3cret-token-0123456789"
        let file = scratch.url.appendingPathComponent("token")
        try "\(token)\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess(folder: folder, arguments: ["--token-file", file.path])
        #expect(try Curl.request("\(server.base)/api/v1/trips").status == 401)
        #expect(
            try Curl.request("\(server.base)/api/v1/trips", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(
            try Curl.request("\(server.base)/api/v1/trips", headers: ["Authorization": "Bearer \(token)"]).status == 200
        )
        #expect(try Curl.request("\(server.base)/").status == 401)
        let feed = try Curl.request("\(server.base)/trips/nordic-budget.ics?token=\(token)")
        #expect(feed.status == 200)
        #expect(feed.header("set-cookie")?.contains("HttpOnly") == true)
        #expect(
            try Curl.request("\(server.base)/", headers: ["Cookie": "detour_report_token=\(token)"]).status == 200)
        // A write takes the bearer token only: not from the query, not from the cookie.
        let body = try trip("nordic-budget.json")
        let byQuery = try Curl.request(
            "\(server.base)/api/v1/trips/copy?token=\(token)", method: "PUT",
            headers: ["Content-Type": "application/json", "If-None-Match": "*"], body: body)
        #expect(byQuery.status == 401)
        let byCookie = try Curl.request(
            "\(server.base)/api/v1/trips/copy", method: "PUT",
            headers: [
                "Content-Type": "application/json", "If-None-Match": "*", "Cookie": "detour_report_token=\(token)",
            ], body: body)
        #expect(byCookie.status == 401)
        server.stop()
        #expect(server.waitForError(containing: "GET /trips/nordic-budget.ics 200"))
        #expect(!server.stderr.contains(token))
    }

    @Test func aNonLoopbackAddressWithoutATokenDoesNotStart() throws {
        let cli = try CommandRunner.built()
        let result = try cli.run(["serve", folder.path, "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--token-file"))
    }

    /// A tile server without its credit, a credit without a tile server, and an address that is
    /// no tile server's: usage errors, before anything starts.
    @Test(arguments: [
        (["--tiles", "https://tile.openstreetmap.org/{z}/{x}/{y}.png"], "needs --tiles-attribution"),
        (["--tiles-attribution", "© OpenStreetMap contributors"], "--tiles-attribution needs --tiles"),
        (["--tiles", "https://tile.example.org/{z}.png", "--tiles-attribution", "Mine"], "{x} is missing"),
    ])
    func tilesThatCannotBeAreAUsageError(arguments: [String], reason: String) throws {
        // Under `timeout`, so a server that started after all cannot hang the suite.
        let timeout = CommandRunner(
            executable: URL(fileURLWithPath: try Tool.path("timeout").orThrow("no timeout")))
        let cli = try CommandRunner.built()
        let result = try timeout.run(["30", cli.executable.path, "serve", folder.path, "--port", "0"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    /// A port another server holds: one line that says so and what to do, code `port-in-use`,
    /// exit 69; run under `timeout` so a server that started after all cannot hang the suite.
    @Test func aPortInUseIsSaidInOneLineWithWhatToDo() throws {
        let first = try ServerProcess(folder: folder)
        defer { _ = first.stop() }
        let timeout = CommandRunner(
            executable: URL(fileURLWithPath: try Tool.path("timeout").orThrow("no timeout")))
        let cli = try CommandRunner.built()
        let second = try timeout.run(["30", cli.executable.path, "serve", folder.path, "--port", "\(first.port)"])
        #expect(second.status == 69)
        #expect(second.stdout.isEmpty)
        #expect(
            second.stderr
                == "detour-report: error: port \(first.port) is in use; choose another with --port, or --port 0 for any free port [port-in-use]\n"
        )
        let json = try timeout.run(
            ["30", cli.executable.path, "serve", folder.path, "--port", "\(first.port)", "--diagnostics", "json"])
        #expect(json.status == 69)
        #expect(json.stderr.contains(#""code":"port-in-use""#))
    }

    @Test func aRequestHeadPastSixteenKibibytesIsRefused() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let within = try Curl.request(
            "\(server.base)/api/v1/trips", headers: ["X-Padding": String(repeating: "a", count: 15_000)])
        #expect(within.status == 200)
        let past = try Curl.request(
            "\(server.base)/api/v1/trips", headers: ["X-Padding": String(repeating: "a", count: 17_000)])
        #expect([400, 431].contains(past.status), "\(past.status)")
        #expect(try Curl.request("\(server.base)/api/v1/trips").status == 200, "the server goes on")
    }

    /// RFC 9112 §3.2.2: an absolute-form target names the request's authority, so one that names
    /// another host than `Host` is refused, and one that names the server's is served.
    @Test func anAbsoluteTargetMustNameTheHost() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        for (target, status) in [
            ("http://evil.example/api/v1/trips", "400"), ("http://127.0.0.1:\(server.port)/api/v1/trips", "200"),
        ] {
            let connection = try RawConnection(port: server.port)
            try connection.send(Data("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8))
            let answer = connection.receive(until: "\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(target): \(answer)")
            connection.close()
        }
    }

    /// `Expect: 100-continue` gets `100 Continue` from the head, and the upload then goes on; a
    /// body declared past the limit gets 413 at once, before a byte of it is sent.
    @Test func anExpectationOfContinueIsAnsweredFromTheHead() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, arguments: ["--max-input-mib", "1"])
        let trip = try Data(contentsOf: Fixtures.samples.appendingPathComponent("fiji-date-line.json"))
        func head(length: Int) -> Data {
            Data(
                ("PUT /api/v1/trips/fiji HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                    + "Content-Type: application/json\r\nIf-None-Match: *\r\nContent-Length: \(length)\r\n"
                    + "Expect: 100-continue\r\n\r\n").utf8)
        }
        let fits = try RawConnection(port: server.port)
        try fits.send(head(length: trip.count))
        #expect(fits.receive(until: "\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n")
        try fits.send(trip)
        #expect(fits.receive(until: "\"etag\"").contains("\r\n\r\nHTTP/1.1 201 Created\r\n"))
        fits.close()
        let tooLarge = try RawConnection(port: server.port)
        try tooLarge.send(head(length: (1 << 20) + 1))
        let refused = tooLarge.receive(until: "}}")
        #expect(refused.hasPrefix("HTTP/1.1 413 "), "\(refused)")
        #expect(refused.contains("\"code\":\"body-too-large\""))
        tooLarge.close()
    }

    /// Open previews cannot take the connections requests need.
    ///
    /// Past 64 streams the next is refused with 503 at once. Connections whose head does not come are closed after 10 s, so
    /// clients that fill every connection without a request hold them no longer.
    @Test func streamsHaveTheirOwnLimitAndSlowHeadsAreCut() throws {
        _ = try copySamples()
        // Every connection from one address here: its share is the whole server's.
        let server = try ServerProcess(folder: folder, arguments: ["--max-connections-per-client", "256"])
        var streams: [RawConnection] = []
        for index in 0...64 {
            let connection = try RawConnection(port: server.port)
            try connection.send(Data("GET /trips/nordic-budget/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let answer = connection.receive(until: "\r\n\r\n")
            #expect(answer.hasPrefix(index < 64 ? "HTTP/1.1 200 " : "HTTP/1.1 503 "), "stream \(index): \(answer)")
            streams.append(connection)
        }
        #expect(try Curl.request("\(server.base)/api/v1/trips", extra: ["--max-time", "20"]).status == 200)
        // Every other connection the server takes, each with half a head.
        var slow: [RawConnection] = []
        for _ in 0..<(256 - 65) {
            let connection = try RawConnection(port: server.port)
            try connection.send(Data("GET /api/v1/trips HTTP/1.1\r\nHost: 127".utf8))
            slow.append(connection)
        }
        for connection in slow {
            #expect(connection.closesWithoutAnswer(), "closed without an answer")
            connection.close()
        }
        #expect(try Curl.request("\(server.base)/api/v1/trips", extra: ["--max-time", "20"]).status == 200)
        for connection in streams { connection.close() }
    }

    /// One client cannot take every connection: past its share (32 by default) a connection is
    /// closed before a byte is read, and another client is answered while the first holds all
    /// it may, whatever it holds them with (preview streams, idle keep-alives).
    ///
    /// Which 32 of the 300 keep their place depends on the order the server's threads take them
    /// up; how many does not.
    @Test func oneClientHoldsItsShareOfTheConnectionsAndNoMore() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        var held: [RawConnection] = []
        for index in 0..<300 {
            let connection = try RawConnection(port: server.port, from: "127.0.0.3")
            let path = index.isMultiple(of: 2) ? "/trips/nordic-budget/events" : "/api/v1/trips"
            try connection.send(Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            held.append(connection)
        }
        // Each answered, or closed with nothing sent (an empty answer).
        let answers = held.map { $0.receive(until: "\r\n\r\n") }
        #expect(answers.filter { $0.hasPrefix("HTTP/1.1 200 ") }.count == 32)
        #expect(answers.filter(\.isEmpty).count == 268)
        // Another client, while the first holds its 32.
        let other = try Curl.request("\(server.base)/api/v1/trips", extra: ["--max-time", "20"])
        #expect(other.status == 200)
        for connection in held { connection.close() }
        // Its connections closed, the client has its share back, once the server has seen them
        // close (a bounded number of tries, each a whole request).
        var answered = false
        for _ in 0..<50 where !answered {
            let again = try RawConnection(port: server.port, from: "127.0.0.3")
            try again.send(Data("GET /api/v1/trips HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            answered = again.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200 ")
            again.close()
        }
        #expect(answered)
    }

    /// A reader of standard error that stops reading holds up no request: the log is written by a
    /// thread of its own, and what it cannot keep (past a mebibyte waiting) it counts, in a line
    /// written once standard error is read again.
    @Test func aRequestLogNobodyReadsHoldsUpNoRequest() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, readingErrors: false)
        // 200 lines of 8 KiB each: many times what a pipe holds (64 KiB), and more than the log keeps.
        let long = String(repeating: "x", count: 8 << 10)
        var statuses: [String] = []
        // Until one is not answered: a stalled server would leave every later one unanswered too.
        for index in 0..<200 where statuses.allSatisfy({ $0 == "HTTP/1.1 404" }) {
            let connection = try RawConnection(port: server.port)
            let head = "GET /\(long)-\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            try connection.send(Data(head.utf8))
            statuses.append(String(connection.receive(until: "\r\n").prefix(12)))
            connection.close()
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == "HTTP/1.1 404" }, "\(statuses.suffix(2))")
        server.readErrors()
        #expect(server.waitForError(containing: "of the log left out: standard error was not read fast enough"))
        #expect(server.waitForError(containing: "GET /\(long)-0 404 "))
    }

    @Test func readOnlyRefusesEveryWrite() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, arguments: ["--read-only"])
        let etag = try Curl.request("\(server.base)/api/v1/trips/nordic-budget").header("etag").orThrow("no tag")
        let put = try Curl.request(
            "\(server.base)/api/v1/trips/nordic-budget", method: "PUT",
            headers: ["Content-Type": "application/json", "If-Match": etag], body: try trip("fiji-date-line.json"))
        #expect(put.status == 405)
        let delete = try Curl.request(
            "\(server.base)/api/v1/trips/nordic-budget", method: "DELETE", headers: ["If-Match": etag])
        #expect(delete.status == 405)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nordic-budget.json").path))
    }

    // MARK: - The sync API

    @Test func theAPIsPreconditionsAndStatuses() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder, arguments: ["--max-input-mib", "1"])
        let url = "\(server.base)/api/v1/trips/nordic-budget"
        let original = try trip("nordic-budget.json")
        let got = try Curl.request(url)
        #expect(got.status == 200)
        #expect(got.body == original, "the file's bytes as stored")
        #expect(got.header("content-type") == "application/json")
        let etag = try got.header("etag").orThrow("no tag")
        let json = ["Content-Type": "application/json"]
        let replacement = try Data(contentsOf: Fixtures.samples.appendingPathComponent("fiji-date-line.json"))
        #expect(try Curl.request(url, method: "PUT", headers: json, body: replacement).status == 428)
        #expect(
            try Curl.request(
                url, method: "PUT", headers: json.merging(["If-None-Match": "*"]) { $1 }, body: replacement
            )
            .status == 412)
        let stale = try Curl.request(
            url, method: "PUT", headers: json.merging(["If-Match": "\"stale\""]) { $1 }, body: replacement)
        #expect(stale.status == 412)
        #expect(stale.header("etag") == etag, "412 says the current tag")
        let wrongType = try Curl.request(
            url, method: "PUT", headers: ["Content-Type": "text/plain", "If-Match": etag], body: replacement)
        #expect(wrongType.status == 415)
        let invalid = try Curl.request(
            url, method: "PUT", headers: json.merging(["If-Match": etag]) { $1 }, body: Data("{\"title\": 3}".utf8))
        #expect(invalid.status == 422)
        #expect(invalid.text.contains("\"diagnostics\":[{\"severity\":\"error\",\"code\":\"missing-field\""))
        #expect(try trip("nordic-budget.json") == original, "nothing is stored for an invalid trip")
        let large = Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)
        #expect(
            try Curl.request(url, method: "PUT", headers: json.merging(["If-Match": etag]) { $1 }, body: large).status
                == 413)
        // Without a declared length, the body is read until it passes the limit.
        let chunked = json.merging(["If-Match": etag, "Transfer-Encoding": "chunked"]) { $1 }
        let refused = try Curl.request(url, method: "PUT", headers: chunked, body: large)
        #expect(refused.status == 413)
        #expect(refused.text.contains("\"code\":\"body-too-large\""))
        let replaced = try Curl.request(
            url, method: "PUT", headers: json.merging(["If-Match": etag]) { $1 }, body: replacement)
        #expect(replaced.status == 200)
        #expect(try trip("nordic-budget.json") == replacement)
        let newTag = try replaced.header("etag").orThrow("no tag")
        #expect(try Curl.request(url, headers: ["If-None-Match": newTag]).status == 304)
        #expect(try Curl.request(url, method: "DELETE").status == 428)
        #expect(try Curl.request(url, method: "DELETE", headers: ["If-Match": etag]).status == 412)
        #expect(try Curl.request(url, method: "DELETE", headers: ["If-Match": newTag]).status == 204)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nordic-budget.json").path))
        #expect(try Curl.request(url).status == 404)
        let created = try Curl.request(
            url, method: "PUT", headers: json.merging(["If-None-Match": "*"]) { $1 }, body: replacement)
        #expect(created.status == 201)
        // A trip with warnings is stored, and the answer lists them as --diagnostics json does.
        let drafts = try Curl.request(
            "\(server.base)/api/v1/trips/drafts", method: "PUT", headers: json.merging(["If-None-Match": "*"]) { $1 },
            body: try trip("andes-drafts.json"))
        #expect(drafts.status == 201)
        #expect(
            drafts.text.contains("\"warnings\":[{\"severity\":\"warning\",\"code\":\"draft-detour\""),
            "\(drafts.text)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(".nordic")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aTripCanBePutAsGPXAndReplacesItsJSONFile() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let url = "\(server.base)/api/v1/trips/nordic-budget"
        let etag = try Curl.request(url).header("etag").orThrow("no tag")
        let gpx = try Data(contentsOf: Fixtures.sampleURL("nordic-budget.gpx"))
        let put = try Curl.request(
            url, method: "PUT", headers: ["Content-Type": "application/gpx+xml", "If-Match": etag], body: gpx)
        #expect(put.status == 200)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nordic-budget.json").path))
        #expect(try trip("nordic-budget.gpx") == gpx)
        #expect(try Curl.request(url).header("content-type") == "application/gpx+xml")
    }

    @Test func ofFiftyWritesWithTheSameIfMatchExactlyOneWins() throws {
        _ = try copySamples()
        // Fifty writers from one address at once: more than a client's share of connections.
        let server = try ServerProcess(folder: folder, arguments: ["--max-connections-per-client", "64"])
        let url = "\(server.base)/api/v1/trips/nordic-budget"
        let etag = try Curl.request(url).header("etag").orThrow("no tag")
        let original = try trip("nordic-budget.json")
        let bodies = scratch.url.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let curl = URL(fileURLWithPath: try Tool.path("curl").orThrow("no curl"))
        var writers: [(Process, URL)] = []
        for index in 0..<50 {
            // Each writer's trip differs: its title says which writer it is.
            let text = String(decoding: original, as: UTF8.self).replacingOccurrences(
                of: "\"title\": \"", with: "\"title\": \"writer \(index) ")
            try Data(text.utf8).write(to: bodies.appendingPathComponent("\(index).json"))
            let status = bodies.appendingPathComponent("\(index).status")
            let writer = Process()
            writer.executableURL = curl
            writer.arguments = [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Content-Type: application/json",
                "-H", "If-Match: \(etag)", "--data-binary", "@\(bodies.path)/\(index).json", url,
            ]
            writer.standardOutput = try FileHandle(forWritingTo: status.creatingEmptyFile())
            writers.append((writer, status))
        }
        // Started together, then waited for: the requests overlap on the server.
        for (writer, _) in writers { try writer.run() }
        var lines: [String] = []
        for (index, (writer, status)) in writers.enumerated() {
            writer.waitUntilExit()
            lines.append("\(try String(contentsOf: status, encoding: .utf8)) \(index)")
        }
        let statuses = lines.map { $0.split(separator: " ")[0] }
        #expect(lines.count == 50)
        #expect(statuses.filter { $0 == "200" }.count == 1, "\(lines)")
        #expect(statuses.filter { $0 == "412" }.count == 49, "\(lines)")
        let winner = try #require(lines.first { $0.hasPrefix("200 ") }).split(separator: " ")[1]
        #expect(try trip("nordic-budget.json") == Data(contentsOf: bodies.appendingPathComponent("\(winner).json")))
    }

    @Test func aClientThatDisconnectsMidUploadStoresNothing() throws {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let original = try trip("nordic-budget.json")
        let etag = try Curl.request("\(server.base)/api/v1/trips/nordic-budget").header("etag").orThrow("no tag")
        let socket = try RawConnection(port: server.port)
        let head = """
            PUT /api/v1/trips/nordic-budget HTTP/1.1\r
            Host: 127.0.0.1:\(server.port)\r
            Content-Type: application/json\r
            If-Match: \(etag)\r
            Content-Length: \(original.count)\r
            \r

            """
        try socket.send(Data(head.utf8) + original.prefix(original.count / 2))
        socket.close()
        #expect(server.waitForError(containing: "PUT /api/v1/trips/nordic-budget 400 "), "the cut is logged")
        #expect(try trip("nordic-budget.json") == original)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0.hasPrefix(".nordic") }.isEmpty, "\(names)")
        // The server is still there.
        #expect(try Curl.request("\(server.base)/api/v1/trips/nordic-budget").status == 200)
    }

    @Test func aServerKilledDuringALargeWriteLeavesTheOldFileWhole() throws {
        _ = try copySamples()
        let original = try trip("nordic-budget.json")
        // A valid trip of 12 MB: the same trip with white space at its end.
        var large = original
        large.append(Data(repeating: UInt8(ascii: " "), count: 12 << 20))
        // Killed with none, half, all but one byte, or all of the body sent: whatever the server
        // has read by then, the trip is the old one or the new one, whole.
        for sent in [0, large.count / 2, large.count - 1, large.count] {
            let server = try ServerProcess(folder: folder)
            let etag = try Curl.request("\(server.base)/api/v1/trips/nordic-budget").header("etag").orThrow("no tag")
            let connection = try RawConnection(port: server.port)
            let head =
                "PUT /api/v1/trips/nordic-budget HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Content-Type: application/json\r\nIf-Match: \(etag)\r\nContent-Length: \(large.count)\r\n\r\n"
            try connection.send(Data(head.utf8) + large.prefix(sent))
            server.stop(signal: SIGKILL)
            connection.close()
            let now = try trip("nordic-budget.json")
            #expect(now == original || now == large, "after \(sent) bytes: \(now.count) bytes")
        }
    }

    /// A format switch is one step to readers: no read is told the name has two files.
    ///
    /// The trip is switched between JSON and GPX 200 times while 2,000 reads of it run. Each side
    /// is one curl run (`--next` between the writes), so
    /// the counts bound the test, not a clock.
    @Test func aFormatSwitchIsOneStepToReaders() throws {
        try FileManager.default.copyItem(
            at: Fixtures.sampleURL("nordic-budget.json"), to: folder.appendingPathComponent("switch.json"))
        let server = try ServerProcess(folder: folder)
        let curl = try Tool.path("curl").orThrow("no curl")
        let url = "\(server.base)/api/v1/trips/switch"
        let json = Fixtures.sampleURL("nordic-budget.json").path
        let gpx = Fixtures.sampleURL("nordic-budget.gpx").path
        var writes: [String] = []
        for index in 0..<200 {
            let (file, type) = index % 2 == 0 ? (gpx, "application/gpx+xml") : (json, "application/json")
            if index > 0 { writes.append("--next") }
            writes += [
                "-s", "-o", "/dev/null", "-w", "%{http_code}\n", "-X", "PUT", "-H", "Content-Type: \(type)",
                "-H", "If-Match: *", "--data-binary", "@\(file)", url,
            ]
        }
        // `-o` names the output of one URL: each read has its own.
        let reads = ["-s", "-w", "%{http_code}\n"] + (0..<2_000).flatMap { _ in ["-o", "/dev/null", url] }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: curl)
        writer.arguments = writes
        let written = Pipe()
        writer.standardOutput = written
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: curl)
        reader.arguments = reads
        let read = Pipe()
        reader.standardOutput = read
        try writer.run()
        try reader.run()
        let writeCodes = String(decoding: written.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let readCodes = String(decoding: read.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        writer.waitUntilExit()
        reader.waitUntilExit()
        let writeStatuses = writeCodes.split(separator: "\n")
        let readStatuses = readCodes.split(separator: "\n")
        #expect(writeStatuses.count == 200 && writeStatuses.allSatisfy { $0 == "200" }, "\(Set(writeStatuses))")
        #expect(readStatuses.count == 2_000)
        #expect(readStatuses.filter { $0 == "409" }.count == 0, "\(readStatuses.filter { $0 == "409" }.count) clashes")
        #expect(readStatuses.allSatisfy { $0 == "200" }, "\(Set(readStatuses))")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("switch.") }
        #expect(left == ["switch.json"], "the last write was JSON")
    }

    /// An upload that stalls keeps no stopping server alive past its grace, and is not stored.
    @Test func sigtermEndsAStalledUploadAndStoresNothing() throws {
        let server = try ServerProcess(folder: folder)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(client >= 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        let head =
            "PUT /api/v1/trips/stalled HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nIf-None-Match: *\r\nContent-Length: 100000\r\n\r\n{\"title\": "
        let sent = head.utf8CString.withUnsafeBufferPointer { send(client, $0.baseAddress, $0.count - 1, 0) }
        try #require(sent > 0)
        // The request is under way once the server logs nothing yet and holds the connection:
        // a read of the index on another connection is answered, so the server is serving.
        #expect(try Curl.request("\(server.base)/").status == 200)
        // Bounded here by the stop itself: the grace is 2 s, the idle timeout 60 s.
        let status = server.stop(signal: SIGTERM, timeout: 15)
        #expect(status != nil, "the server waited for the stalled upload")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("stalled.json").path))
    }

    /// A preview's stream whose client has hung up is closed at once, not at the next heartbeat
    /// (10 s) that fails to reach it; a plain request whose client has closed its side after it is
    /// still answered.
    @Test func aStreamWhoseClientHungUpIsClosedAndAPlainAnswerStillGoesOut() throws {
        let (server, stream) = try serverWithAStreamOpen()
        stream.hangUp()
        // Read until the server closes, or 8 s pass without a byte (a heartbeat, every 10 s, may
        // come first); then the connection must be at its end.
        _ = stream.receive(seconds: 8) { _ in false }
        #expect(stream.closesWithoutAnswer(seconds: 0), "the server closed the stream")
        stream.close()
        let plain = try RawConnection(port: server.port)
        try plain.send(Data("GET /trips/nordic-budget.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        plain.hangUp()
        let answer = Self.answers(plain.receive { !Self.answers($0).isEmpty })
        #expect(answer.count == 1 && answer.first?.head.hasPrefix("HTTP/1.1 200 ") == true)
        #expect(answer.first?.body.hasPrefix("{") == true)
        plain.close()
    }

    /// A server on the samples, with nordic-budget's live-reload stream open: its first version
    /// has come.
    func serverWithAStreamOpen() throws -> (ServerProcess, RawConnection) {
        _ = try copySamples()
        let server = try ServerProcess(folder: folder)
        let stream = try RawConnection(port: server.port)
        try stream.send(Data("GET /trips/nordic-budget/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(stream.receive(until: "data: ").contains("data: "), "the stream is open")
        return (server, stream)
    }

    @Test func sigtermStopsTheServerWithinASecondWithAStreamOpen() throws {
        let (server, stream) = try serverWithAStreamOpen()
        // Bounded here by the stop itself: a server that does not stop within a second fails.
        let status = server.stop(signal: SIGTERM, timeout: 1)
        #expect(status == 0)
        stream.close()
    }
}

extension URL {
    /// Creates an empty file here and returns its URL.
    func creatingEmptyFile() -> URL {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}

/// A TCP connection to the server, for what curl will not do (hang up mid-body).
final class RawConnection {
    let descriptor: Int32
    /// What the server has sent so far.
    private var received: [UInt8] = []

    /// A connection to `port` on 127.0.0.1, from the loopback address `source` when given (a
    /// second client on the same machine: all of 127.0.0.0/8 is this machine's).
    init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw ServerError("cannot bind to \(source)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else { throw ServerError("cannot connect to port \(port)") }
    }

    /// Closes the sending side, as a client that has sent all it will: the server reads an end.
    func hangUp() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    func send(_ data: Data) throws {
        let sent = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == data.count else { throw ServerError("short send") }
    }

    /// Everything the server has sent, once `marker` has come `count` times, the connection
    /// closes, or `seconds` pass without a byte (a bound on a broken server, never a wait the
    /// test relies on).
    func receive(until marker: String, count: Int = 1, seconds: Int32 = 20) -> String {
        receive(seconds: seconds) { $0.components(separatedBy: marker).count > count }
    }

    /// Everything the server has sent, once it `satisfies` the test, the connection closes, or
    /// `seconds` pass without a byte.
    func receive(seconds: Int32 = 20, until satisfies: (String) -> Bool) -> String {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !satisfies(String(decoding: received, as: UTF8.self)), poll(&poller, 1, seconds * 1000) > 0 {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let read = recv(descriptor, &chunk, chunk.count, 0)
            guard read > 0 else { break }
            received += chunk.prefix(read)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closes the connection, sending nothing, within `seconds` (a bound on a
    /// broken server, never a wait the test relies on).
    ///
    /// Closed with what was sent still unread, the connection is reset rather than ended: that is
    /// closed without an answer too.
    func closesWithoutAnswer(seconds: Int32 = 20) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, seconds * 1000) > 0 else { return false }
        var byte: UInt8 = 0
        let read = recv(descriptor, &byte, 1, 0)
        return read == 0 || (read < 0 && errno == ECONNRESET)
    }

    func close() {
        Glibc.close(descriptor)
    }
}
