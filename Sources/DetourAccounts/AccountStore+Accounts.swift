import DetourCore
import SQLKit

extension AccountStore: AccountRepository {
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

    static let accountColumns = "id, email, password_hash, created_at"

    static func account(_ row: any SQLRow) throws -> Account {
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
}
