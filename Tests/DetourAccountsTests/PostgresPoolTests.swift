import DetourCore
import DetourTestSupport
import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization
import Testing

@testable import DetourAccounts

/// The pool of PostgreSQL connections as one SQLKit database, and the settings it is made with.
@Suite struct PostgresPoolTests {
    /// A TCP address keeps its host, port, database and TLS mode, and a password given apart.
    @Test(arguments: [("disable", false, false), ("prefer", true, false), ("require", true, true)])
    func aTCPAddressBecomesThePoolsSettings(mode: String, tls: Bool, enforced: Bool) throws {
        let url = "postgres://detour:in-the-url@db.example.org:5433/trips?sslmode=\(mode)"
        let settings = try PostgresClient.Configuration(try SQLPostgresConfiguration(url: url).coreConfiguration)
        #expect(settings.host == "db.example.org")
        #expect(settings.port == 5433)
        #expect(settings.unixSocketPath == nil)
        #expect(settings.username == "detour")
        #expect(settings.password == "in-the-url")
        #expect(settings.database == "trips")
        let described = "\(settings.tls)"
        #expect(described.contains("disable") == !tls, "\(described)")
        #expect(described.contains("require") == enforced, "\(described)")
    }

    @Test func aSocketAddressBecomesThePoolsSettings() throws {
        let url = "postgres+uds://detour@localhost/run/postgresql/.s.PGSQL.5432#trips"
        let settings = try PostgresClient.Configuration(try SQLPostgresConfiguration(url: url).coreConfiguration)
        #expect(settings.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(settings.host == nil)
        #expect(settings.database == "trips")
    }

    /// A server that is down makes a statement fail at the deadline, instead of waiting for as
    /// long as the pool tries to connect (a request to the server must end).
    @Test func aStatementToAServerThatIsDownFailsAtTheDeadline() async throws {
        let folder = try ScratchFolder("detour-postgres-down")
        let configuration = PostgresClient.Configuration(
            unixSocketPath: folder.url.path + "/.s.PGSQL.5432", username: "detour", password: nil, database: "trips")
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        let pool = PostgresPool(client: client, logger: Logger(label: "test"), deadline: .milliseconds(200))
        await #expect(throws: AccountFailure.database("PostgreSQL did not answer within 0.2 seconds")) {
            try await pool.raw("SELECT 1").run()
        }
        running.cancel()
        await running.value
    }

    /// A statement that has reached the server and waits there (on a lock another connection
    /// holds) is answered at the deadline too, while the lock is still held.
    @Test(.enabled(if: TestDatabase.all.contains(.postgres), "needs PostgreSQL (\(TestDatabase.variable))"))
    func aStatementWaitingOnTheServerFailsAtTheDeadline() async throws {
        try await TestDatabase.withPostgres { made in
            try await withPool(made.url, deadline: .milliseconds(200)) { pool in
                try await TestDatabase.administer(made.url) { holder in
                    _ = try await holder.query("SELECT pg_advisory_lock(42)", logger: holder.logger)
                    let released = Flag()
                    // Released in a minute at the latest, so that a deadline that waited for the
                    // statement would fail below rather than hang.
                    let releaser = Task {
                        try? await Task.sleep(for: .seconds(60))
                        released.set()
                        _ = try? await holder.query("SELECT pg_advisory_unlock(42)", logger: holder.logger)
                    }
                    await #expect(throws: AccountFailure.database("PostgreSQL did not answer within 0.2 seconds")) {
                        try await pool.raw("SELECT pg_advisory_lock(42)").run()
                    }
                    #expect(!released.isSet)
                    releaser.cancel()
                    await releaser.value
                }
            }
        }
    }

    /// Both ways SQLKit runs a statement reach the server: the future SQLKit's older builders
    /// use, and the one async call; a session, asked of the store's `any SQLDatabase`, keeps one
    /// connection.
    @Test(.enabled(if: TestDatabase.all.contains(.postgres), "needs PostgreSQL (\(TestDatabase.variable))"))
    func aStatementRunsEitherWayAndASessionKeepsItsConnection() async throws {
        try await TestDatabase.withPostgres { made in
            try await withPool(made.url) { pool in
                #expect(pool.queryLogLevel == nil)
                #expect(pool.dialect.name == "postgresql")
                let answer = try await pool.raw("SELECT 41 + 1 AS answer").all().first?.decode(
                    column: "answer", as: Int.self)
                #expect(answer == 42)
                let rows = LockedRows()
                try await pool.execute(sql: SQLRaw("SELECT 7 AS seven")) { rows.add($0) }.get()
                #expect(try rows.first?.decode(column: "seven", as: Int.self) == 7)
                let database: any SQLDatabase = pool
                let pids = try await database.withSession { session in
                    // One connection of the pool, not the pool again (SQLKit's default session).
                    #expect(!(session is PostgresPool))
                    var pids: [Int] = []
                    for _ in 0..<3 {
                        let row = try await session.raw("SELECT pg_backend_pid() AS pid").first()
                        pids.append(try row?.decode(column: "pid", as: Int.self) ?? 0)
                    }
                    return pids
                }
                #expect(Set(pids).count == 1 && pids[0] != 0)
            }
        }
    }

    /// Runs `body` with a pool on the database `url`, stopped however `body` ends.
    func withPool(_ url: String, deadline: Duration = .seconds(10), _ body: (PostgresPool) async throws -> Void)
        async throws
    {
        let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        let client = PostgresClient(configuration: try PostgresClient.Configuration(configuration))
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await body(PostgresPool(client: client, logger: Logger(label: "test"), deadline: deadline))
    }
}

/// Whether something happened, set from another task.
final class Flag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }

    var isSet: Bool { value.withLock { $0 } }
}

/// Rows collected from a callback that may run on another thread.
final class LockedRows: Sendable {
    private let rows = Mutex<[any SQLRow]>([])

    func add(_ row: any SQLRow) { rows.withLock { $0.append(row) } }

    var first: (any SQLRow)? { rows.withLock { $0.first } }
}
