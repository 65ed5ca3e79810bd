import DetourCore
import Testing

/// What `--database` takes: an SQLite file or a PostgreSQL address, and nothing else.
@Suite struct DatabaseURLTests {
    @Test func anSQLiteFileIsNamedBySQLiteAndItsPath() {
        #expect(DatabaseURL("sqlite:/srv/trips/accounts.sqlite") == .sqlite(path: "/srv/trips/accounts.sqlite"))
        #expect(DatabaseURL("sqlite:relative/a.sqlite") == .sqlite(path: "relative/a.sqlite"))
        #expect(DatabaseURL("sqlite:") == nil)
    }

    @Test(arguments: [
        "postgres://detour@db.example.org/trips", "postgresql://detour:pw@db:5433/trips?sslmode=require",
        "postgres+uds://detour@localhost/run/postgresql/.s.PGSQL.5432#trips", "POSTGRES://detour@db/trips",
        "postgresql+tcp://detour@db/trips", "postgresql+uds://detour@localhost/tmp/.s.PGSQL.5432#trips",
    ])
    func aPostgresAddressIsTakenAsItIs(_ text: String) {
        #expect(DatabaseURL(text) == .postgres(url: text))
    }

    @Test(arguments: [
        "", "accounts.sqlite", "/srv/accounts.sqlite", "mysql://detour@db/trips", "postgres:detour@db/trips",
        "postgres//detour@db", "sqlite", "http://db/trips", "postgres+ssh://detour@db/trips",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(DatabaseURL(text) == nil)
    }
}
