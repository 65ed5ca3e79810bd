import Synchronization

@testable import DetourAccounts

/// The accounts' persistence in memory: every concern of ``AccountRepositories`` as the database
/// keeps it, so that a test of the server's rules needs no database.
///
/// It follows `AccountStore`'s rules (an address is one account in any case and normalization,
/// removing an account removes what is its, lists are sorted the same way); the store's own tests
/// hold the database to them.
final class MemoryAccountStore: AccountRepositories {
    let now: @Sendable () -> Int64

    private struct State {
        var accounts: [String: Account] = [:]
        var sessions: [String: (session: Session, client: String?)] = [:]
        var failures: [(key: String, at: Int64)] = []
        var invites: [String: (accountID: String, createdAt: Int64, used: Bool)] = [:]
        var tokens: [String: APIToken] = [:]
        var shares: [ShareKey: (role: ShareRole, createdAt: Int64)] = [:]
        var audit: [AuditEntry] = []
    }

    private struct ShareKey: Hashable {
        let ownerID: String
        let trip: String
        let memberID: String
    }

    private let state = Mutex(State())

    init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    // MARK: accounts

    func addAccount(email: String, passwordHash: String) async throws(AccountFailure) -> Account {
        let email = AccountAddress.normalized(email)
        let account = Account(
            id: SecretToken.randomHex(count: 16), email: email, passwordHash: passwordHash, createdAt: now())
        let added = state.withLock { state in
            guard !state.accounts.values.contains(where: { AccountStore.key($0.email) == AccountStore.key(email) })
            else { return false }
            state.accounts[account.id] = account
            return true
        }
        guard added else { throw .emailTaken(email) }
        return account
    }

    func account(email: String) async throws(AccountFailure) -> Account? {
        state.withLock { $0.accounts.values.first { AccountStore.key($0.email) == AccountStore.key(email) } }
    }

    func account(id: String) async throws(AccountFailure) -> Account? {
        state.withLock { $0.accounts[id] }
    }

    func accounts() async throws(AccountFailure) -> [Account] {
        state.withLock { Array($0.accounts.values) }.sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
    }

    func removeAccount(id: String) async throws(AccountFailure) -> Bool {
        state.withLock { state in
            guard state.accounts.removeValue(forKey: id) != nil else { return false }
            state.sessions = state.sessions.filter { $0.value.session.accountID != id }
            state.tokens = state.tokens.filter { $0.value.accountID != id }
            state.invites = state.invites.filter { $0.value.accountID != id }
            state.shares = state.shares.filter { $0.key.ownerID != id && $0.key.memberID != id }
            return true
        }
    }

    func setPasswordHash(accountID: String, _ hash: String) async throws(AccountFailure) {
        state.withLock { state in
            guard let account = state.accounts[accountID] else { return }
            state.accounts[accountID] = Account(
                id: account.id, email: account.email, passwordHash: hash, createdAt: account.createdAt)
        }
    }

    // MARK: sessions

    func beginSession(accountID: String, client: String?) async throws(AccountFailure) -> (SecretToken, Session) {
        let token = SecretToken.random()
        let time = now()
        let session = Session(
            digest: token.digest, accountID: accountID, formToken: SecretToken.random().text, createdAt: time,
            seenAt: time)
        state.withLock { $0.sessions[session.digest] = (session, client) }
        return (token, session)
    }

    func session(_ token: SecretToken) async throws(AccountFailure) -> Session? {
        let time = now()
        return state.withLock { state in
            guard var found = state.sessions[token.digest] else { return nil }
            guard AccountStore.isLive(found.session, at: time) else {
                state.sessions[token.digest] = nil
                return nil
            }
            found.session.seenAt = time
            state.sessions[token.digest] = found
            return found.session
        }
    }

    func sessionIsLive(_ token: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return state.withLock { state in
            state.sessions[token.digest].map { AccountStore.isLive($0.session, at: time) } ?? false
        }
    }

    func endSession(_ token: SecretToken) async throws(AccountFailure) {
        _ = state.withLock { $0.sessions.removeValue(forKey: token.digest) }
    }

    func endSessions(accountID: String, keeping: String?) async throws(AccountFailure) -> Int {
        state.withLock { state in
            let ended = state.sessions.filter { $0.value.session.accountID == accountID && $0.key != keeping }
            for digest in ended.keys { state.sessions[digest] = nil }
            return ended.count
        }
    }

    func sessionCount(accountID: String) async throws(AccountFailure) -> Int {
        try await sessions(accountID: accountID).count
    }

    func sessions(accountID: String) async throws(AccountFailure) -> [SessionSummary] {
        let time = now()
        return state.withLock { state in
            state.sessions.values.filter {
                $0.session.accountID == accountID && AccountStore.isLive($0.session, at: time)
            }
            .map {
                SessionSummary(
                    digest: $0.session.digest, createdAt: $0.session.createdAt, seenAt: $0.session.seenAt,
                    client: $0.client)
            }
            .sorted { ($1.seenAt, $0.digest) < ($0.seenAt, $1.digest) }
        }
    }

    func endSession(accountID: String, handle: String) async throws(AccountFailure) -> Bool {
        guard handle.count == SessionSummary.handleLength else { return false }
        return state.withLock { state in
            let ended = state.sessions.filter { $0.value.session.accountID == accountID && $0.key.hasPrefix(handle) }
            for digest in ended.keys { state.sessions[digest] = nil }
            return !ended.isEmpty
        }
    }

