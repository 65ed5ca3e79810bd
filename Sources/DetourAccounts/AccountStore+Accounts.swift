import DetourCore
import SQLKit

extension AccountStore: AccountRepository {
    /// Makes an account for `email` (kept normalized) with a password's hash;
    /// ``AccountFailure/emailTaken(_:)`` when the address has one.
    public func addAccount(email: String, passwordHash: String) async throws(AccountFailure) -> Account {
        let email = AccountAddress.normalized(email)
        let account = Account(
            id: SecretToken.randomHex(count: 16), email: email, passwordHash: passwordHash, createdAt: now())
        let row = Row(account, EmailKey(emailKey: AccountStore.key(email)))
        let inserted: Bool = try await attempt {
            try await !database.insert(into: "accounts").model(row, with: AccountStore.columns)
                .ignoringConflicts(with: "email_key").returning("id").all().isEmpty
        }
        guard inserted else { throw .emailTaken(email) }
        return account
    }

    /// The account with the address `email` (in any case), or `nil`.
    public func account(email: String) async throws(AccountFailure) -> Account? {
        try await attempt {
            try await selectAccounts().where("email_key", .equal, AccountStore.key(email))
                .first(decoding: Account.self, with: AccountStore.rows)
        }
    }

    /// The account with the id `id`, or `nil`.
    public func account(id: String) async throws(AccountFailure) -> Account? {
        try await attempt {
            try await selectAccounts().where("id", .equal, id).first(decoding: Account.self, with: AccountStore.rows)
        }
    }

    /// Every account, by address.
    ///
    /// Lists of addresses are sorted here, not in SQL: PostgreSQL sorts text by the database's
    /// locale, and the order must not depend on where the database was made.
    public func accounts() async throws(AccountFailure) -> [Account] {
        try await attempt {
            try await selectAccounts().all(decoding: Account.self, with: AccountStore.rows)
                .sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
        }
    }

    /// `SELECT` of every column of `accounts`.
    private func selectAccounts() -> SQLSelectBuilder {
        database.select().columns("id", "email", "email_key", "password_hash", "created_at").from("accounts")
    }

    /// Removes the account and its sessions; false when there was none.
    public func removeAccount(id: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.delete(from: "accounts").where("id", .equal, id).returning("id").all().isEmpty
        }
    }

    /// Replaces the account's password hash.
    public func setPasswordHash(accountID: String, _ hash: String) async throws(AccountFailure) {
        try await attempt {
            try await database.update("accounts").set("password_hash", to: hash).where("id", .equal, accountID).run()
        }
    }
}
