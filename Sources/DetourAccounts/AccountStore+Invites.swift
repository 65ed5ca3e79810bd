import DetourCore
import SQLKit

extension AccountStore: InviteRepository {
    /// How long an invitation code can be used.
    public static let inviteLifetime: Int64 = 7 * 86400

    /// A new one-use invitation code made by the account.
    public func makeInvite(accountID: String) async throws(AccountFailure) -> SecretToken {
        let code = SecretToken.random(prefix: "inv_")
        let time = now()
        let row = InviteRow(digest: code.digest, accountId: accountID, createdAt: time)
        try await attempt {
            try await database.insert(into: "invites").model(row, with: AccountStore.columns).run()
        }
        return code
    }

    /// Uses the invitation `code`: true when it was unused and within its lifetime, and it is
    /// used now (by this call alone, however many race for it).
    public func useInvite(_ code: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return try await attempt {
            try await !database.update("invites").set("used_at", to: time).where("digest", .equal, code.digest)
                .where("used_at", .is, SQLLiteral.null).where(
                    "created_at", .greaterThan, time - AccountStore.inviteLifetime
                )
                .returning("digest").all().isEmpty
        }
    }
}
