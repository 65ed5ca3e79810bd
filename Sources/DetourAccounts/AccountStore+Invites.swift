import DetourCore
import SQLKit

extension AccountStore: InviteRepository {
    /// How long an invitation code can be used.
    public static let inviteLifetime: Int64 = 7 * 86400

    /// A new one-use invitation code made by the account.
    public func makeInvite(accountID: String) async throws(AccountFailure) -> SecretToken {
        let code = SecretToken.random(prefix: "inv_")
        let time = now()
        try await attempt {
            try await database.raw(
                """
                INSERT INTO invites (digest, account_id, created_at) \
                VALUES (\(bind: code.digest), \(bind: accountID), \(bind: time))
                """
            ).run()
        }
        return code
    }

    /// Uses the invitation `code`: true when it was unused and within its lifetime, and it is
    /// used now (by this call alone, however many race for it).
    public func useInvite(_ code: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt {
            try await !database.raw(
                """
                UPDATE invites SET used_at = \(bind: time) WHERE digest = \(bind: code.digest) AND used_at IS NULL \
                AND created_at > \(bind: time - AccountStore.inviteLifetime) RETURNING digest
                """
            ).all().isEmpty
        }
    }
}
