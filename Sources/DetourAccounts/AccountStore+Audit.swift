import DetourCore
import SQLKit

extension AccountStore: AuditRepository {
    /// Adds an event to the audit log, at the store's now.
    public func record(_ event: String, email: String?, client: String?, detail: String?)
        async throws(AccountFailure)
    {
        let key = email.map(AccountStore.key)
        let time = now()
        let row = AuditEntry(at: time, event: event, email: key, client: client, detail: detail)
        try await attempt {
            try await database.insert(into: "audit").model(row, with: AccountStore.columns).run()
        }
    }

    /// The audit log of an address, oldest first.
    public func audit(email: String) async throws(AccountFailure) -> [AuditEntry] {
        try await attempt {
            try await database.select().columns("at", "email_key", "event", "client", "detail").from("audit")
                .where("email_key", .equal, AccountStore.key(email)).orderBy("id")
                .all(decoding: AuditEntry.self, with: AccountStore.rows)
        }
    }
}
