import DetourCore
import DetourTestSupport
import Foundation
import PostgresKit
import PostgresNIO
import Testing

@testable import DetourAccounts

/// The accounts, sessions and audit log, in SQLite and in PostgreSQL, with the clock moved by hand.
@Suite struct AccountStoreTests {
    let folder: ScratchFolder
    let clock = TestClock()

    init() throws {
        folder = try ScratchFolder("detour-accounts")
    }

    /// A store on a new database of the kind `database`, open for `body`.
    func withStore(_ database: TestDatabase, _ body: (AccountStore) async throws -> Void) async throws {
        try await database.withURL { url in
            let store = try await open(url)
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    /// The store on the database `url` names (`--database`), or on the folder's SQLite file.
    func open(_ url: String?) async throws -> AccountStore {
        try await AccountStore.open(url.flatMap(DatabaseURL.init), folder: folder.url.path, now: clock.now)
    }

    @Test(arguments: TestDatabase.all) func anAddressHasOneAccountWhateverItsCase(_ database: TestDatabase) async throws
    {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "Ana@Example.org", passwordHash: "h1")
            #expect(ana.id.count == 32)
            await #expect(throws: AccountFailure.emailTaken("ana@example.ORG")) {
                try await store.addAccount(email: "ana@example.ORG", passwordHash: "h2")
            }
            #expect(try await store.account(email: "ANA@example.org") == ana)
            #expect(try await store.account(id: ana.id)?.email == "Ana@Example.org")
            #expect(try await store.account(email: "bo@example.org") == nil)
        }
    }

    @Test(arguments: TestDatabase.all) func accountsAreListedByAddressAndRemovedWithTheirSessions(
        _ database: TestDatabase
    ) async throws {
        try await withStore(database) { store in
            let zoe = try await store.addAccount(email: "zoe@example.org", passwordHash: "h")
            _ = try await store.addAccount(email: "Ana@example.org", passwordHash: "h")
            // By code point, wherever the database sorts text otherwise (PostgreSQL by its locale
            // would put é before f).
            _ = try await store.addAccount(email: "émile@example.org", passwordHash: "h")
            _ = try await store.addAccount(email: "fred@example.org", passwordHash: "h")
            #expect(
                try await store.accounts().map(\.email) == [
                    "Ana@example.org", "fred@example.org", "zoe@example.org", "émile@example.org",
                ])
            let (token, _) = try await store.beginSession(accountID: zoe.id, client: "127.0.0.1")
            #expect(try await store.removeAccount(id: zoe.id))
            #expect(try await store.removeAccount(id: zoe.id) == false)
            #expect(try await store.session(token) == nil)
            #expect(
                try await store.accounts().map(\.email) == ["Ana@example.org", "fred@example.org", "émile@example.org"])
        }
    }

    /// A trip's members and the trips shared with an account are listed by code point too.
    @Test(arguments: TestDatabase.all) func membersAndSharedTripsAreListedByCodePoint(_ database: TestDatabase)
        async throws
    {
        try await withStore(database) { store in
            let owner = try await store.addAccount(email: "owner@example.org", passwordHash: "h")
            let eva = try await store.addAccount(email: "éva@example.org", passwordHash: "h")
            let emile = try await store.addAccount(email: "émile@example.org", passwordHash: "h")
            let fred = try await store.addAccount(email: "fred@example.org", passwordHash: "h")
            try await store.share(ownerID: owner.id, trip: "lisbon", memberID: emile.id, role: .viewer)
            try await store.share(ownerID: owner.id, trip: "lisbon", memberID: fred.id, role: .editor)
            #expect(
                try await store.members(ownerID: owner.id, trip: "lisbon").map(\.email) == [
                    "fred@example.org", "émile@example.org",
                ])
            for (from, trip) in [(eva, "alps"), (owner, "été"), (owner, "fjords")] {
                try await store.share(ownerID: from.id, trip: trip, memberID: fred.id, role: .viewer)
            }
            #expect(
                try await store.sharedTrips(memberID: fred.id).map { "\($0.ownerEmail) \($0.trip)" } == [
                    "owner@example.org fjords", "owner@example.org lisbon", "owner@example.org été",
                    "éva@example.org alps",
                ])
        }
    }

    @Test(arguments: TestDatabase.all) func aSessionIsFoundByItsIdAndOnlyItsDigestIsStored(_ database: TestDatabase)
        async throws
    {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let (token, session) = try await store.beginSession(accountID: ana.id, client: nil)
            #expect(session.digest == token.digest)
            #expect(try await store.session(token)?.accountID == ana.id)
            #expect(try await store.session(SecretToken(text: token.digest)) == nil)
            #expect(try await store.session(SecretToken.random()) == nil)
            guard database == .sqlite else { return }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.url.path + "/.detour/accounts.sqlite"))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: folder.url.path + "/.detour/accounts.sqlite-wal")))
            #expect(!(bytes + (wal ?? Data())).contains(Data(token.text.utf8)))
        }
    }

    /// A token's last use is written at most once a minute, and never moved back: a request
    /// whose read is older than another's write leaves the later use (the statement's own
    /// condition, with no transaction).
    @Test(arguments: TestDatabase.all) func aTokensLastUseMovesOnlyForwardAndOnceAMinute(_ database: TestDatabase)
        async throws
    {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let (secret, made) = try await store.makeToken(accountID: ana.id, name: "ci", scope: .read, expiresAt: nil)
            let start = clock.now()
            #expect(try await store.token(secret)?.usedAt == nil, "the first use finds it unused")
            func lastUse() async throws -> Int64? { try await store.tokens(accountID: ana.id).first?.usedAt }
            #expect(try await lastUse() == start)
            clock.advance(59)
            _ = try await store.token(secret)
            #expect(try await lastUse() == start, "within the minute: no write")
            clock.advance(1)
            _ = try await store.token(secret)
            #expect(try await lastUse() == start + 60)
            // A request that read the token at `start + 1` (then unused for a minute, it thought)
            // writes after the one above: the later use stands.
            try await store.markUsed(made.id, at: start + 1)
            #expect(try await lastUse() == start + 60)
            try await store.markUsed(made.id, at: start + 120)
            #expect(try await lastUse() == start + 120)
        }
    }

    /// 12 hours idle ends a session: at 12 h less a second it is live (and used again), at 12 h
    /// it is not.
    @Test(arguments: TestDatabase.all) func aSessionEndsAfterTwelveHoursIdle(_ database: TestDatabase) async throws {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let (token, _) = try await store.beginSession(accountID: ana.id, client: nil)
            clock.advance(SessionLifetime.idle - 1)
            #expect(try await store.session(token) != nil)
            clock.advance(SessionLifetime.idle - 1)
            #expect(try await store.session(token) != nil)
            clock.advance(SessionLifetime.idle)
            #expect(try await store.session(token) == nil)
            #expect(try await store.sessionCount(accountID: ana.id) == 0)
        }
    }

    /// A session used every 11 hours still ends 30 days after it began.
    @Test(arguments: TestDatabase.all) func aSessionEndsThirtyDaysAfterItBeganHoweverOftenUsed(_ database: TestDatabase)
        async throws
    {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let (token, _) = try await store.beginSession(accountID: ana.id, client: nil)
            var elapsed: Int64 = 0
            while elapsed + 11 * 3600 < SessionLifetime.absolute {
                clock.advance(11 * 3600)
                elapsed += 11 * 3600
                #expect(try await store.session(token) != nil, "at \(elapsed) s")
            }
            clock.advance(SessionLifetime.absolute - elapsed - 1)
            #expect(try await store.session(token) != nil)
            clock.advance(1)
            #expect(try await store.session(token) == nil)
        }
    }

    @Test(arguments: TestDatabase.all) func endingSessionsKeepsTheOneAsked(_ database: TestDatabase) async throws {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let bo = try await store.addAccount(email: "bo@example.org", passwordHash: "h")
            let (kept, session) = try await store.beginSession(accountID: ana.id, client: nil)
            let (other, _) = try await store.beginSession(accountID: ana.id, client: nil)
            let (bos, _) = try await store.beginSession(accountID: bo.id, client: nil)
            #expect(try await store.sessionCount(accountID: ana.id) == 2)
            #expect(try await store.endSessions(accountID: ana.id, keeping: session.digest) == 1)
            #expect(try await store.session(kept) != nil)
            #expect(try await store.session(other) == nil)
            #expect(try await store.session(bos) != nil)
            try await store.endSession(kept)
            #expect(try await store.session(kept) == nil)
            #expect(try await store.endSessions(accountID: bo.id) == 1)
        }
    }

    @Test(arguments: TestDatabase.all) func theAuditLogOutlivesTheAccount(_ database: TestDatabase) async throws {
        try await withStore(database) { store in
            let ana = try await store.addAccount(email: "Ana@example.org", passwordHash: "h")
            try await store.record("register", email: "Ana@example.org", client: "127.0.0.1")
            clock.advance(60)
            try await store.record("login-failed", email: "ana@EXAMPLE.org", client: "::1", detail: "wrong password")
            try await store.record("login", email: "bo@example.org", client: nil)
            _ = try await store.removeAccount(id: ana.id)
            let entries = try await store.audit(email: "ana@example.org")
            #expect(
                entries == [
                    AuditEntry(
                        at: 1_795_305_600, event: "register", email: "ana@example.org", client: "127.0.0.1", detail: nil
                    ),
                    AuditEntry(
                        at: 1_795_305_660, event: "login-failed", email: "ana@example.org", client: "::1",
                        detail: "wrong password"),
                ])
        }
    }

    /// Opening the database again applies no step twice; the version is recorded.
    @Test(arguments: TestDatabase.all) func migrationsAreAppliedOnce(_ database: TestDatabase) async throws {
        try await database.withURL { url in
            let first = try await open(url)
            _ = try await first.addAccount(email: "ana@example.org", passwordHash: "h")
            await first.close()
            let second = try await open(url)
            #expect(try await second.accounts().count == 1)
            await second.close()
        }
        #expect(Migrations.latest == 4)
    }

    /// Four servers opening one new database at once: all start, and the schema is made once
    /// (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory lock).
    @Test(arguments: TestDatabase.all) func fourStoresOpeningOneNewDatabaseAtOnceAllStart(_ database: TestDatabase)
        async throws
    {
        try await database.withURL { url in
            let location = url.flatMap(DatabaseURL.init)
            let (path, now) = (folder.url.path, clock.now)
            let opened = await withTaskGroup(of: Result<AccountStore, AccountFailure>.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do throws(AccountFailure) {
                            return .success(try await AccountStore.open(location, folder: path, now: now))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for result in opened {
                switch result {
                case .success(let store):
                    let accounts = try await store.accounts()
                    #expect(accounts.isEmpty)
                    await store.close()
                case .failure(let failure):
                    Issue.record("a store did not open: \(failure.message)")
                }
            }
        }
    }

    /// A PostgreSQL server that starts while another is applying the same steps (two servers of a
    /// new release starting at once) waits for it with the advisory lock, and fails without it:
    /// what the test above relies on is the lock, not luck.
    @Test(
        .enabled(if: TestDatabase.all.contains(.postgres), "needs PostgreSQL (\(TestDatabase.variable))"),
        arguments: [true, false])
    func aServerStartingDuringAnothersMigrationWaitsForIt(locked: Bool) async throws {
        try await TestDatabase.withPostgres { made in
            let begin = locked ? ["BEGIN", AccountStore.postgresMigrationLock] : ["BEGIN"]
            let now = clock.now
            try await TestDatabase.administer(made.url) { first in
                // A database with a table of versions, and steps to apply: what a new release meets.
                _ = try await first.query(
                    "CREATE TABLE detour_schema (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
                    logger: first.logger)
                // The first server, half-way: its transaction open, the first step applied and recorded.
                for statement in begin {
                    _ = try await first.query(PostgresQuery(unsafeSQL: statement), logger: first.logger)
                }
                try await Migrations.steps[0].apply(first.sql())
                _ = try await first.query("INSERT INTO detour_schema VALUES (1, 0)", logger: first.logger)
                let second = Task {
                    let store = try await AccountStore.postgres(url: made.url, password: nil, now: now, begin: begin)
                    await store.close()
                }
                // Until the second waits for a lock the first holds (on this database: other tests run
                // beside this one on the same server).
                var (waiting, asked) = (0, 0)
                while waiting == 0 {
                    asked += 1
                    try #require(asked <= 100_000, "the second server never waited for a lock")
                    // A transaction sees the server's activity as it first read it, unless told not to.
                    _ = try await first.query("SELECT pg_stat_clear_snapshot()", logger: first.logger)
                    let rows = try await first.query(
                        """
                        SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid) \
                        WHERE NOT granted AND datname = current_database()
                        """, logger: first.logger)
                    for try await count in rows.decode(Int.self) { waiting = count }
                }
                _ = try await first.query("COMMIT", logger: first.logger)
                let result = await second.result
                if locked {
                    #expect(throws: Never.self) { try result.get() }
                } else {
                    #expect(throws: AccountFailure.self) { try result.get() }
                }
            }
        }
    }

    /// An SQLite server that starts while another holds the file's write lock for longer than a
    /// request may wait (a migration on a loaded machine) waits for it and starts; afterwards its
    /// statements wait only the shorter time.
    @Test func anSQLiteServerStartingDuringAnothersWriteWaitsLongerThanARequest() async throws {
        let path = folder.url.path + "/shared.sqlite"
        let now = clock.now
        let waits = AccountStore.SQLiteWaits(migrations: .seconds(120), statements: .milliseconds(20))
        let first = try await AccountStore.sqlite(path: path, now: now)
        try await first.database.raw("BEGIN IMMEDIATE").run()
        let second = Task { try await AccountStore.sqlite(path: path, now: now, waits: waits) }
        // The lock is held for ten times the statements' wait; what is tested is a duration, so
        // this test waits one. Were the second to ask for the lock only after it is let go, the
        // test would pass without showing anything, never fail.
        try await Task.sleep(for: .milliseconds(200))
        try await first.database.raw("COMMIT").run()
        await first.close()
        let store = try await second.value
        let rows = try await store.database.raw("PRAGMA busy_timeout").all()
        #expect(try rows.map { try $0.decode(column: "timeout", as: Int.self) } == [20])
        #expect(AccountStore.SQLiteWaits.pragma(.milliseconds(1_500)) == "PRAGMA busy_timeout = 1500")
        await store.close()
    }

    @Test func theDatabaseIsReadableByItsOwnerAlone() throws {
        let path = try AccountsFolder.database(in: folder.url.path)
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let hidden = try FileManager.default.attributesOfItem(atPath: folder.url.path + "/.detour")
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((hidden[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aFileThatIsNoDatabaseIsAnAccountsFailure() async throws {
        let path = folder.url.path + "/text.sqlite"
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        await #expect {
            try await AccountStore.sqlite(path: path, now: clock.now)
        } throws: { error in
            (error as? AccountFailure)?.code == .accountsFailed
        }
    }

    @Test func aPostgresAddressThatCannotBeReadIsAnAccountsFailure() async throws {
        for url in [
            "postgres://", "postgres+uds://ana@example.org:5432/socket", "postgres://ana@host/db?sslmode=sometimes",
        ] {
            await #expect {
                try await AccountStore.postgres(url: url, password: nil, now: clock.now)
            } throws: { error in
                (error as? AccountFailure)?.message
                    == "the accounts' database failed: cannot read the PostgreSQL address (\(DatabaseURL.forms))"
            }
        }
    }

    /// A server that is not there is said at once, and the password is not in what is said.
    @Test func aPostgresServerThatIsNotThereIsAnAccountsFailureAtOnce() async throws {
        let socket = folder.url.path + "/.s.PGSQL.5432"
        await #expect {
            try await AccountStore.postgres(
                url: "postgres+uds://ana:secret-word@localhost\(socket)#trips", password: nil, now: clock.now)
        } throws: { error in
            guard let failure = error as? AccountFailure else { return false }
            return failure.code == .accountsFailed && failure.message.contains("cannot connect to PostgreSQL")
                && !failure.message.contains("secret-word")
        }
    }
}
