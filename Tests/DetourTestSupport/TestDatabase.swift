import Foundation
import Logging
import PostgresKit
import PostgresNIO

/// The databases the accounts' tests run against: SQLite always, and PostgreSQL where one is given
/// by `DETOUR_TEST_POSTGRES` (`.ci/postgres start` starts one and prints it) and always under CI,
/// where a missing server fails the PostgreSQL tests instead of leaving them out.
///
/// ```swift
/// @Test(arguments: TestDatabase.all) func something(_ database: TestDatabase) async throws {
///     try await database.withURL { url in … }
/// }
/// ```
public enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    /// The environment variable with the address of a PostgreSQL server the tests may make
    /// databases on (as `--database` takes it, naming a database that exists, such as `postgres`).
    public static let variable = "DETOUR_TEST_POSTGRES"

    /// The server's address, or `nil`.
    public static var server: String? { ProcessInfo.processInfo.environment[variable] }

    /// SQLite, and PostgreSQL when a server is given or every test must run.
    public static var all: [TestDatabase] {
        CI.runs(whenAvailable: server != nil) ? allCases : [.sqlite]
    }

    public var description: String { rawValue }

    /// Runs `body` with a new, empty database of this kind.
    ///
    /// `body` gets its `--database` value, or `nil` for the SQLite file in the served folder (the
    /// default). A PostgreSQL database is dropped after.
    public func withURL<Value>(_ body: (String?) async throws -> Value) async throws -> Value {
        guard self == .postgres else { return try await body(nil) }
        return try await TestDatabase.withPostgres { try await body($0.url) }
    }

    /// Runs `body` with a new PostgreSQL database (its name, and its address), dropped after
    /// however `body` ends.
    public static func withPostgres<Value>(_ body: ((name: String, url: String)) async throws -> Value)
        async throws -> Value
    {
        let made = try await makePostgres()
        do {
            let value = try await body(made)
            try await dropPostgres(made.name)
            return value
        } catch {
            try? await dropPostgres(made.name)
            throw error
        }
    }

    /// A new database on the server: its name, and the server's address with that name in it.
    public static func makePostgres() async throws -> (name: String, url: String) {
        guard let server else {
            throw TestDatabaseFailure(
                "\(variable) is not set: start a server with `eval \"$(bash .ci/postgres start)\"`")
        }
        let name = "detour_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(server) { connection in
            // Text sorted by a locale (ICU's en-US), not by bytes as SQLite sorts it: an order
            // left to the database shows up as a difference between the two.
            _ = try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "CREATE DATABASE \(name) TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
                ), logger: logger)
        }
        return (name, renamed(server, to: name))
    }

    /// Drops the database `name`, closing whatever is still connected to it.
    public static func dropPostgres(_ name: String) async throws {
        guard let server else { return }
        try await administer(server) { connection in
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        }
    }

    /// The address `url` naming the database `name` instead: the fragment of a `+uds` address,
    /// else the path.
    static func renamed(_ url: String, to name: String) -> String {
        if let hash = url.lastIndex(of: "#") { return url[...hash] + name }
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/" + name
        return components.string ?? url
    }

    private static let logger = Logger(label: "detour-report.test-database")

    /// Runs `body` on a connection of its own to the database `url` names.
    public static func administer(_ url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
        let configuration = try SQLPostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(
            configuration: configuration.coreConfiguration, id: 0, logger: logger)
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}

/// Why a test database could not be made.
public struct TestDatabaseFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
