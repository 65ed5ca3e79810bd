import DetourCore
import SQLKit

extension AccountStore: SessionRepository {
    /// Begins a session for the account; returns its id, which only the client keeps.
    public func beginSession(accountID: String, client: String?) async throws(AccountFailure) -> (
        SecretToken, Session
    ) {
        let token = SecretToken.random()
        let time = now()
        let session = Session(
            digest: token.digest, accountID: accountID, formToken: SecretToken.random().text, createdAt: time,
            seenAt: time)
        let row = Row(session, SessionClient(client: client))
        try await attempt {
            try await database.insert(into: "sessions").model(row, with: AccountStore.columns).run()
        }
        return (token, session)
    }

    /// The live session whose id is `token`, marked as used now; `nil` when there is none or it
    /// has expired (an expired one is deleted).
    ///
    /// One statement finds and marks it, so that no other request's statement comes between
    /// the two on a pool of connections; an expired session never lives again, so deleting one
    /// after it needs no transaction.
    public func session(_ token: SecretToken) async throws(AccountFailure) -> Session? {
        let digest = token.digest
        let time = now()
        return try await attempt { () async throws -> Session? in
            // isLive's rule, in SQL.
            guard
                let use = try await database.update("sessions").set("seen_at", to: time).where("digest", .equal, digest)
                    .where("seen_at", .greaterThan, time - SessionLifetime.idle)
                    .where("created_at", .greaterThan, time - SessionLifetime.absolute)
                    .returning(AccountStore.sessionColumns.map { SQLColumn($0) })
                    .first(decoding: Session.self, with: AccountStore.rows)
            else {
                try await database.delete(from: "sessions").where("digest", .equal, digest).run()
                return nil
            }
            return use
        }
    }

    /// Whether the session whose id is `token` is live, without marking it used: an open preview
    /// asking again does not keep an idle session alive.
    public func sessionIsLive(_ token: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt { () async throws -> Bool in
            guard
                let found = try await database.select().columns(AccountStore.sessionColumns).from("sessions")
                    .where("digest", .equal, token.digest).first(decoding: Session.self, with: AccountStore.rows)
            else { return false }
            return time - found.seenAt < SessionLifetime.idle && time - found.createdAt < SessionLifetime.absolute
        }
    }

    /// Whether `session` is still live at `time`: used within the idle lifetime, and begun within
    /// the absolute one.
    public static func isLive(_ session: Session, at time: Int64) -> Bool {
        time - session.seenAt < SessionLifetime.idle && time - session.createdAt < SessionLifetime.absolute
    }

    /// Ends the session whose id is `token` (logging out).
    public func endSession(_ token: SecretToken) async throws(AccountFailure) {
        try await attempt {
            try await database.delete(from: "sessions").where("digest", .equal, token.digest).run()
        }
    }

    /// Ends every session of the account but the one with the digest `keeping`; returns how many.
    public func endSessions(accountID: String, keeping: String?) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.delete(from: "sessions").where("account_id", .equal, accountID)
                .where("digest", .notEqual, keeping ?? "").returning("digest").all().count
        }
    }

    /// How many live sessions the account has.
    public func sessionCount(accountID: String) async throws(AccountFailure) -> Int {
        try await sessions(accountID: accountID).count
    }

    /// The account's live sessions, the one used last first.
    public func sessions(accountID: String) async throws(AccountFailure) -> [SessionSummary] {
        let time = now()
        // isLive's rule, in SQL.
        return try await attempt {
            try await database.select().columns(AccountStore.sessionColumns).from("sessions")
                .where("account_id", .equal, accountID).where("seen_at", .greaterThan, time - SessionLifetime.idle)
                .where("created_at", .greaterThan, time - SessionLifetime.absolute).orderBy("seen_at", .descending)
                .orderBy("digest").all(decoding: SessionSummary.self, with: AccountStore.rows)
        }
    }

    /// Ends the account's session whose digest begins with `handle` (what the account page shows);
    /// false when it has none.
    public func endSession(accountID: String, handle: String) async throws(AccountFailure) -> Bool {
        guard handle.count == SessionSummary.handleLength, handle.allSatisfy(\.isHexDigit) else { return false }
        return try await attempt {
            let prefix = SQLFunction(
                "substr", args: SQLColumn("digest"), SQLLiteral.numeric("1"),
                SQLLiteral.numeric(String(SessionSummary.handleLength)))
            return try await !database.delete(from: "sessions").where("account_id", .equal, accountID)
                .where(prefix, .equal, SQLBind(handle)).returning("digest").all().isEmpty
        }
    }
}
