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
public struct Account: Sendable, Equatable, Codable {
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
public struct Session: Sendable, Equatable, Codable {
    /// The SHA-256 of the session's id.
    public let digest: String
    public let accountID: String
    /// The token the session's forms carry (CSRF).
    public let formToken: String
    public let createdAt: Int64
    public internal(set) var seenAt: Int64

    /// The columns of `sessions` it is read from and written to.
    enum CodingKeys: String, CodingKey {
        case digest, formToken, createdAt, seenAt
        case accountID = "accountId"
    }
}

/// A session as its account's page lists it.
public struct SessionSummary: Sendable, Equatable, Decodable {
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
public struct AuditEntry: Sendable, Equatable, Codable {
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

    /// The columns of `audit`: the address is kept as its key.
    enum CodingKeys: String, CodingKey {
        case at, event, client, detail
        case email = "emailKey"
    }

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
    let database: any SQLDatabase
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

    /// How long an SQLite connection waits for another's write lock before it fails.
    struct SQLiteWaits: Sendable {
        /// The wait while the migrations are applied.
        ///
        /// Another server may be applying them on the same file (two servers of a new release
        /// starting at once), and on a loaded machine that takes longer than a request may wait:
        /// the server starting second waits for it, as it waits on PostgreSQL's advisory lock,
        /// rather than failing to start.
        var migrations: Duration = .seconds(300)
        /// The wait of every statement after that: a request waits for another server's write,
        /// then fails.
        var statements: Duration = .seconds(10)

        /// The pragma that sets `wait`, in milliseconds (SQLite's unit; a pragma takes no bound value).
        static func pragma(_ wait: Duration) -> String {
            "PRAGMA busy_timeout = \(Int(wait / .milliseconds(1)))"
        }
    }

    /// The SQLite database at `path`, made when missing, with every migration applied.
    public static func sqlite(path: String, now: @escaping @Sendable () -> Int64) async throws(AccountFailure)
        -> AccountStore
    {
        try await sqlite(path: path, now: now, waits: SQLiteWaits())
    }

    /// ``sqlite(path:now:)``, its waits for a lock given (tests shorten the statements' wait, to
    /// show that the migrations' is another).
    static func sqlite(path: String, now: @escaping @Sendable () -> Int64, waits: SQLiteWaits)
        async throws(AccountFailure) -> AccountStore
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
            try await store.prepare(connection, now: now, waits: waits)
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Sets the connection up and applies the migrations.
    private func prepare(_ connection: SQLiteConnection, now: @Sendable () -> Int64, waits: SQLiteWaits)
        async throws(AccountFailure)
    {
        try await attempt {
            // Another server on the same file waits for a lock rather than failing at once; WAL
            // lets sessions be read while one is written.
            _ = try await connection.query(SQLiteWaits.pragma(waits.migrations))
            // WAL is kept in the file: when another server is setting it at this moment, this one
            // finds it set.
            _ = try? await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA foreign_keys = ON")
            _ = try await Migrations.apply(to: database, begin: ["BEGIN IMMEDIATE"], now: now())
            _ = try await connection.query(SQLiteWaits.pragma(waits.statements))
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
    func attempt<Value>(_ body: () async throws -> Value) async throws(AccountFailure) -> Value {
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
}
