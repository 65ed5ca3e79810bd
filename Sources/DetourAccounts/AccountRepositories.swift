import DetourCore

// The accounts' persistence, one protocol per concern. `AccountStore` is each of them on SQLite or
// PostgreSQL; the server's tests also use an in-memory double. A handler takes the concerns it
// uses, so a test of a rule needs no database.

/// The accounts: who signs in, with which password hash.
public protocol AccountRepository: Sendable {
    /// Now, in seconds since 1970: the time every record is made, used and expired at.
    var now: @Sendable () -> Int64 { get }
    /// Makes an account for `email` (kept normalized) with a password's hash;
    /// ``AccountFailure/emailTaken(_:)`` when the address has one.
    func addAccount(email: String, passwordHash: String) async throws(AccountFailure) -> Account
    /// The account with the address `email` (in any case), or `nil`.
    func account(email: String) async throws(AccountFailure) -> Account?
    /// The account with the id `id`, or `nil`.
    func account(id: String) async throws(AccountFailure) -> Account?
    /// Every account, by address.
    func accounts() async throws(AccountFailure) -> [Account]
    /// Removes the account and its sessions; false when there was none.
    func removeAccount(id: String) async throws(AccountFailure) -> Bool
    /// Replaces the account's password hash.
    func setPasswordHash(accountID: String, _ hash: String) async throws(AccountFailure)
}

/// Signed-in sessions: begun, found (and marked used), listed and ended.
public protocol SessionRepository: Sendable {
    /// Begins a session for the account; returns its id, which only the client keeps.
    func beginSession(accountID: String, client: String?) async throws(AccountFailure) -> (SecretToken, Session)
    /// The live session whose id is `token`, marked as used now; `nil` when there is none or it
    /// has expired (an expired one is deleted).
    func session(_ token: SecretToken) async throws(AccountFailure) -> Session?
    /// Whether the session whose id is `token` is live, without marking it used: an open preview
    /// asking again does not keep an idle session alive.
    func sessionIsLive(_ token: SecretToken) async throws(AccountFailure) -> Bool
    /// Ends the session whose id is `token` (logging out).
    func endSession(_ token: SecretToken) async throws(AccountFailure)
    /// Ends every session of the account but the one with the digest `keeping`; returns how many.
    func endSessions(accountID: String, keeping: String?) async throws(AccountFailure) -> Int
    /// How many live sessions the account has.
    func sessionCount(accountID: String) async throws(AccountFailure) -> Int
    /// The account's live sessions, the one used last first.
    func sessions(accountID: String) async throws(AccountFailure) -> [SessionSummary]
    /// Ends the account's session whose digest begins with `handle` (what the account page shows);
    /// false when it has none.
    func endSession(accountID: String, handle: String) async throws(AccountFailure) -> Bool
}

/// Failed logins, counted against keys (an address, a client) within the throttle's window.
public protocol ThrottleRepository: Sendable {
    /// Counts a failed login against each of `keys`, and forgets failures older than the
    /// throttle's window.
    func recordFailure(keys: [String]) async throws(AccountFailure)
    /// The times of the failures counted against `key` within the throttle's window.
    func failures(key: String) async throws(AccountFailure) -> [Int64]
    /// Forgets the failures counted against `key` (after a login that succeeded).
    func clearFailures(key: String) async throws(AccountFailure)
}

/// One-use invitation codes.
public protocol InviteRepository: Sendable {
    /// A new one-use invitation code made by the account.
    func makeInvite(accountID: String) async throws(AccountFailure) -> SecretToken
    /// Uses the invitation `code`: true when it was unused and within its lifetime, and it is
    /// used now (by this call alone, however many race for it).
    func useInvite(_ code: SecretToken) async throws(AccountFailure) -> Bool
}

/// API tokens: made, listed, found by their secret (and marked used), revoked.
public protocol TokenRepository: Sendable {
    /// Makes a token for the account: its secret (shown once, never stored) and what is kept.
    func makeToken(accountID: String, name: String, scope: TokenScope, expiresAt: Int64?) async throws(AccountFailure)
        -> (SecretToken, APIToken)
    /// The account's tokens, newest first.
    func tokens(accountID: String) async throws(AccountFailure) -> [APIToken]
    /// The live token whose secret is `secret`, marked as used now; `nil` when there is none, it
    /// was revoked, or it has expired.
    func token(_ secret: SecretToken) async throws(AccountFailure) -> APIToken?
    /// Revokes the account's token `id`; false when the account has none such.
    func revokeToken(accountID: String, id: String) async throws(AccountFailure) -> Bool
    /// Revokes every token of the account; returns how many.
    func revokeTokens(accountID: String) async throws(AccountFailure) -> Int
}

/// Trips shared by their owner with other accounts, each as viewer or editor.
public protocol ShareRepository: Sendable {
    /// Shares the owner's trip `trip` with `memberID` as `role` (or changes the role).
    func share(ownerID: String, trip: String, memberID: String, role: ShareRole) async throws(AccountFailure)
    /// Stops sharing the trip with `memberID`; false when it was not shared with it.
    func unshare(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> Bool
    /// The members of the owner's trip, by address.
    func members(ownerID: String, trip: String) async throws(AccountFailure) -> [Member]
    /// What `memberID` may do with the owner's trip `trip`, or `nil` when it is not shared with it.
    func role(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> ShareRole?
    /// The trips shared with `memberID`, by owner and name.
    func sharedTrips(memberID: String) async throws(AccountFailure) -> [SharedTrip]
}

/// The audit log.
public protocol AuditRepository: Sendable {
    /// Adds an event to the audit log, at the store's now.
    func record(_ event: String, email: String?, client: String?, detail: String?) async throws(AccountFailure)
    /// The audit log of an address, oldest first.
    func audit(email: String) async throws(AccountFailure) -> [AuditEntry]
}

/// Every concern of the accounts' persistence.
public typealias AccountRepositories = AccountRepository & AuditRepository & InviteRepository & SessionRepository
    & ShareRepository & ThrottleRepository & TokenRepository

extension SessionRepository {
    /// Ends every session of the account; returns how many.
    public func endSessions(accountID: String) async throws(AccountFailure) -> Int {
        try await endSessions(accountID: accountID, keeping: nil)
    }
}

extension AuditRepository {
    /// Adds an event without a detail to the audit log.
    public func record(_ event: String, email: String?, client: String?) async throws(AccountFailure) {
        try await record(event, email: email, client: client, detail: nil)
    }
}
