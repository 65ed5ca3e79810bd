import DetourAccounts
import DetourCore
import DetourRender
import HTTPTypes
import Hummingbird

/// The account's own page: its password, sessions, invitations and API tokens.
extension AccountPages {

    func accountPage(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        return try await accountForm(identity, notice: nil, problems: [:], status: .ok)
    }

    func accountForm(
        _ identity: Identity, notice: String?, problems: [String: String], status: HTTPResponse.Status
    ) async throws -> Response {
        let csrf = Self.hidden(CSRFRule.formField, identity.formToken)
        var sessions = ""
        for session in try await store.sessions(accountID: identity.accountID) {
            let end =
                session.digest == identity.sessionDigest
                ? "this session"
                : """
                <form method="post" action="/account/sessions">\(csrf)\(Self.hidden("session", session.handle))\
                <button type="submit">End</button></form>
                """
            sessions += """
                <tr><td>\(UTCTime.text(session.createdAt))</td><td>\(UTCTime.text(session.seenAt))</td>\
                <td>\(Escaping.html(session.client ?? "-"))</td><td>\(end)</td></tr>

                """
        }
        let invites =
            accounts.registration == .invite
            ? """
            <h2>Invitations</h2>
            <p>Registration on this server needs an invitation code. Each code can be used once, within 7 days.</p>
            <form method="post" action="/account/invites">\(csrf)<button type="submit">Make an invitation code</button></form>

            """ : ""
        var tokens = ""
        for token in try await store.tokens(accountID: identity.accountID) {
            tokens += """
                <tr><td>\(Escaping.html(token.name))</td><td>\(token.scope.rawValue)</td>\
                <td>\(UTCTime.text(token.createdAt))</td><td>\(token.expiresAt.map(UTCTime.text) ?? "never")</td>\
                <td>\(token.usedAt.map(UTCTime.text) ?? "never")</td>\
                <td><form method="post" action="/account/tokens/revoke">\(csrf)\(Self.hidden("id", token.id))\
                <button type="submit">Revoke</button></form></td></tr>

                """
        }
        let body = """
            <h1>Your account</h1>
            \(notice.map { "<p class=\"notice\" role=\"status\">\(Escaping.html($0))</p>\n" } ?? "")\
            <p>Signed in as <strong>\(Escaping.html(identity.email))</strong>.</p>
            <h2>Change password</h2>
            <p>A new password ends your other sessions and every API and feed token.</p>
            <form method="post" action="/account/password">
            \(csrf)
            \(Self.field("current", label: "Current password", type: "password", autocomplete: "current-password", problem: problems["current"]))\
            \(Self.field("password", label: "New password (at least \(accounts.rule.minimum) characters)", type: "password", autocomplete: "new-password", problem: problems["password"]))\
            \(Self.field("confirm", label: "New password again", type: "password", autocomplete: "new-password", problem: problems["confirm"]))\
            <p><button type="submit">Change password</button></p>
            </form>
            <h2>Sessions</h2>
            <table>
            <thead><tr><th>Began (UTC)</th><th>Last used (UTC)</th><th>From</th><th></th></tr></thead>
            <tbody>
            \(sessions)</tbody>
            </table>
            <h2>API tokens</h2>
            <p>A script sends a token as <code>Authorization: Bearer dtr_…</code>: <em>read</em> reads every \
            trip, format and feed; <em>write</em> can also save and delete trips through the API; <em>feed</em> \
            reads calendar feeds only, given in the feed's address (<code>/calendar.ics?feed=dtr_…</code>) for \
            calendar programs, which send no header. A token is shown once, when it is made.</p>
            <table>
            <thead><tr><th>Name</th><th>Scope</th><th>Made (UTC)</th><th>Expires (UTC)</th><th>Last used (UTC)</th>\
            <th></th></tr></thead>
            <tbody>
            \(tokens)</tbody>
            </table>
            <form method="post" action="/account/tokens">
            \(csrf)
            \(Self.field("name", label: "Name", type: "text", problem: problems["name"]))\
            <label for="scope">Scope</label>
            <select id="scope" name="scope"><option value="read">read</option><option value="write">write</option>\
            <option value="feed">feed</option></select>
            <label for="days">Expires after this many days (empty: never)</label>
            <input id="days" name="days" type="number" min="1" max="3650">
            \(problems["days"].map { "<span class=\"problem\" id=\"days-problem\">\(Escaping.html($0))</span>\n" } ?? "")\
            <p><button type="submit">Make a token</button></p>
            </form>
            \(invites)
            """
        return Self.page("Your account", body: body, identity: identity, status: status)
    }

    struct PasswordFields: Decodable {
        var current: String?
        var password: String?
        var confirm: String?
    }

