import SQLKit

/// The rows of the accounts' tables as `Codable` values, written and read through SQLKit's
/// builders: a column is named once, by its property (`passwordHash` is `password_hash`).
extension AccountStore {
    /// How a row's properties become columns: in snake case; `nil` as `NULL`.
    static let columns = SQLQueryEncoder(keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil)
    /// How columns become a row's properties.
    static let rows = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// A row of a table: a value of the accounts' model and the columns the table keeps beside it
    /// (an address's key, the client a session began from, a token's digest), read and written
    /// as one row.
    struct Row<Value: Codable, Beside: Codable>: Codable {
        var value: Value
        var beside: Beside

        init(_ value: Value, _ beside: Beside) {
            self.value = value
            self.beside = beside
        }

        init(from decoder: any Decoder) throws {
            value = try Value(from: decoder)
            beside = try Beside(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            try beside.encode(to: encoder)
        }
    }

    /// Every column of `sessions`, for a statement that reads or returns a session.
    static let sessionColumns = ["digest", "account_id", "form_token", "created_at", "seen_at", "client"]

    /// `accounts`' key of the address (``AccountStore/key(_:)``), unique.
    struct EmailKey: Codable {
        var emailKey: String
    }

    /// `sessions`' client, the address a session began from.
    struct SessionClient: Codable {
        var client: String?
    }

    /// `api_tokens`' digest of the secret (the secret is never kept).
    struct TokenDigest: Codable {
        var digest: String
    }

    /// `invites`, as an invitation is made.
    struct InviteRow: Codable {
        var digest: String
        var accountId: String
        var createdAt: Int64
    }

    /// `shares`.
    struct ShareRow: Codable {
        var ownerId: String
        var trip: String
        var memberId: String
        var role: ShareRole
        var createdAt: Int64
    }
}
