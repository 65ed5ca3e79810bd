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
        let row = Row(token, TokenDigest(digest: secret.digest))
        try await attempt {
            try await database.insert(into: "api_tokens").model(row, with: AccountStore.columns).run()
        }
        return (secret, token)
    }

    /// `SELECT` of every column of `api_tokens`.
    private func selectTokens() -> SQLSelectBuilder {
        database.select().columns("id", "account_id", "name", "scope", "digest", "created_at", "expires_at", "used_at")
            .from("api_tokens")
    }

    /// The account's tokens, newest first.
    public func tokens(accountID: String) async throws(AccountFailure) -> [APIToken] {
        try await attempt {
            try await selectTokens().where("account_id", .equal, accountID).orderBy("created_at", .descending)
                .orderBy("id").all(decoding: APIToken.self, with: AccountStore.rows)
        }
    }

    /// The live token whose secret is `secret`, marked as used now; `nil` when there is none, it
    /// was revoked, or it has expired.
    public func token(_ secret: SecretToken) async throws(AccountFailure) -> APIToken? {
        let time = now()
        return try await attempt { () async throws -> APIToken? in
            guard
                let token = try await selectTokens().where("digest", .equal, secret.digest)
                    .first(decoding: APIToken.self, with: AccountStore.rows),
                token.isLive(at: time)
            else { return nil }
            // The last use is written at most once a minute: a script's every request is no write.
            if (token.usedAt ?? 0) <= time - APIToken.useInterval {
                try await markUsed(token.id, at: time)
            }
            return token
        }
    }

    /// Marks the token `id` used at `time`, unless its last use is within ``APIToken/useInterval`` of
    /// `time` already.
    ///
    /// The condition is the statement's own, so nothing is decided on what an earlier statement
    /// read: two requests at once, or one whose read is older than another's write, never move
    /// the last use back, and the lookup needs no transaction (which a pool of connections could
    /// not keep on one connection without holding it).
    func markUsed(_ id: String, at time: Int64) async throws {
        try await database.update("api_tokens").set("used_at", to: time).where("id", .equal, id)
            .where {
                $0.where("used_at", .is, SQLLiteral.null).orWhere(
                    "used_at", .lessThanOrEqual, time - APIToken.useInterval)
            }
            .run()
    }

    /// Revokes the account's token `id`; false when the account has none such.
    public func revokeToken(accountID: String, id: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.delete(from: "api_tokens").where("account_id", .equal, accountID).where(
                "id", .equal, id
            )
            .returning("id").all().isEmpty
        }
    }

    /// Revokes every token of the account; returns how many.
    ///
    /// A password changed or reset, and the sessions ended from the command line, end them:
    /// whoever took an account over may have made one.
    public func revokeTokens(accountID: String) async throws(AccountFailure) -> Int {
        try await attempt {
            try await database.delete(from: "api_tokens").where("account_id", .equal, accountID).returning("id").all()
                .count
        }
    }
}
