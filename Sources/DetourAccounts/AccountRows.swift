import SQLKit

/// The rows of the accounts' tables as `Codable` values, written and read through SQLKit's
/// builders: a column is named once, by its property (`passwordHash` is `password_hash`).
extension AccountStore {
    /// How a row's properties become columns: in snake case; `nil` as `NULL`.
    static let columns = SQLQueryEncoder(keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil)
    /// How columns become a row's properties.
    static let rows = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// `accounts`.
    struct AccountRow: Codable {
        var id: String
        var email: String
        var emailKey: String
        var passwordHash: String
        var createdAt: Int64

        var account: Account { Account(id: id, email: email, passwordHash: passwordHash, createdAt: createdAt) }
    }

    /// `sessions`.
    struct SessionRow: Codable {
        var digest: String
        var accountId: String
        var formToken: String
        var createdAt: Int64
        var seenAt: Int64
        var client: String?
    }

    /// Every column of `sessions`, for a statement that reads or returns a session.
    static let sessionColumns = ["digest", "account_id", "form_token", "created_at", "seen_at", "client"]

    /// `api_tokens`: what is kept of a token (its secret's digest, never the secret).
    struct TokenRow: Codable {
        var id: String
        var accountId: String
        var name: String
        var scope: String
        var digest: String
        var createdAt: Int64
        var expiresAt: Int64?
        var usedAt: Int64?

        func token() throws(AccountFailure) -> APIToken {
            guard let known = TokenScope(rawValue: scope) else { throw .database("a token of scope \(scope)") }
            return APIToken(
                id: id, accountID: accountId, name: name, scope: known, createdAt: createdAt, expiresAt: expiresAt,
                usedAt: usedAt)
        }
    }

    /// `invites`, as an invitation is made.
    struct InviteRow: Codable {
        var digest: String
        var accountId: String
        var createdAt: Int64
    }

    /// `audit`.
    struct AuditRow: Codable {
        var at: Int64
        var emailKey: String?
        var event: String
        var client: String?
        var detail: String?
    }

    /// `shares`.
    struct ShareRow: Codable {
        var ownerId: String
        var trip: String
        var memberId: String
        var role: String
        var createdAt: Int64
    }

    /// A share with the address of its member, or of its owner.
    struct ShareListed: Codable {
        var ownerId: String
        var email: String
        var trip: String
        var role: String
    }

    /// The role a share's row holds.
    static func shareRole(_ text: String) throws(AccountFailure) -> ShareRole {
        guard let known = ShareRole(rawValue: text) else { throw .database("a share of role \(text)") }
        return known
    }
}