    // MARK: failed logins

    func recordFailure(keys: [String]) async throws(AccountFailure) {
        let time = now()
        state.withLock { state in
            state.failures.removeAll { $0.at <= time - LoginThrottle.window }
            state.failures += keys.map { ($0, time) }
        }
    }

    func failures(key: String) async throws(AccountFailure) -> [Int64] {
        let time = now()
        return state.withLock { $0.failures.filter { $0.key == key && $0.at > time - LoginThrottle.window }.map(\.at) }
            .sorted()
    }

    func clearFailures(key: String) async throws(AccountFailure) {
        state.withLock { $0.failures.removeAll { $0.key == key } }
    }

    // MARK: invitations

    func makeInvite(accountID: String) async throws(AccountFailure) -> SecretToken {
        let code = SecretToken.random(prefix: "inv_")
        let time = now()
        state.withLock { $0.invites[code.digest] = (accountID, time, false) }
        return code
    }

    func useInvite(_ code: SecretToken) async throws(AccountFailure) -> Bool {
        let time = now()
        return state.withLock { state in
            guard let invite = state.invites[code.digest], !invite.used,
                invite.createdAt > time - AccountStore.inviteLifetime
            else { return false }
            state.invites[code.digest] = (invite.accountID, invite.createdAt, true)
            return true
        }
    }

    // MARK: API tokens

    func makeToken(accountID: String, name: String, scope: TokenScope, expiresAt: Int64?)
        async throws(AccountFailure) -> (SecretToken, APIToken)
    {
        let secret = SecretToken.random(prefix: APIToken.prefix)
        let token = APIToken(
            id: SecretToken.randomHex(count: 8), accountID: accountID, name: name, scope: scope, createdAt: now(),
            expiresAt: expiresAt, usedAt: nil)
        state.withLock { $0.tokens[secret.digest] = token }
        return (secret, token)
    }

    func tokens(accountID: String) async throws(AccountFailure) -> [APIToken] {
        state.withLock { $0.tokens.values.filter { $0.accountID == accountID } }
            .sorted { ($1.createdAt, $0.id) < ($0.createdAt, $1.id) }
    }

    func token(_ secret: SecretToken) async throws(AccountFailure) -> APIToken? {
        let time = now()
        return state.withLock { state in
            guard let token = state.tokens[secret.digest], token.isLive(at: time) else { return nil }
            state.tokens[secret.digest] = APIToken(
                id: token.id, accountID: token.accountID, name: token.name, scope: token.scope,
                createdAt: token.createdAt, expiresAt: token.expiresAt,
                usedAt: (token.usedAt ?? 0) <= time - APIToken.useInterval ? time : token.usedAt)
            return token
        }
    }

    func revokeToken(accountID: String, id: String) async throws(AccountFailure) -> Bool {
        state.withLock { state in
            let revoked = state.tokens.filter { $0.value.accountID == accountID && $0.value.id == id }
            for digest in revoked.keys { state.tokens[digest] = nil }
            return !revoked.isEmpty
        }
    }

    func revokeTokens(accountID: String) async throws(AccountFailure) -> Int {
        state.withLock { state in
            let revoked = state.tokens.filter { $0.value.accountID == accountID }
            for digest in revoked.keys { state.tokens[digest] = nil }
            return revoked.count
        }
    }

    // MARK: sharing

    func share(ownerID: String, trip: String, memberID: String, role: ShareRole) async throws(AccountFailure) {
        let time = now()
        state.withLock { state in
            let key = ShareKey(ownerID: ownerID, trip: trip, memberID: memberID)
            state.shares[key] = (role, state.shares[key]?.createdAt ?? time)
        }
    }

    func unshare(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> Bool {
        state.withLock { $0.shares.removeValue(forKey: ShareKey(ownerID: ownerID, trip: trip, memberID: memberID)) }
            != nil
    }

    func members(ownerID: String, trip: String) async throws(AccountFailure) -> [Member] {
        state.withLock { state in
            state.shares.filter { $0.key.ownerID == ownerID && $0.key.trip == trip }.compactMap { key, share in
                state.accounts[key.memberID].map { Member(email: $0.email, role: share.role) }
            }
        }.sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
    }

    func role(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> ShareRole? {
        state.withLock { $0.shares[ShareKey(ownerID: ownerID, trip: trip, memberID: memberID)]?.role }
    }

    func sharedTrips(memberID: String) async throws(AccountFailure) -> [SharedTrip] {
        state.withLock { state in
            state.shares.filter { $0.key.memberID == memberID }.compactMap { key, share in
                state.accounts[key.ownerID].map {
                    SharedTrip(ownerID: key.ownerID, ownerEmail: $0.email, trip: key.trip, role: share.role)
                }
            }
        }.sorted { (AccountStore.key($0.ownerEmail), $0.trip) < (AccountStore.key($1.ownerEmail), $1.trip) }
    }

    // MARK: audit

    func record(_ event: String, email: String?, client: String?, detail: String?) async throws(AccountFailure) {
        let entry = AuditEntry(
            at: now(), event: event, email: email.map(AccountStore.key), client: client, detail: detail)
        state.withLock { $0.audit.append(entry) }
    }

    func audit(email: String) async throws(AccountFailure) -> [AuditEntry] {
        state.withLock { $0.audit.filter { $0.email == AccountStore.key(email) } }
    }
}
