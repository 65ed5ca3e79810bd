import DetourCore
import SQLKit

extension AccountStore: AuditRepository {
    /// Adds an event to the audit log, at the store's now.
    public func record(_ event: String, email: String?, client: String?, detail: String?)
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
