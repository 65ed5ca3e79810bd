import DetourTestSupport
import Foundation
import Testing

@testable import DetourAccounts

/// The accounts, sessions and audit log in SQLite, with the clock moved by hand.
@Suite struct AccountStoreTests {
    let folder: ScratchFolder
    let clock = TestClock()

    init() throws {
        folder = try ScratchFolder("detour-accounts")
    }

    /// A store on a database file in the scratch folder, open for `body`.
    func withStore(_ body: (AccountStore) async throws -> Void) async throws {
        let path = try AccountsFolder.database(in: folder.url.path)
        let store = try await AccountStore.sqlite(path: path, now: clock.now)
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func anAddressHasOneAccountWhateverItsCase() async throws {
        try await withStore { store in
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

    @Test func accountsAreListedByAddressAndRemovedWithTheirSessions() async throws {
        try await withStore { store in
            let zoe = try await store.addAccount(email: "zoe@example.org", passwordHash: "h")
            _ = try await store.addAccount(email: "Ana@example.org", passwordHash: "h")
            #expect(try await store.accounts().map(\.email) == ["Ana@example.org", "zoe@example.org"])
            let (token, _) = try await store.beginSession(accountID: zoe.id, client: "127.0.0.1")
            #expect(try await store.removeAccount(id: zoe.id))
            #expect(try await store.removeAccount(id: zoe.id) == false)
            #expect(try await store.session(token) == nil)
            #expect(try await store.accounts().map(\.email) == ["Ana@example.org"])
        }
    }

    @Test func aSessionIsFoundByItsIdAndOnlyItsDigestIsStored() async throws {
        try await withStore { store in
            let ana = try await store.addAccount(email: "ana@example.org", passwordHash: "h")
            let (token, session) = try await store.beginSession(accountID: ana.id, client: nil)
            #expect(session.digest == token.digest)
            #expect(try await store.session(token)?.accountID == ana.id)
            #expect(try await store.session(SecretToken(text: token.digest)) == nil)
            #expect(try await store.session(SecretToken.random()) == nil)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.url.path + "/.detour/accounts.sqlite"))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: folder.url.path + "/.detour/accounts.sqlite-wal")))
            #expect(!(bytes + (wal ?? Data())).contains(Data(token.text.utf8)))
        }
    }

    /// 12 hours idle ends a session: at 12 h less a second it is live (and used again), at 12 h
    /// it is not.
    @Test func aSessionEndsAfterTwelveHoursIdle() async throws {
        try await withStore { store in
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
    @Test func aSessionEndsThirtyDaysAfterItBeganHoweverOftenUsed() async throws {
        try await withStore { store in
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

    @Test func endingSessionsKeepsTheOneAsked() async throws {
        try await withStore { store in
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

    @Test func theAuditLogOutlivesTheAccount() async throws {
        try await withStore { store in
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
    @Test func migrationsAreAppliedOnce() async throws {
        let path = try AccountsFolder.database(in: folder.url.path)
        let first = try await AccountStore.sqlite(path: path, now: clock.now)
        _ = try await first.addAccount(email: "ana@example.org", passwordHash: "h")
        await first.close()
        let second = try await AccountStore.sqlite(path: path, now: clock.now)
        #expect(try await second.accounts().count == 1)
        await second.close()
        #expect(Migrations.latest == 4)
    }

    /// Two servers opening one new database at once: both start, and the schema is made once.
    @Test func twoStoresOpeningOneNewDatabaseAtOnceBothStart() async throws {
        let path = try AccountsFolder.database(in: folder.url.path)
        let now = clock.now
        let opened = await withTaskGroup(of: Result<AccountStore, AccountFailure>.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do throws(AccountFailure) {
                        return .success(try await AccountStore.sqlite(path: path, now: now))
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
                #expect(try await store.accounts().isEmpty)
                await store.close()
            case .failure(let failure):
                Issue.record("a store did not open: \(failure.message)")
            }
        }
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
}
