import SQLKit

/// The accounts' schema, one numbered step at a time: a database records the steps it has had in
/// `detour_schema`, and opening it applies the rest, in order, in one transaction.
///
/// A step is never edited once released: a change to the schema is a new step. Statements are
/// SQLKit's, so that each database (SQLite, PostgreSQL) gets them in its own dialect.
enum Migrations {
    /// One step: its number and what it does.
    struct Step: Sendable {
        let version: Int
        let apply: @Sendable (any SQLDatabase) async throws -> Void
    }

    /// Every step, oldest first.
    static let steps: [Step] = [
        Step(version: 1) { database in
            try await database.create(table: "accounts")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("email", type: .text, .notNull)
                // The address in lower case: one account per address, however it is typed.
                .column("email_key", type: .text, .notNull, .unique)
                .column("password_hash", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .run()
            // Only a session id's SHA-256 is kept.
            try await database.create(table: "sessions")
                .column("digest", type: .text, .primaryKey(autoIncrement: false))
                .column("account_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("form_token", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("seen_at", type: .bigint, .notNull)
                .column("client", type: .text)
                .run()
            try await database.create(index: "sessions_account").on("sessions").column("account_id").run()
            // The audit log outlives the accounts it names, so it keeps their address.
            try await database.create(table: "audit")
                .column("id", type: .bigint, .primaryKey)
                .column("at", type: .bigint, .notNull)
                .column("email_key", type: .text)
                .column("event", type: .text, .notNull)
                .column("client", type: .text)
                .column("detail", type: .text)
                .run()
            try await database.create(index: "audit_email").on("audit").column("email_key").run()
        },
        Step(version: 2) { database in
            // Failed logins, one row each, by what they count against: an address
            // (`account:EMAIL`) or a client (`client:ADDRESS`). Rows older than the throttle's
            // window are deleted as new ones come.
            try await database.create(table: "login_failures")
                .column("id", type: .bigint, .primaryKey)
                .column("key", type: .text, .notNull)
                .column("at", type: .bigint, .notNull)
                .run()
            try await database.create(index: "login_failures_key").on("login_failures").column("key").column("at")
                .run()
            // One-use invitation codes (`--registration invite`), kept as SHA-256.
            try await database.create(table: "invites")
                .column("digest", type: .text, .primaryKey(autoIncrement: false))
                .column("account_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("created_at", type: .bigint, .notNull)
                .column("used_at", type: .bigint)
                .run()
        },
        Step(version: 3) { database in
            // API and feed tokens, kept as SHA-256; `id` names one on the account's page.
            try await database.create(table: "api_tokens")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("account_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("name", type: .text, .notNull)
                .column("scope", type: .text, .notNull)
                .column("digest", type: .text, .notNull, .unique)
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint)
                .column("used_at", type: .bigint)
                .run()
        },
        Step(version: 4) { database in
            // Trips shared with other accounts: the owner, the trip's name in the owner's folder,
            // the member and what the member may do.
            try await database.create(table: "shares")
                .column("owner_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("trip", type: .text, .notNull)
                .column("member_id", type: .text, .notNull, .references("accounts", "id", onDelete: .cascade))
                .column("role", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .primaryKey("owner_id", "trip", "member_id")
                .run()
            try await database.create(index: "shares_member").on("shares").column("member_id").run()
        },
    ]

    /// The newest version.
    static var latest: Int { steps.last?.version ?? 0 }

    /// Applies the steps `database` lacks; returns the versions applied.
    ///
    /// `begin` opens a transaction that holds the database's write lock (SQLite's
    /// `BEGIN IMMEDIATE`; PostgreSQL's `BEGIN` and an advisory lock), so two servers starting at
    /// once apply each step once.
    static func apply(to database: any SQLDatabase, begin: [String], now: Int64) async throws -> [Int] {
        // One transaction for all of it, the table of versions included: a statement that writes
        // outside it could wait on a lock that another server's transaction waits on in turn.
        try await Migrations.transaction(database, begin: begin) { database in
            try await database.create(table: "detour_schema")
                .ifNotExists()
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("applied_at", type: .bigint, .notNull)
                .run()
            let rows = try await database.select().column("version").from("detour_schema").all()
            let done = Set(try rows.map { try $0.decode(column: "version", as: Int.self) })
            var applied: [Int] = []
            for step in steps where !done.contains(step.version) {
                try await step.apply(database)
                try await database.insert(into: "detour_schema").columns("version", "applied_at")
                    .values(SQLBind(step.version), SQLBind(now)).run()
                applied.append(step.version)
            }
            return applied
        }
    }

    /// Runs `body` between the statements `begin` and `COMMIT`, rolled back when it throws.
    ///
    /// These are the only raw statements of the accounts' store: SQLKit has no builder for a
    /// transaction's own statements (`BEGIN IMMEDIATE` for SQLite, PostgreSQL's advisory lock),
    /// and they carry no values.
    static func transaction<Value: Sendable>(
        _ database: any SQLDatabase, begin: [String], _ body: @Sendable (any SQLDatabase) async throws -> Value
    ) async throws -> Value {
        do {
            for statement in begin {
                try await database.raw(SQLQueryString(statement)).run()
            }
            let value = try await body(database)
            try await database.raw("COMMIT").run()
            return value
        } catch {
            try? await database.raw("ROLLBACK").run()
            throw error
        }
    }
}
