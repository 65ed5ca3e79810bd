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
        let sessions = try await store.sessions(accountID: identity.accountID).map { session in
            SessionRowModel(
                began: UTCTime.text(session.createdAt), seen: UTCTime.text(session.seenAt),
                client: session.client ?? "-", isThis: session.digest == identity.sessionDigest, handle: session.handle)
        }
        let tokens = try await store.tokens(accountID: identity.accountID).map { token in
            TokenRowModel(
                name: token.name, scope: token.scope.rawValue, made: UTCTime.text(token.createdAt),
                expires: token.expiresAt.map(UTCTime.text) ?? "never", used: token.usedAt.map(UTCTime.text) ?? "never",
                id: token.id)
        }
        let passwordFields = [
            FormFieldModel(
                "current", label: "Current password", type: "password", autocomplete: "current-password",
                problem: problems["current"]),
            FormFieldModel(
                "password", label: "New password (at least \(accounts.rule.minimum) characters)", type: "password",
                autocomplete: "new-password", problem: problems["password"]),
            FormFieldModel(
                "confirm", label: "New password again", type: "password", autocomplete: "new-password",
                problem: problems["confirm"]),
        ]
        var page = ServerPageModel(title: "Your account", chrome: ChromeModel(bar: Chrome.bar(identity)), hasBack: true)
        page.account = AccountPageModel(
            notice: notice, email: identity.email, formField: CSRFRule.formField, formToken: identity.formToken,
            passwordFields: passwordFields, sessions: sessions, tokens: tokens,
            tokenName: FormFieldModel("name", label: "Name", type: "text", problem: problems["name"]),
            daysProblem: problems["days"], invites: accounts.registration == .invite)
        return Replies.page(page, status: status)
    }

    /// The fields of the account page's forms, each form sending its own: the password form
    /// `current`, `password` and `confirm`; a session's `session`; the token form `name`, `scope`
    /// and `days`; a token's `id`.
    struct AccountFields: Decodable {
        var current: String?
        var password: String?
        var confirm: String?
        var session: String?
        var name: String?
        var scope: String?
        var days: String?
        var id: String?
    }

    func changePassword(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(AccountFields.self, from: request)
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

    func endSession(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(AccountFields.self, from: request)
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

    func makeToken(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(AccountFields.self, from: request)
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

    func revokeToken(_ request: Request, context: ServerContext) async throws -> Response {
        let identity = try context.account()
        let fields = try await Form.read(AccountFields.self, from: request)
        if try await store.revokeToken(accountID: identity.accountID, id: fields.id ?? "") {
            try await store.record("token-revoked", email: identity.email, client: context.client, detail: fields.id)
        }
        return Self.redirect("/account")
    }
}
