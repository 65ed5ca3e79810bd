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
        try await attempt {
            try await database.raw(
                """
                INSERT INTO sessions (digest, account_id, form_token, created_at, seen_at, client)
                VALUES (\(bind: session.digest), \(bind: accountID), \(bind: session.formToken), \
                \(bind: time), \(bind: time), \(bind: client))
                """
            ).run()
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
                let row = try await database.raw(
                    """
                    UPDATE sessions SET seen_at = \(bind: time) WHERE digest = \(bind: digest) \
                    AND seen_at > \(bind: time - SessionLifetime.idle) \
                    AND created_at > \(bind: time - SessionLifetime.absolute) \
                    RETURNING account_id, form_token, created_at, seen_at
                    """
                ).first()
            else {
                try await database.raw("DELETE FROM sessions WHERE digest = \(bind: digest)").run()
                return nil
            }
            return Session(
                digest: digest, accountID: try row.decode(column: "account_id", as: String.self),
                formToken: try row.decode(column: "form_token", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                seenAt: try row.decode(column: "seen_at", as: Int64.self))
        }
    }

    /// Whether the session whose id is `token` is live, without marking it used: an open preview
    /// asking again does not keep an idle session alive.
    public func sessionIsLive(_ token: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt { () async throws -> Bool in
            guard
                let row = try await database.raw(
                    "SELECT created_at, seen_at FROM sessions WHERE digest = \(bind: token.digest)"
                ).first()
            else { return false }
            let createdAt = try row.decode(column: "created_at", as: Int64.self)
            let seenAt = try row.decode(column: "seen_at", as: Int64.self)
            return time - seenAt < SessionLifetime.idle && time - createdAt < SessionLifetime.absolute
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
            try await database.raw("DELETE FROM sessions WHERE digest = \(bind: token.digest)").run()
        }
    }

    /// Ends every session of the account but the one with the digest `keeping`; returns how many.
    public func endSessions(accountID: String, keeping: String?) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.raw(
                """
                DELETE FROM sessions WHERE account_id = \(bind: accountID) \
                AND digest <> \(bind: keeping ?? "") RETURNING digest
                """
            ).all().count
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
            try await database.raw(
                """
                SELECT digest, created_at, seen_at, client FROM sessions WHERE account_id = \(bind: accountID) \
                AND seen_at > \(bind: time - SessionLifetime.idle) \
                AND created_at > \(bind: time - SessionLifetime.absolute) ORDER BY seen_at DESC, digest
                """
            ).all().map { row in
                SessionSummary(
                    digest: try row.decode(column: "digest", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self),
                    seenAt: try row.decode(column: "seen_at", as: Int64.self),
                    client: try row.decode(column: "client", as: String?.self))
            }
        }
    }

    /// Ends the account's session whose digest begins with `handle` (what the account page shows);
    /// false when it has none.
    public func endSession(accountID: String, handle: String) async throws(AccountFailure) -> Bool {
        guard handle.count == SessionSummary.handleLength, handle.allSatisfy(\.isHexDigit) else { return false }
        return try await attempt {
            try await !database.raw(
                """
                DELETE FROM sessions WHERE account_id = \(bind: accountID) \
                AND substr(digest, 1, \(unsafeRaw: String(SessionSummary.handleLength))) = \(bind: handle) RETURNING digest
                """
            ).all().isEmpty
        }
    }
}
