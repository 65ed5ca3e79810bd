import DetourCore
import SQLKit

extension AccountStore: TokenRepository {
    /// Makes a token for the account: its secret (shown once, never stored) and what is kept.
    public func makeToken(accountID: String, name: String, scope: TokenScope, expiresAt: Int64?)
        async throws(AccountFailure) -> (SecretToken, APIToken)
    {
        let secret = SecretToken.random(prefix: APIToken.prefix)
        let token = APIToken(
            id: SecretToken.randomHex(count: 8), accountID: accountID, name: name, scope: scope, createdAt: now(),
            expiresAt: expiresAt, usedAt: nil)
        try await attempt {
            try await database.raw(
                """
                INSERT INTO api_tokens (id, account_id, name, scope, digest, created_at, expires_at) \
                VALUES (\(bind: token.id), \(bind: accountID), \(bind: name), \(bind: scope.rawValue), \
                \(bind: secret.digest), \(bind: token.createdAt), \(bind: expiresAt))
                """
            ).run()
        }
        return (secret, token)
    }

    static let tokenColumns = "id, account_id, name, scope, created_at, expires_at, used_at"

    static func token(_ row: any SQLRow) throws -> APIToken {
        let scope = try row.decode(column: "scope", as: String.self)
        guard let known = TokenScope(rawValue: scope) else {
            throw AccountFailure.database("a token of scope \(scope)")
        }
        return APIToken(
            id: try row.decode(column: "id", as: String.self),
            accountID: try row.decode(column: "account_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            scope: known,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64?.self),
            usedAt: try row.decode(column: "used_at", as: Int64?.self))
    }

    /// The account's tokens, newest first.
    public func tokens(accountID: String) async throws(AccountFailure) -> [APIToken] {
        try await attempt {
            try await database.raw(
                """
                SELECT \(unsafeRaw: AccountStore.tokenColumns) FROM api_tokens \
                WHERE account_id = \(bind: accountID) ORDER BY created_at DESC, id
                """
            ).all().map(AccountStore.token)
        }
    }

    /// The live token whose secret is `secret`, marked as used now; `nil` when there is none, it
    /// was revoked, or it has expired.
    public func token(_ secret: SecretToken) async throws(AccountFailure) -> APIToken? {
        let time = now()
        return try await attempt { () async throws -> APIToken? in
            guard
                let row = try await database.raw(
                    """
                    SELECT \(unsafeRaw: AccountStore.tokenColumns) FROM api_tokens \
                    WHERE digest = \(bind: secret.digest)
                    """
                ).first()
            else { return nil }
            let token = try AccountStore.token(row)
            guard token.isLive(at: time) else { return nil }
            // The last use is written at most once a minute: a script's every request is no write.
            if (token.usedAt ?? 0) <= time - 60 {
                try await database.raw("UPDATE api_tokens SET used_at = \(bind: time) WHERE id = \(bind: token.id)")
                    .run()
            }
            return token
        }
    }

    /// Revokes the account's token `id`; false when the account has none such.
    public func revokeToken(accountID: String, id: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.raw(
                "DELETE FROM api_tokens WHERE account_id = \(bind: accountID) AND id = \(bind: id) RETURNING id"
            ).all().isEmpty
        }
    }

    /// Revokes every token of the account; returns how many.
    ///
    /// A password changed or reset, and the sessions ended from the command line, end them:
    /// whoever took an account over may have made one.
    public func revokeTokens(accountID: String) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.raw("DELETE FROM api_tokens WHERE account_id = \(bind: accountID) RETURNING id").all()
                .count
        }
    }
}
