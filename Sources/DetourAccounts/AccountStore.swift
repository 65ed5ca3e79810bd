import DetourCore
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit
import SQLiteNIO
import ServiceLifecycle

/// An account: who signs in, and the folder of trips that is theirs.
public struct Account: Sendable, Equatable {
    /// 16 random bytes in hex, never reused: the name of the account's folder
    /// (`DIR/accounts/ID/`), which says nothing about the address or how many accounts there are.
    public let id: String
    /// The address as it was registered.
    public let email: String
    /// The stored Argon2id hash.
    public let passwordHash: String
    /// When the account was made, in seconds since 1970.
    public let createdAt: Int64
}

/// A signed-in session, as the database has it.
public struct Session: Sendable, Equatable {
    /// The SHA-256 of the session's id.
    public let digest: String
    public let accountID: String
    /// The token the session's forms carry (CSRF).
    public let formToken: String
    public let createdAt: Int64
    public internal(set) var seenAt: Int64
}

/// A session as its account's page lists it.
public struct SessionSummary: Sendable, Equatable {
    /// How many hex digits of the digest name a session on the account's page.
    public static let handleLength = 12
    public let digest: String
    public let createdAt: Int64
    public let seenAt: Int64
    public let client: String?

    /// The digest's first digits: enough to tell an account's sessions apart, and nothing an
    /// attacker could use.
    public var handle: String { String(digest.prefix(SessionSummary.handleLength)) }
}

/// How long a session lasts (OWASP Session Management): 12 hours since it was last used, and
/// 30 days since it began, whichever ends first.
public enum SessionLifetime {
    public static let idle: Int64 = 12 * 3600
    public static let absolute: Int64 = 30 * 86400
}

/// One line of the audit log.
public struct AuditEntry: Sendable, Equatable {
    /// When, in seconds since 1970.
    public let at: Int64
    /// What happened: `register`, `login`, `login-failed`, `password-changed` and so on.
    public let event: String
    /// The address of the account it concerns, in lower case.
    public let email: String?
    /// The client's address, when a client did it.
    public let client: String?
    /// Anything else worth keeping (never a password or a secret).
    public let detail: String?

    public init(at: Int64, event: String, email: String?, client: String?, detail: String?) {
        self.at = at
        self.event = event
        self.email = email
        self.client = client
        self.detail = detail
    }
}

/// The accounts, their sessions and the audit log, in a database reached through SQLKit: SQLite,
/// or PostgreSQL for several servers sharing one set of accounts.
///
/// Every statement runs on the database driver's own threads (SwiftNIO's thread pool for
/// SQLite, its event loops for PostgreSQL), never on Swift's cooperative pool. The clock is given,
/// so that tests can move it.
public final class AccountStore: Sendable {
    private let database: any SQLDatabase
    private let closeConnection: @Sendable () async throws -> Void
    /// Now, in seconds since 1970.
    public let now: @Sendable () -> Int64
    /// What must run while the store is used, when its opener said a service group runs it
    /// (``ClientRunner/serviceGroup``): PostgreSQL's pool of connections.
    public let services: [any Service]

    private init(
        database: any SQLDatabase, now: @escaping @Sendable () -> Int64, services: [any Service] = [],
        close: @escaping @Sendable () async throws -> Void
    ) {
        self.database = database
        self.now = now
        self.services = services
        closeConnection = close
    }

    /// Who runs a PostgreSQL client's connections.
    public enum ClientRunner: Sendable {
        /// The store, in a task of its own until it is closed: for a command that opens it, uses
        /// it and closes it.
        case store
        /// The service group of the server that uses it (``AccountStore/services``), which stops
        /// it after the server has stopped taking requests.
        case serviceGroup
    }

