import DetourTestSupport
import Foundation
import Testing

/// `detour-report serve --accounts`, the real binary driven by curl: registration and login,
/// sessions that outlive the process, each account's folder served live, and `detour-report user`
/// on the same database.
@Suite(.enabled(if: CI.runs(whenAvailable: Curl.isAvailable), "needs curl"))
struct ServeAccountsTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("detour-serve-accounts")
    }

    /// POSTs `form` from the server's own origin, with the session `cookie` when given.
    func post(_ server: ServerProcess, _ path: String, _ form: [(String, String)], cookie: String? = nil) throws
        -> Curl.Reply
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Origin": server.base]
        if let cookie { headers["Cookie"] = "detour_session=\(cookie)" }
        return try Curl.request(server.base + path, method: "POST", headers: headers, body: Data(body.utf8))
    }

    func get(_ server: ServerProcess, _ path: String, cookie: String?) throws -> Curl.Reply {
        try Curl.request(
            server.base + path, headers: cookie.map { ["Cookie": "detour_session=\($0)"] } ?? [:])
    }

    /// A preview's event stream at `path`, signed in by `cookie`, open once its first event came.
    func events(_ server: ServerProcess, _ path: String, cookie: String) throws -> RawConnection {
        let listener = try RawConnection(port: server.port)
        try listener.send(
            Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: detour_session=\(cookie)\r\n\r\n".utf8))
        #expect(listener.receive(until: "data: ", count: 1).contains("data: "))
        return listener
    }

    /// Ana and Bo registered on `server`, Ana with the trip `nordic-budget`: their session ids,
    /// Ana's account id and her trip's file.
    func anaWithATripAndBo(_ server: ServerProcess) throws -> (cookies: [String], anaID: String, trip: URL) {
        var cookies: [String] = []
        for email in ["ana@example.org", "bo@example.org"] {
            let registered = try post(
                server, "/register",
                [("email", email), ("password", "correct horse battery"), ("confirm", "correct horse battery")])
            cookies.append(try Self.session(registered).orThrow("no session cookie for \(email)"))
        }
        let anaID = try CommandRunner.built().run(["user", "list", folder.path]).output.split(separator: "\n").first {
            $0.hasPrefix("ana@example.org\t")
        }?.split(separator: "\t").last.map { String($0.dropFirst("accounts/".count).dropLast()) }
        let id = try anaID.orThrow("no account for ana@example.org")
        let trip = folder.appendingPathComponent("accounts/\(id)/nordic-budget.json")
        try FileManager.default.copyItem(at: Fixtures.sampleURL("nordic-budget.json"), to: trip)
        return (cookies, id, trip)
    }

    /// The session id a reply sets.
    static func session(_ reply: Curl.Reply) -> String? {
        reply.header("set-cookie").flatMap { cookie in
            cookie.hasPrefix("detour_session=") ? String(cookie.dropFirst(15).prefix { $0 != ";" }) : nil
        }
    }

    @Test func aSessionOutlivesTheServerAndTheAccountsFolderIsServedLive() throws {
        var server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        #expect(try get(server, "/", cookie: nil).header("location") == "/login")
        let registered = try post(
            server, "/register",
            [("email", "ana@example.org"), ("password", "correct horse battery"), ("confirm", "correct horse battery")])
        #expect(registered.status == 303)
        let cookie = try Self.session(registered).orThrow("no session cookie")
        let accounts = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("accounts").path)
        try #require(accounts.count == 1)
        let trips = folder.appendingPathComponent("accounts/\(accounts[0])")
        try FileManager.default.copyItem(
            at: Fixtures.sampleURL("nordic-budget.json"), to: trips.appendingPathComponent("nordic-budget.json"))
        #expect(try get(server, "/trips/nordic-budget", cookie: cookie).status == 200)
        // The preview's stream, signed in by the cookie, sees a save in the account's folder.
        let listener = try events(server, "/trips/nordic-budget/events", cookie: cookie)
        var bytes = try Data(contentsOf: trips.appendingPathComponent("nordic-budget.json"))
        bytes.append(contentsOf: Array(" \n".utf8))
        try bytes.write(to: trips.appendingPathComponent("nordic-budget.json"))
        #expect(listener.receive(until: "data: ", count: 2).components(separatedBy: "data: ").count == 3)
        listener.close()
        #expect(server.stop() == 0)
        server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        let again = try get(server, "/", cookie: cookie)
        #expect(again.status == 200)
        #expect(again.text.contains("Signed in as <strong>ana@example.org</strong>"))
        #expect(again.text.contains("nordic-budget"))
        let database = try FileManager.default.attributesOfItem(atPath: folder.path + "/.detour/accounts.sqlite")
        #expect((database[.posixPermissions] as? Int) == 0o600)
        _ = server.stop()
    }

    @Test func anAccountMadeByUserAddLogsInWhereRegistrationIsClosed() throws {
        let cli = try CommandRunner.built()
        let added = try cli.run(
            ["user", "add", "ana@example.org", folder.path], stdin: Data("correct horse battery\n".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServerProcess(folder: folder, arguments: ["--accounts", "--registration", "closed"])
        #expect(try get(server, "/register", cookie: nil).status == 403)
        let wrong = try post(server, "/login", [("email", "ana@example.org"), ("password", "not the one!")])
        #expect(wrong.status == 401)
        let login = try post(server, "/login", [("email", "ana@example.org"), ("password", "correct horse battery")])
        #expect(login.status == 303)
        let cookie = try Self.session(login).orThrow("no session cookie")
        #expect(try get(server, "/api/v1/trips", cookie: cookie).status == 200)
        // The server's sessions are the command line's to end.
        let listed = try cli.run(["user", "list", folder.path])
        #expect(listed.output.contains("\t1 session\t"), "\(listed.output)")
        let ended = try cli.run(["user", "end-sessions", "ana@example.org", folder.path])
        #expect(ended.output == "1 session and 0 tokens of ana@example.org ended\n")
        #expect(try cli.run(["user", "list", folder.path]).output.contains("\t0 sessions\t"))
        let audit = try cli.run(["user", "audit", "ana@example.org", folder.path]).output
        #expect(audit.contains("\tlogin-failed\t127.0.0.1\t"))
        #expect(audit.contains("\tlogin\t127.0.0.1\t"))
        _ = server.stop()
    }

    @Test func theAccountOptionsAreCheckedBeforeServing() throws {
        let cli = try CommandRunner.built()
        let token = folder.appendingPathComponent("token")
        try Data("a-token-of-twenty-chars\n".utf8).write(to: token)
        let both = try cli.run(["serve", folder.path, "--accounts", "--token-file", token.path])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--token-file is for a server without accounts"))
        let alone = try cli.run(["serve", folder.path, "--registration", "open"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--registration needs --accounts"))
    }

    /// A server whose PostgreSQL is not there says so and exits before it listens, without the
    /// password the address holds.
    @Test func aServerWhosePostgresIsNotThereSaysSoAndExits() throws {
        let socket = folder.path + "/.s.PGSQL.5432"
        let result = try CommandRunner.built().run([
            "serve", folder.path, "--accounts", "--port", "0", "--database",
            "postgres+uds://ana:secret-word@localhost\(socket)#trips",
        ])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot connect to PostgreSQL"), "\(result.stderr)")
        #expect(result.stderr.contains("[accounts-failed]"))
        #expect(!result.stderr.contains("secret-word"))
        #expect(!result.output.contains("serving"))
    }

    /// Behind a trusted proxy, the client is the address the proxy added last to
    /// `X-Forwarded-For`; from anywhere else the header is not believed.
    @Test(arguments: [(["--trusted-proxy", "127.0.0.1"], "203.0.113.9"), ([], "127.0.0.1")] as [([String], String)])
    func theClientIsTheTrustedProxysLastForwardedAddress(options: [String], client: String) throws {
        let server = try ServerProcess(folder: folder, arguments: ["--accounts"] + options)
        let reply = try Curl.request(
            server.base + "/login", method: "POST",
            headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Origin": server.base,
                "X-Forwarded-For": "198.51.100.7, 203.0.113.9",
            ], body: Data("email=ana%40example.org&password=wrong+password".utf8))
        #expect(reply.status == 401)
        _ = server.stop()
        let audit = try CommandRunner.built().run(["user", "audit", "ana@example.org", folder.path]).output
        #expect(audit.contains("\tlogin-failed\t\(client)\t"), "\(audit)")
    }

    /// A trip shared with a viewer: the viewer's preview stream, at the shared address, sees the
    /// owner's save.
    @Test func aViewersPreviewOfASharedTripReloadsOnTheOwnersSave() throws {
        let server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        let (cookies, anaID, trip) = try anaWithATripAndBo(server)
        let form = try get(server, "/account", cookie: cookies[0]).text
        let token = try #require(
            form.range(of: "name=\"csrf\" value=\"").map { String(form[$0.upperBound...].prefix(43)) })
        let shared = try post(
            server, "/trips/nordic-budget/members", [("csrf", token), ("email", "bo@example.org"), ("role", "viewer")],
            cookie: cookies[0])
        #expect(shared.status == 303)
        let listener = try events(server, "/shared/\(anaID)/trips/nordic-budget/events", cookie: cookies[1])
        var bytes = try Data(contentsOf: trip)
        bytes.append(contentsOf: Array(" \n".utf8))
        try bytes.write(to: trip)
        #expect(listener.receive(until: "data: ", count: 2).components(separatedBy: "data: ").count == 3)
        listener.close()
        _ = server.stop()
    }

    /// A server's threads and watch do not grow with its accounts: forty accounts, each signed in
    /// with its index open, leave one inotify instance and no more threads than the cores and a
    /// few besides (each account used to keep a thread and an inotify instance of its own).
    @Test func fortyAccountsShareTheServersThreadsAndItsOneWatch() throws {
        let server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        let process = "/proc/\(server.process.processIdentifier)"
        func threads() throws -> Int {
            let status = try String(contentsOfFile: process + "/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            return try line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
                .orThrow("no thread count in \(process)/status")
        }
        func inotifyInstances() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: process + "/fd").filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/fd/" + $0))
                    == "anon_inode:inotify"
            }.count
        }
        var first = 0
        for index in 0..<40 {
            let email = "user\(index)@example.org"
            let registered = try post(
                server, "/register",
                [("email", email), ("password", "correct horse battery"), ("confirm", "correct horse battery")])
            let cookie = try Self.session(registered).orThrow("no session cookie for \(email)")
            #expect(try get(server, "/", cookie: cookie).status == 200)
            if index == 0 { first = try threads() }
        }
        #expect(try inotifyInstances() == 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(try threads() <= first + cores + 2, "threads after one account: \(first)")
        _ = server.stop()
    }

    /// A form declared larger than a form may be is refused from its head, before a byte of its
    /// body is read: a client cannot hold the login page open with a length it never sends.
    @Test func aFormDeclaredPastItsLimitIsRefusedBeforeItsBody() throws {
        let server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        let connection = try RawConnection(port: server.port)
        try connection.send(
            Data(
                ("POST /login HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: \(server.base)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \((64 << 10) + 1)\r\n\r\n")
                    .utf8))
        let answer = connection.receive(until: "}}")
        #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer)")
        #expect(answer.contains("\"code\":\"body-too-large\""))
        connection.close()
        _ = server.stop()
    }

    /// Recovering an account from the command line ends its API tokens with its sessions, and a
    /// preview stream open before the right to read ended sends nothing more: it ends at the next
    /// event, whether the session ended or the trip was unshared.
    @Test func endedSessionsTokensAndSharesEndTheStreamsTheyOpened() throws {
        let server = try ServerProcess(folder: folder, arguments: ["--accounts"])
        let (cookies, anaID, trip) = try anaWithATripAndBo(server)
        let cli = try CommandRunner.built()
        let page = try get(server, "/account", cookie: cookies[0]).text
        let csrf = try #require(
            page.range(of: "name=\"csrf\" value=\"").map { String(page[$0.upperBound...].prefix(43)) })
        let made = try post(
            server, "/account/tokens", [("csrf", csrf), ("name", "script"), ("scope", "write"), ("days", "")],
            cookie: cookies[0]
        ).text
        let token = try #require(made.range(of: "dtr_").map { "dtr_" + made[$0.upperBound...].prefix(43) })
        let api = { try Curl.request(server.base + "/api/v1/trips", headers: ["Authorization": "Bearer \(token)"]) }
        #expect(try api().status == 200)
        let members = "/trips/nordic-budget/members"
        #expect(
            try post(
                server, members, [("csrf", csrf), ("email", "bo@example.org"), ("role", "viewer")], cookie: cookies[0]
            )
            .status == 303)
        let viewer = try events(server, "/shared/\(anaID)/trips/nordic-budget/events", cookie: cookies[1])
        let owner = try events(server, "/trips/nordic-budget/events", cookie: cookies[0])
        let script = try RawConnection(port: server.port)
        try script.send(
            Data(
                "GET /trips/nordic-budget/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                    .utf8))
        #expect(script.receive(until: "data: ", count: 1).contains("data: "))
        #expect(
            try post(server, members, [("csrf", csrf), ("remove", "bo@example.org")], cookie: cookies[0]).status == 303)
        let ended = try cli.run(["user", "end-sessions", "ana@example.org", folder.path])
        #expect(ended.output == "1 session and 1 token of ana@example.org ended\n")
        #expect(try api().status == 401)
        var bytes = try Data(contentsOf: trip)
        bytes.append(contentsOf: Array(" \n".utf8))
        try bytes.write(to: trip)
        for (who, stream) in [("viewer", viewer), ("owner", owner), ("token", script)] {
            // The last chunk of a stream that ends, or a second version sent (today's failure).
            let seen = stream.receive { $0.hasSuffix("0\r\n\r\n") || $0.components(separatedBy: "data: ").count > 2 }
            #expect(seen.components(separatedBy: "data: ").count == 2, "\(who) got no new version: \(seen)")
            #expect(seen.hasSuffix("0\r\n\r\n"), "\(who)'s stream ended")
            stream.close()
        }
        _ = server.stop()
    }

    /// Two servers on one folder and one PostgreSQL database, as behind a proxy: a session made on
    /// one is valid on the other, and a trip saved through one reloads a preview open on the other.
    @Test(.enabled(if: TestDatabase.all.contains(.postgres), "needs PostgreSQL (\(TestDatabase.variable))"))
    func twoServersOnOnePostgresShareSessionsAndSaves() async throws {
        try await TestDatabase.withPostgres { made in
            let arguments = ["--accounts", "--database", made.url]
            let first = try ServerProcess(folder: folder, arguments: arguments)
            let second = try ServerProcess(folder: folder, arguments: arguments)
            let registered = try post(
                first, "/register",
                [
                    ("email", "ana@example.org"), ("password", "correct horse battery"),
                    ("confirm", "correct horse battery"),
                ])
            let cookie = try Self.session(registered).orThrow("no session cookie")
            let page = try get(second, "/", cookie: cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("Signed in as <strong>ana@example.org</strong>"))
            // The database is the only one: no SQLite file was made beside the trips.
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/.detour/accounts.sqlite"))
            let account = try get(first, "/account", cookie: cookie).text
            let token = try #require(
                account.range(of: "name=\"csrf\" value=\"").map { String(account[$0.upperBound...].prefix(43)) })
            let trip = try Data(contentsOf: Fixtures.sampleURL("nordic-budget.json"))
            func save(_ bytes: Data, _ precondition: [String: String]) throws -> Curl.Reply {
                try Curl.request(
                    first.base + "/api/v1/trips/nordic-budget", method: "PUT",
                    headers: [
                        "Content-Type": "application/json", "Origin": first.base, "X-CSRF-Token": token,
                        "Cookie": "detour_session=\(cookie)",
                    ].merging(precondition) { $1 }, body: bytes)
            }
            let created = try save(trip, ["If-None-Match": "*"])
            #expect(created.status == 201, "\(created.text)")
            let tag = try created.header("etag").orThrow("no ETag")
            let listener = try events(second, "/trips/nordic-budget/events", cookie: cookie)
            let replaced = try save(trip + Data(" \n".utf8), ["If-Match": tag])
            #expect(replaced.status == 200, "\(replaced.text)")
            #expect(listener.receive(until: "data: ", count: 2).components(separatedBy: "data: ").count == 3)
            listener.close()
            // The command line works on the same database.
            let cli = try CommandRunner.built()
            let listed = try cli.run(["user", "list", "--database", made.url, folder.path])
            #expect(listed.output.hasPrefix("ana@example.org\t"), "\(listed.stderr)")
            #expect(listed.output.contains("\t1 session\t"), "\(listed.output)")
            #expect(first.stop() == 0)
            #expect(second.stop() == 0)
        }
    }
}