    func changePassword(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(PasswordFields.self, from: request)
        let password = fields.password ?? ""
        guard let account = try await store.account(id: identity.accountID) else { return Self.redirect("/login") }
        // The current password is guessed no faster here than at the login form, whoever holds
        // the session: failures count against the same address and client.
        let keys = Self.throttleKeys(email: account.email, client: context.client)
        let wait = try await throttleWait(keys)
        if wait > 0 {
            var response = try await accountForm(
                identity, notice: nil, problems: ["current": Self.tooMany(wait)], status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        var problems: [String: String] = [:]
        if case .invalid = await accounts.hasher.verify(fields.current ?? "", against: account.passwordHash) {
            problems["current"] = "This is not your current password."
            try await store.recordFailure(keys: keys)
            try await store.record("password-change-failed", email: account.email, client: context.client)
        } else {
            try await store.clearFailures(key: keys[0])
        }
        for problem in accounts.rule.problems(password: password, confirm: fields.confirm ?? "")
        where problems[problem.field] == nil {
            problems[problem.field] = problem.message
        }
        guard problems.isEmpty else {
            return try await accountForm(identity, notice: nil, problems: problems, status: .unprocessableContent)
        }
        try await store.setPasswordHash(accountID: account.id, try await accounts.hasher.hash(password))
        let ended = try await store.endSessions(accountID: account.id, keeping: identity.sessionDigest)
        accounts.sessions.forget(accountID: account.id, keeping: identity.sessionDigest)
        // Whoever had the old password may have made a token: a new password ends them too.
        let revoked = try await store.revokeTokens(accountID: account.id)
        try await store.record("password-changed", email: account.email, client: context.client)
        return try await accountForm(
            identity,
            notice: "Your password is changed. \(Quoting.counted(ended, "other session")) and "
                + "\(Quoting.counted(revoked, "token")) ended.",
            problems: [:], status: .ok)
    }

    struct SessionFields: Decodable {
        var session: String?
    }

    func endSession(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(SessionFields.self, from: request)
        if try await store.endSession(accountID: identity.accountID, handle: fields.session ?? "") {
            accounts.sessions.forget(accountID: identity.accountID, keeping: identity.sessionDigest)
            try await store.record("session-ended", email: identity.email, client: context.client)
        }
        return Self.redirect("/account")
    }

    func makeInvite(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        guard accounts.registration == .invite else { throw Problem.notFound }
        let code = try await store.makeInvite(accountID: identity.accountID)
        try await store.record("invite-made", email: identity.email, client: context.client)
        return try await accountForm(
            identity,
            notice:
                "Invitation code, shown this once: \(code.text). It opens /register?invite=\(code.text) for 7 days.",
            problems: [:], status: .ok)
    }

    struct TokenFields: Decodable {
        var name: String?
        var scope: String?
        var days: String?
    }

    func makeToken(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(TokenFields.self, from: request)
        let name = (fields.name ?? "").trimmingCharacters(in: .whitespaces)
        var problems: [String: String] = [:]
        if name.isEmpty || name.count > APIToken.longestName || name.contains(where: \.isNewline) {
            problems["name"] = "Give the token a name of 1 to \(APIToken.longestName) characters on one line."
        }
        let days = (fields.days ?? "").trimmingCharacters(in: .whitespaces)
        var expiresAt: Int64?
        if !days.isEmpty {
            if let count = Int64(days), (1...3650).contains(count) {
                expiresAt = store.now() + count * 86400
            } else {
                problems["days"] = "Days must be a whole number from 1 to 3650, or empty for never."
            }
        }
        guard let scope = TokenScope(rawValue: fields.scope ?? ""), problems.isEmpty else {
            return try await accountForm(identity, notice: nil, problems: problems, status: .unprocessableContent)
        }
        let (secret, token) = try await store.makeToken(
            accountID: identity.accountID, name: name, scope: scope, expiresAt: expiresAt)
        try await store.record(
            "token-made", email: identity.email, client: context.client, detail: "\(token.name) (\(scope.rawValue))")
        let use =
            scope == .feed
            ? "Subscribe to \(base(request))/calendar.ics?feed=\(secret.text) (or /trips/NAME.ics?feed=…)."
            : "Send it as Authorization: Bearer \(secret.text)."
        return try await accountForm(
            identity, notice: "Token \"\(token.name)\" made; it is shown this once. \(use)", problems: [:], status: .ok)
    }

    /// The address the server is reached at, for a feed's link: the public URL's, else the
    /// request's `Host`.
    func base(_ request: Request) -> String {
        // The Host middleware has refused a request without an authority.
        guard let authority = request.head.authority else { return "http://127.0.0.1" }
        let (scheme, reached) = PublicURL.reached(accounts.settings.publicURL, at: authority)
        return "\(scheme)://\(reached)"
    }

    struct RevokeFields: Decodable {
        var id: String?
    }

    func revokeToken(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(RevokeFields.self, from: request)
        if try await store.revokeToken(accountID: identity.accountID, id: fields.id ?? "") {
            try await store.record("token-revoked", email: identity.email, client: context.client, detail: fields.id)
        }
        return Self.redirect("/account")
    }
}