    /// The database `location` names (`--database`), with every migration applied.
    ///
    /// Without a location, the SQLite file of the folder `folder`. `password` is PostgreSQL's
    /// when the address has none (the `PGPASSWORD` of the environment, never an argument).
    public static func open(
        _ location: DatabaseURL?, folder: String, password: String? = nil, now: @escaping @Sendable () -> Int64,
        runner: ClientRunner = .store
    ) async throws(AccountFailure) -> AccountStore {
        switch location {
        case nil: return try await sqlite(path: AccountsFolder.database(in: folder), now: now)
        case .sqlite(let path): return try await sqlite(path: path, now: now)
        case .postgres(let url):
            return try await postgres(
                url: url, password: password, now: now, begin: ["BEGIN", postgresMigrationLock], runner: runner)
        }
    }

    /// The SQLite database at `path`, made when missing, with every migration applied.
    public static func sqlite(path: String, now: @escaping @Sendable () -> Int64) async throws(AccountFailure)
        -> AccountStore
    {
        // The connection's own thread: a statement waiting for another server's lock holds it, and
        // must not hold a thread that the holder of the lock needs to finish (a shared pool of two
        // threads, on two cores, deadlocks with three servers opening at once).
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: thread, logger: AccountStore.logger,
                on: MultiThreadedEventLoopGroup.singleton.any()
            ).get()
        } catch {
            try? await thread.shutdownGracefully()
            throw .database("cannot open \(path): \(error)")
        }
        let store = AccountStore(
            database: connection.sql(), now: now,
            close: {
                try? await connection.close()
                try await thread.shutdownGracefully()
            })
        do throws(AccountFailure) {
            try await store.prepare(connection, now: now)
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Sets the connection up and applies the migrations.
    private func prepare(_ connection: SQLiteConnection, now: @Sendable () -> Int64) async throws(AccountFailure) {
        try await attempt {
            // Another server on the same file waits for a lock rather than failing at once; WAL
            // lets sessions be read while one is written.
            _ = try await connection.query("PRAGMA busy_timeout = 10000")
            // WAL is kept in the file: when another server is setting it at this moment, this one
            // finds it set.
            _ = try? await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA foreign_keys = ON")
            _ = try await Migrations.apply(to: database, begin: ["BEGIN IMMEDIATE"], now: now())
        }
    }

    /// What the database drivers say (PostgreSQL's pool, when it cannot connect): on standard
    /// error, with the server's other messages, never mixed into what a command prints.
    static let logger = Logger(label: "detour-report.accounts") { StreamLogHandler.standardError(label: $0) }

    /// The lock that makes two servers starting at once on one PostgreSQL database apply each
    /// migration once: a transaction-scoped advisory lock, its key "detr" in ASCII.
    static let postgresMigrationLock = "SELECT pg_advisory_xact_lock(1684370546)"

    /// The PostgreSQL database at `url` (``DatabaseURL/postgres(url:)``), with every migration
    /// applied; `password` when the address has none.
    ///
    /// The migrations run on a connection of their own, so that a server that cannot reach the
    /// database says so at once; requests then share a pool of connections.
    public static func postgres(url: String, password: String?, now: @escaping @Sendable () -> Int64)
        async throws(AccountFailure) -> AccountStore
    {
        try await postgres(
            url: url, password: password, now: now, begin: ["BEGIN", postgresMigrationLock], runner: .store)
    }

    /// ``postgres(url:password:now:)``, its migrations' transaction opened by `begin` (tests leave
    /// the lock out, to show what it is for).
    static func postgres(
        url: String, password: String?, now: @escaping @Sendable () -> Int64, begin: [String],
        runner: ClientRunner = .store
    ) async throws(AccountFailure) -> AccountStore {
        var configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw .database("cannot read the PostgreSQL address (\(DatabaseURL.forms))")
        }
        if configuration.coreConfiguration.password == nil {
            configuration.coreConfiguration.password = password
        }
        let logger = AccountStore.logger
        let client = PostgresClient(
            configuration: try PostgresClient.Configuration(configuration.coreConfiguration), backgroundLogger: logger)
        let store: AccountStore
        switch runner {
        case .store:
            // The pool runs from now on, while the migrations are applied.
            let running = Task { await client.run() }
            store = AccountStore(
                database: PostgresPool(client: client, logger: logger), now: now,
                close: {
                    running.cancel()
                    await running.value
                })
        case .serviceGroup:
            // A query made before the group runs the pool waits for it.
            store = AccountStore(database: PostgresPool(client: client, logger: logger), now: now, services: [client]) {
            }
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: configuration.coreConfiguration, id: 1, logger: logger)
        } catch {
            await store.close()
            throw .database("cannot connect to PostgreSQL: \(describe(error))")
        }
        do {
            _ = try await Migrations.apply(to: connection.sql(queryLogLevel: nil), begin: begin, now: now())
        } catch {
            try? await connection.close()
            await store.close()
            throw .database(describe(error))
        }
        try? await connection.close()
        return store
    }

    /// What a database error says: PostgreSQL's own message when it sent one (PostgresNIO's
    /// plain description hides it).
    static func describe(_ error: any Error) -> String {
        guard let failure = error as? PSQLError else { return String(describing: error) }
        if let message = failure.serverInfo?[.message] { return message }
        if let underlying = failure.underlying { return String(describing: underlying) }
        return "\(failure.code)"
    }

    /// Closes the connection.
    public func close() async {
        try? await closeConnection()
    }

    /// `body`, its database errors as ``AccountFailure/database(_:)``.
    private func attempt<Value>(_ body: () async throws -> Value) async throws(AccountFailure) -> Value {
        do {
            return try await body()
        } catch let failure as AccountFailure {
            throw failure
        } catch {
            throw .database(AccountStore.describe(error))
        }
    }

    /// The key an address is found by: the address normalized (``AccountAddress/normalized(_:)``)
    /// and in lower case, so that two ways of typing one address find one account.
    public static func key(_ email: String) -> String { AccountAddress.normalized(email).lowercased() }

    // MARK: accounts

    /// Makes an account for `email` (kept normalized) with a password's hash;
    /// ``AccountFailure/emailTaken(_:)`` when the address has one.
    public func addAccount(email: String, passwordHash: String) async throws(AccountFailure) -> Account {
        let email = AccountAddress.normalized(email)
        let account = Account(
            id: SecretToken.randomHex(count: 16), email: email, passwordHash: passwordHash, createdAt: now())
        let inserted: Bool = try await attempt {
            let rows = try await database.raw(
                """
                INSERT INTO accounts (id, email, email_key, password_hash, created_at)
                VALUES (\(bind: account.id), \(bind: email), \(bind: AccountStore.key(email)), \
                \(bind: passwordHash), \(bind: account.createdAt))
                ON CONFLICT (email_key) DO NOTHING RETURNING id
                """
            ).all()
            return !rows.isEmpty
        }
        guard inserted else { throw .emailTaken(email) }
        return account
    }

    /// The account with the address `email` (in any case), or `nil`.
    public func account(email: String) async throws(AccountFailure) -> Account? {
        try await attempt {
            try await database.raw(
                """
                SELECT \(unsafeRaw: AccountStore.accountColumns) FROM accounts \
                WHERE email_key = \(bind: AccountStore.key(email))
                """
            ).first().map(AccountStore.account)
        }
    }

    /// The account with the id `id`, or `nil`.
    public func account(id: String) async throws(AccountFailure) -> Account? {
        try await attempt {
            try await database.raw(
                "SELECT \(unsafeRaw: AccountStore.accountColumns) FROM accounts WHERE id = \(bind: id)"
            )
            .first().map(AccountStore.account)
        }
    }

    /// Every account, by address.
    ///
    /// Lists of addresses are sorted here, not in SQL: PostgreSQL sorts text by the database's
    /// locale, and the order must not depend on where the database was made.
    public func accounts() async throws(AccountFailure) -> [Account] {
        try await attempt {
            try await database.raw("SELECT \(unsafeRaw: AccountStore.accountColumns) FROM accounts")
                .all().map(AccountStore.account).sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
        }
    }

    private static let accountColumns = "id, email, password_hash, created_at"

    private static func account(_ row: any SQLRow) throws -> Account {
        Account(
            id: try row.decode(column: "id", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }

    /// Removes the account and its sessions; false when there was none.
    public func removeAccount(id: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.raw("DELETE FROM accounts WHERE id = \(bind: id) RETURNING id").all().isEmpty
        }
    }

    /// Replaces the account's password hash.
    public func setPasswordHash(accountID: String, _ hash: String) async throws(AccountFailure) {
        try await attempt {
            try await database.raw("UPDATE accounts SET password_hash = \(bind: hash) WHERE id = \(bind: accountID)")
                .run()
        }
    }

    // MARK: sessions

    /// Begins a session for the account; returns its id, which only the client keeps.
    public func beginSession(accountID: String, client: String?) async throws(AccountFailure) -> (
        SecretToken, Session
    ) {
        let token = SecretToken.random()
        let time = now()
        let session = Session(
            digest: token.digest, accountID: accountID, formToken: SecretToken.random().text, createdAt: time,
            seenAt: time)
        try await attempt {
            try await database.raw(
                """
                INSERT INTO sessions (digest, account_id, form_token, created_at, seen_at, client)
                VALUES (\(bind: session.digest), \(bind: accountID), \(bind: session.formToken), \
                \(bind: time), \(bind: time), \(bind: client))
                """
            ).run()
        }
        return (token, session)
    }

    /// The live session whose id is `token`, marked as used now; `nil` when there is none or it
    /// has expired (an expired one is deleted).
    public func session(_ token: SecretToken) async throws(AccountFailure) -> Session? {
        let digest = token.digest
        let time = now()
        return try await attempt { () async throws -> Session? in
            guard
                let row = try await database.raw(
                    "SELECT digest, account_id, form_token, created_at, seen_at FROM sessions WHERE digest = \(bind: digest)"
                ).first()
            else { return nil }
            var session = Session(
                digest: digest, accountID: try row.decode(column: "account_id", as: String.self),
                formToken: try row.decode(column: "form_token", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                seenAt: try row.decode(column: "seen_at", as: Int64.self))
            guard AccountStore.isLive(session, at: time) else {
                try await database.raw("DELETE FROM sessions WHERE digest = \(bind: digest)").run()
                return nil
            }
            try await database.raw("UPDATE sessions SET seen_at = \(bind: time) WHERE digest = \(bind: digest)").run()
            session.seenAt = time
            return session
        }
    }

    /// Whether the session whose id is `token` is live, without marking it used: an open preview
    /// asking again does not keep an idle session alive.
    public func sessionIsLive(_ token: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt { () async throws -> Bool in
            guard
                let row = try await database.raw(
                    "SELECT created_at, seen_at FROM sessions WHERE digest = \(bind: token.digest)"
                ).first()
            else { return false }
            let createdAt = try row.decode(column: "created_at", as: Int64.self)
            let seenAt = try row.decode(column: "seen_at", as: Int64.self)
            return time - seenAt < SessionLifetime.idle && time - createdAt < SessionLifetime.absolute
        }
    }

    /// Whether `session` is still live at `time`: used within the idle lifetime, and begun within
    /// the absolute one.
    public static func isLive(_ session: Session, at time: Int64) -> Bool {
        time - session.seenAt < SessionLifetime.idle && time - session.createdAt < SessionLifetime.absolute
    }

    /// Ends the session whose id is `token` (logging out).
    public func endSession(_ token: SecretToken) async throws(AccountFailure) {
        try await attempt {
            try await database.raw("DELETE FROM sessions WHERE digest = \(bind: token.digest)").run()
        }
    }

    /// Ends every session of the account but the one with the digest `keeping`; returns how many.
    public func endSessions(accountID: String, keeping: String? = nil) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.raw(
                """
                DELETE FROM sessions WHERE account_id = \(bind: accountID) \
                AND digest <> \(bind: keeping ?? "") RETURNING digest
                """
            ).all().count
        }
    }

    /// How many live sessions the account has.
    public func sessionCount(accountID: String) async throws(AccountFailure) -> Int {
        try await sessions(accountID: accountID).count
    }

    /// The account's live sessions, the one used last first.
    public func sessions(accountID: String) async throws(AccountFailure) -> [SessionSummary] {
        let time = now()
        // isLive's rule, in SQL.
        return try await attempt {
            try await database.raw(
                """
                SELECT digest, created_at, seen_at, client FROM sessions WHERE account_id = \(bind: accountID) \
                AND seen_at > \(bind: time - SessionLifetime.idle) \
                AND created_at > \(bind: time - SessionLifetime.absolute) ORDER BY seen_at DESC, digest
                """
            ).all().map { row in
                SessionSummary(
                    digest: try row.decode(column: "digest", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self),
                    seenAt: try row.decode(column: "seen_at", as: Int64.self),
                    client: try row.decode(column: "client", as: String?.self))
            }
        }
    }

    /// Ends the account's session whose digest begins with `handle` (what the account page shows);
    /// false when it has none.
    public func endSession(accountID: String, handle: String) async throws(AccountFailure) -> Bool {
        guard handle.count == SessionSummary.handleLength, handle.allSatisfy(\.isHexDigit) else { return false }
        return try await attempt {
            try await !database.raw(
                """
                DELETE FROM sessions WHERE account_id = \(bind: accountID) \
                AND substr(digest, 1, \(unsafeRaw: String(SessionSummary.handleLength))) = \(bind: handle) RETURNING digest
                """
            ).all().isEmpty
        }
    }

    // MARK: failed logins

    /// Counts a failed login against each of `keys`, and forgets failures older than the
    /// throttle's window.
    public func recordFailure(keys: [String]) async throws(AccountFailure) {
        let time = now()
        try await attempt {
            try await database.raw("DELETE FROM login_failures WHERE at <= \(bind: time - LoginThrottle.window)").run()
            for key in keys {
                try await database.raw("INSERT INTO login_failures (key, at) VALUES (\(bind: key), \(bind: time))")
                    .run()
            }
        }
    }

    /// The times of the failures counted against `key` within the throttle's window.
    public func failures(key: String) async throws(AccountFailure) -> [Int64] {
        let time = now()
        return try await attempt {
            try await database.raw(
                """
                SELECT at FROM login_failures WHERE key = \(bind: key) \
                AND at > \(bind: time - LoginThrottle.window) ORDER BY at
                """
            ).all().map { try $0.decode(column: "at", as: Int64.self) }
        }
    }

    /// Forgets the failures counted against `key` (after a login that succeeded).
    public func clearFailures(key: String) async throws(AccountFailure) {
        try await attempt {
            try await database.raw("DELETE FROM login_failures WHERE key = \(bind: key)").run()
        }
    }

    // MARK: invitations

    /// How long an invitation code can be used.
    public static let inviteLifetime: Int64 = 7 * 86400

    /// A new one-use invitation code made by the account.
    public func makeInvite(accountID: String) async throws(AccountFailure) -> SecretToken {
        let code = SecretToken.random(prefix: "inv_")
        let time = now()
        try await attempt {
            try await database.raw(
                """
                INSERT INTO invites (digest, account_id, created_at) \
                VALUES (\(bind: code.digest), \(bind: accountID), \(bind: time))
                """
            ).run()
        }
        return code
    }

    /// Uses the invitation `code`: true when it was unused and within its lifetime, and it is
    /// used now (by this call alone, however many race for it).
    public func useInvite(_ code: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt {
            try await !database.raw(
                """
                UPDATE invites SET used_at = \(bind: time) WHERE digest = \(bind: code.digest) AND used_at IS NULL \
                AND created_at > \(bind: time - AccountStore.inviteLifetime) RETURNING digest
                """
            ).all().isEmpty
        }
    }

    // MARK: API tokens

    /// Makes a token for the account: its secret (shown once, never stored) and what is kept.
    public func makeToken(accountID: String, name: String, scope: TokenScope, expiresAt: Int64?)
        async throws(AccountFailure) -> (SecretToken, APIToken)
    {
        let secret = SecretToken.random(prefix: APIToken.prefix)
        let token = APIToken(
            id: SecretToken.randomHex(count: 8), accountID: accountID, name: name, scope: scope, createdAt: now(),
            expiresAt: expiresAt, usedAt: nil)
        try await attempt {
            try await database.raw(
                """
                INSERT INTO api_tokens (id, account_id, name, scope, digest, created_at, expires_at) \
                VALUES (\(bind: token.id), \(bind: accountID), \(bind: name), \(bind: scope.rawValue), \
                \(bind: secret.digest), \(bind: token.createdAt), \(bind: expiresAt))
                """
            ).run()
        }
        return (secret, token)
    }

    private static let tokenColumns = "id, account_id, name, scope, created_at, expires_at, used_at"

    private static func token(_ row: any SQLRow) throws -> APIToken {
        let scope = try row.decode(column: "scope", as: String.self)
        guard let known = TokenScope(rawValue: scope) else {
            throw AccountFailure.database("a token of scope \(scope)")
        }
        return APIToken(
            id: try row.decode(column: "id", as: String.self),
            accountID: try row.decode(column: "account_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            scope: known,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64?.self),
            usedAt: try row.decode(column: "used_at", as: Int64?.self))
    }

    /// The account's tokens, newest first.
    public func tokens(accountID: String) async throws(AccountFailure) -> [APIToken] {
        try await attempt {
            try await database.raw(
                """
                SELECT \(unsafeRaw: AccountStore.tokenColumns) FROM api_tokens \
                WHERE account_id = \(bind: accountID) ORDER BY created_at DESC, id
                """
            ).all().map(AccountStore.token)
        }
    }

    /// The live token whose secret is `secret`, marked as used now; `nil` when there is none, it
    /// was revoked, or it has expired.
    public func token(_ secret: SecretToken) async throws(AccountFailure) -> APIToken? {
        let time = now()
        return try await attempt { () async throws -> APIToken? in
            guard
                let row = try await database.raw(
                    """
                    SELECT \(unsafeRaw: AccountStore.tokenColumns) FROM api_tokens \
                    WHERE digest = \(bind: secret.digest)
                    """
                ).first()
            else { return nil }
            let token = try AccountStore.token(row)
            guard token.isLive(at: time) else { return nil }
            // The last use is written at most once a minute: a script's every request is no write.
            if (token.usedAt ?? 0) <= time - 60 {
                try await database.raw("UPDATE api_tokens SET used_at = \(bind: time) WHERE id = \(bind: token.id)")
                    .run()
            }
            return token
        }
    }

    /// Revokes the account's token `id`; false when the account has none such.
    public func revokeToken(accountID: String, id: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.raw(
                "DELETE FROM api_tokens WHERE account_id = \(bind: accountID) AND id = \(bind: id) RETURNING id"
            ).all().isEmpty
        }
    }

    /// Revokes every token of the account; returns how many.
    ///
    /// A password changed or reset, and the sessions ended from the command line, end them:
    /// whoever took an account over may have made one.
    public func revokeTokens(accountID: String) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.raw("DELETE FROM api_tokens WHERE account_id = \(bind: accountID) RETURNING id").all()
                .count
        }
    }

    // MARK: sharing

    /// Shares the owner's trip `trip` with `memberID` as `role` (or changes the role).
    public func share(ownerID: String, trip: String, memberID: String, role: ShareRole) async throws(AccountFailure) {
        let time = now()
        try await attempt {
            try await database.raw(
                """
                INSERT INTO shares (owner_id, trip, member_id, role, created_at) \
                VALUES (\(bind: ownerID), \(bind: trip), \(bind: memberID), \(bind: role.rawValue), \(bind: time)) \
                ON CONFLICT (owner_id, trip, member_id) DO UPDATE SET role = excluded.role
                """
            ).run()
        }
    }

    /// Stops sharing the trip with `memberID`; false when it was not shared with it.
    public func unshare(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.raw(
                """
                DELETE FROM shares WHERE owner_id = \(bind: ownerID) AND trip = \(bind: trip) \
                AND member_id = \(bind: memberID) RETURNING trip
                """
            ).all().isEmpty
        }
    }

    /// The members of the owner's trip, by address.
    public func members(ownerID: String, trip: String) async throws(AccountFailure) -> [Member] {
        try await attempt {
            try await database.raw(
                """
                SELECT accounts.email AS email, shares.role AS role FROM shares \
                JOIN accounts ON accounts.id = shares.member_id \
                WHERE shares.owner_id = \(bind: ownerID) AND shares.trip = \(bind: trip)
                """
            ).all().map { row in
                Member(email: try row.decode(column: "email", as: String.self), role: try AccountStore.role(row))
            }.sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
        }
    }

    /// What `memberID` may do with the owner's trip `trip`, or `nil` when it is not shared with it.
    public func role(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> ShareRole? {
        try await attempt {
            try await database.raw(
                """
                SELECT role FROM shares WHERE owner_id = \(bind: ownerID) AND trip = \(bind: trip) \
                AND member_id = \(bind: memberID)
                """
            ).first().map(AccountStore.role)
        }
    }

    /// The trips shared with `memberID`, by owner and name.
    public func sharedTrips(memberID: String) async throws(AccountFailure) -> [SharedTrip] {
        try await attempt {
            try await database.raw(
                """
                SELECT shares.owner_id AS owner_id, accounts.email AS email, shares.trip AS trip, shares.role AS role \
                FROM shares JOIN accounts ON accounts.id = shares.owner_id \
                WHERE shares.member_id = \(bind: memberID)
                """
            ).all().map { row in
                SharedTrip(
                    ownerID: try row.decode(column: "owner_id", as: String.self),
                    ownerEmail: try row.decode(column: "email", as: String.self),
                    trip: try row.decode(column: "trip", as: String.self), role: try AccountStore.role(row))
            }.sorted { (AccountStore.key($0.ownerEmail), $0.trip) < (AccountStore.key($1.ownerEmail), $1.trip) }
        }
    }

    private static func role(_ row: any SQLRow) throws -> ShareRole {
        let text = try row.decode(column: "role", as: String.self)
        guard let role = ShareRole(rawValue: text) else { throw AccountFailure.database("a share of role \(text)") }
        return role
    }

    // MARK: audit

    /// Adds an event to the audit log, at the store's now.
    public func record(_ event: String, email: String?, client: String?, detail: String? = nil)
        async throws(AccountFailure)
    {
        let key = email.map(AccountStore.key)
        let time = now()
        try await attempt {
            try await database.raw(
                """
                INSERT INTO audit (at, email_key, event, client, detail)
                VALUES (\(bind: time), \(bind: key), \(bind: event), \(bind: client), \(bind: detail))
                """
            ).run()
        }
    }

    /// The audit log of an address, oldest first.
    public func audit(email: String) async throws(AccountFailure) -> [AuditEntry] {
        try await attempt {
            try await database.raw(
                """
                SELECT at, email_key, event, client, detail FROM audit \
                WHERE email_key = \(bind: AccountStore.key(email)) ORDER BY id
                """
            ).all().map { row in
                AuditEntry(
                    at: try row.decode(column: "at", as: Int64.self),
                    event: try row.decode(column: "event", as: String.self),
                    email: try row.decode(column: "email_key", as: String?.self),
                    client: try row.decode(column: "client", as: String?.self),
                    detail: try row.decode(column: "detail", as: String?.self))
            }
        }
    }
}
