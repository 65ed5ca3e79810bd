import DetourCore
import SQLKit

extension AccountStore: AuditRepository {
    /// Adds an event to the audit log, at the store's now.
    public func record(_ event: String, email: String?, client: String?, detail: String?)
        async throws(AccountFailure)
    {
        let key = email.map(AccountStore.key)
        let time = now()
        let row = AuditRow(at: time, emailKey: key, event: event, client: client, detail: detail)
        try await attempt {
            try await database.insert(into: "audit").model(row, with: AccountStore.columns).run()
        }
    }

    /// The audit log of an address, oldest first.
    public func audit(email: String) async throws(AccountFailure) -> [AuditEntry] {
        try await attempt {
            try await database.select().columns("at", "email_key", "event", "client", "detail").from("audit")
                .where("email_key", .equal, AccountStore.key(email)).orderBy("id")
                .all(decoding: AuditRow.self, with: AccountStore.rows).map { row in
                    AuditEntry(
                        at: row.at, event: row.event, email: row.emailKey, client: row.client, detail: row.detail)
                }
        }
    }
}
