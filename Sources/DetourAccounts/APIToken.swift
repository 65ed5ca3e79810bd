/// What an API token may do.
public enum TokenScope: String, Sendable, CaseIterable, Codable {
    /// Read every page, format, feed and the API.
    case read
    /// Read, and write through the API (`PUT`, `DELETE`).
    case write
    /// Read calendar feeds (`.ics`) only, sent in the feed's address, where calendar programs
    /// can send no header.
    case feed
}

/// An API token as the account's page lists it: never the secret, which is shown once when made.
public struct APIToken: Sendable, Equatable, Codable {
    /// 8 random bytes in hex: what revokes it.
    public let id: String
    public let accountID: String
    /// The name its owner gave it ("backup script").
    public let name: String
    public let scope: TokenScope
    public let createdAt: Int64
    /// When it stops working, or `nil` for never.
    public let expiresAt: Int64?
    /// When it was last used, or `nil`.
    public let usedAt: Int64?

    /// The columns of `api_tokens` it is read from and written to.
    enum CodingKeys: String, CodingKey {
        case id, name, scope, createdAt, expiresAt, usedAt
        case accountID = "accountId"
    }

    /// Whether it works at `time`.
    public func isLive(at time: Int64) -> Bool {
        guard let expiresAt else { return true }
        return time < expiresAt
    }

    /// How long a token's last use stands before a request writes it again, in seconds: a
    /// script's every request is no write.
    public static let useInterval: Int64 = 60

    /// The prefix of every token's text, so that a leaked one is recognised (secret scanners).
    public static let prefix = "dtr_"
    /// The longest name.
    public static let longestName = 100
}
