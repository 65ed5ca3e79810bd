import DetourAccounts
import DetourCore
import DetourRender
import HTTPTypes
import Hummingbird

/// The pages of a server with accounts: log in, register, log out, and the account's own page.
///
/// The account's page changes the password, ends sessions and makes invitations. Plain HTML forms:
/// no script is needed.
///
/// As in the original app, `/` sends a person who is not signed in to `/login`, the login page
/// leads to the registration page and back, and a form that does not validate says why next to
/// the field.
struct AccountPages {
    let accounts: AccountService

    var store: any AccountRepositories { accounts.store }

    /// Adds the routes to `table`.
    func add(to table: RouteTable) {
        let signingIn = table.group("", .signingIn)
        signingIn.resource("login", [.get: .read(loginPage), .post: .write(login)])
        signingIn.resource("register", [.get: .read(registerPage), .post: .write(register)])
        table.group("", .browser).resource("logout", [.post: .write(logout)])
        let account = table.group("account", .account)
        account.resource("", [.get: .read(accountPage)])
        account.resource("password", [.post: .write(changePassword)])
        account.resource("sessions", [.post: .write(endSession)])
        account.resource("invites", [.post: .write(makeInvite)])
        account.resource("tokens", [.post: .write(makeToken)])
        account.resource("tokens/revoke", [.post: .write(revokeToken)])
    }

    // MARK: login

    struct LoginFields: Decodable {
        var email: String?
        var password: String?
    }

    func loginPage(_ request: Request, context: ServerContext) async throws -> Response {
        if context.identity != nil { return Self.redirect("/") }
        return loginForm(email: "", problem: nil, status: .ok)
    }

    func loginForm(
        email: String, problem: String?, status: HTTPResponse.Status, fields: [(HTTPField.Name, String)] = []
    )
        -> Response
    {
        let register =
            accounts.registration == .closed
            ? "" : "<p>No account yet? <a href=\"/register\">Create one</a>.</p>\n"
        let body = """
            <h1>Log in</h1>
            \(problem.map { "<p class=\"problem\" role=\"alert\">\(Escaping.html($0))</p>\n" } ?? "")\
            <form method="post" action="/login">
            \(Self.field("email", label: "E-mail address", type: "email", value: email, autocomplete: "username"))\
            \(Self.field("password", label: "Password", type: "password", autocomplete: "current-password"))\
            <p><button type="submit">Log in</button></p>
            </form>
            \(register)
            """
        return Self.page("Log in", body: body, identity: nil, status: status, fields: fields)
    }

    func login(_ request: Request, context: ServerContext) async throws -> Response {
        let fields = try await Form.read(LoginFields.self, from: request)
        let email = (fields.email ?? "").trimmingCharacters(in: .whitespaces)
        let password = fields.password ?? ""
        let client = context.client
        let keys = Self.throttleKeys(email: email, client: client)
        let wait = try await throttleWait(keys)
        if wait > 0 {
            return loginForm(
                email: email, problem: Self.tooMany(wait), status: .tooManyRequests,
                fields: [(.retryAfter, String(wait))])
        }
        let account = try await store.account(email: email)
        guard case .valid(let rehash) = await accounts.hasher.verify(password, against: account?.passwordHash),
            let account
        else {
            try await store.recordFailure(keys: keys)
            try await store.record("login-failed", email: email, client: client)
            return loginForm(
                email: email, problem: "The e-mail address or password is incorrect.", status: .unauthorized)
        }
        if rehash {
            try await store.setPasswordHash(accountID: account.id, try await accounts.hasher.hash(password))
        }
        try await store.clearFailures(key: keys[0])
        try await store.record("login", email: account.email, client: client)
        return try await signIn(account, request: request, client: client)
    }

    /// What failed password checks count against: the address and the client.
    static func throttleKeys(email: String, client: String) -> [String] {
        ["account:" + AccountStore.key(email), "client:" + client]
    }

    /// How many seconds the next password check against `keys` must wait (0: none).
    func throttleWait(_ keys: [String]) async throws -> Int64 {
        var wait: Int64 = 0
        for key in keys {
            wait = max(wait, LoginThrottle.wait(failures: try await store.failures(key: key), now: store.now()) ?? 0)
        }
        return wait
    }

    /// What a refused attempt is told.
    static func tooMany(_ wait: Int64) -> String {
        "Too many failed attempts. Try again in \(duration(wait))."
    }

    /// Begins a session for `account` (a new id, whatever the request carried) and sends the
    /// browser to its trips.
    func signIn(_ account: Account, request: Request, client: String) async throws -> Response {
        if let old = Cookies.value(accounts.cookieName, in: request.headers) {
            let token = SecretToken(text: old)
            try await store.endSession(token)
            accounts.sessions.forget(token.digest)
        }
        let (token, _) = try await store.beginSession(accountID: account.id, client: client)
        return Self.redirect("/", fields: [(.setCookie, accounts.sessionCookie(token))])
    }

    // MARK: registration

    struct RegisterFields: Decodable {
        var email: String?
        var password: String?
        var confirm: String?
        var invite: String?
    }

    /// What a registration form shows again: the values typed (never the password) and the
    /// problem of each field.
    struct RegisterState {
        var email = ""
        var invite: String
        var problems: [String: String] = [:]
    }

    func registerPage(_ request: Request, context: ServerContext) async throws -> Response {
        if context.identity != nil { return Self.redirect("/") }
        guard accounts.registration != .closed else { return closedPage() }
        let invite = request.uri.queryParameters["invite"].map(String.init) ?? ""
        return registerForm(RegisterState(invite: invite), status: .ok)
    }

    func closedPage() -> Response {
        Self.page(
            "Registration is closed",
            body: """
                <h1>Registration is closed</h1>
                <p>Accounts on this server are made by the person who runs it. <a href="/login">Log in</a></p>

                """, identity: nil, status: .forbidden)
    }

    func registerForm(_ state: RegisterState, status: HTTPResponse.Status) -> Response {
        let invite =
            accounts.registration == .invite
            ? Self.field(
                "invite", label: "Invitation code", type: "text", value: state.invite, problem: state.problems["invite"]
            )
            : ""
        let body = """
            <h1>Create an account</h1>
            <form method="post" action="/register">
            \(Self.field("email", label: "E-mail address", type: "email", value: state.email, autocomplete: "username", problem: state.problems["email"]))\
            \(Self.field("password", label: "Password (at least \(accounts.rule.minimum) characters)", type: "password", autocomplete: "new-password", problem: state.problems["password"]))\
            \(Self.field("confirm", label: "Password again", type: "password", autocomplete: "new-password", problem: state.problems["confirm"]))\
            \(invite)\
            <p><button type="submit">Create account</button></p>
            </form>
            <p>Have an account? <a href="/login">Log in</a>.</p>

            """
        return Self.page("Create an account", body: body, identity: nil, status: status)
    }

    func register(_ request: Request, context: ServerContext) async throws -> Response {
        guard accounts.registration != .closed else { return closedPage() }
        let fields = try await Form.read(RegisterFields.self, from: request)
        var state = RegisterState(email: AccountAddress.normalized(fields.email ?? ""), invite: fields.invite ?? "")
        let password = fields.password ?? ""
        if let problem = AccountAddress.problem(state.email) {
            state.problems["email"] = problem
        }
        for problem in accounts.rule.problems(password: password, confirm: fields.confirm ?? "")
        where state.problems[problem.field] == nil {
            state.problems[problem.field] = problem.message
        }
        if accounts.registration == .invite, state.invite.isEmpty {
            state.problems["invite"] = "Enter the invitation code you were given."
        }
        guard state.problems.isEmpty else { return registerForm(state, status: .unprocessableContent) }
        if try await store.account(email: state.email) != nil {
            state.problems["email"] = "An account with this address exists already. Log in instead."
            return registerForm(state, status: .unprocessableContent)
        }
        if accounts.registration == .invite, try await !store.useInvite(SecretToken(text: state.invite)) {
            state.problems["invite"] = "This invitation code is not valid, has expired or has been used."
            return registerForm(state, status: .unprocessableContent)
        }
        let hash = try await accounts.hasher.hash(password)
        let account: Account
        do throws(AccountFailure) {
            account = try await store.addAccount(email: state.email, passwordHash: hash)
        } catch {
            // Another registration of the address got in first.
            guard error.code == .emailTaken else { throw error }
            state.problems["email"] = "An account with this address exists already. Log in instead."
            return registerForm(state, status: .unprocessableContent)
        }
        try await store.record("register", email: account.email, client: context.client)
        // The folder is there at once, for trips to be put in.
        _ = try accounts.workspace(for: account.id)
        return try await signIn(account, request: request, client: context.client)
    }

    // MARK: logout

    func logout(_ request: Request, context: ServerContext) async throws -> Response {
        if let identity = context.identity {
            if let old = Cookies.value(accounts.cookieName, in: request.headers) {
                try await store.endSession(SecretToken(text: old))
            }
            accounts.sessions.forget(identity.sessionDigest)
            try await store.record("logout", email: identity.email, client: context.client)
        }
        return Self.redirect("/login", fields: [(.setCookie, accounts.endedCookie)])
    }

    // MARK: building pages

    /// A page of the server's own, with the account bar when someone is signed in; never cached.
    static func page(
        _ title: String, body: String, identity: Identity?, status: HTTPResponse.Status,
        fields: [(HTTPField.Name, String)] = []
    ) -> Response {
        let style = """
            form p, form label { display: block; margin: .5rem 0; }
            input[type=email], input[type=password], input[type=text] { width: 100%; max-width: 24rem; font: inherit; padding: .3rem; }
            .problem { color: #a1262b; font-weight: 600; }
            .notice { color: #1f5f3a; font-weight: 600; }
            td form { display: inline; }

            """
        let html = ServerPage.html(title: title, style: style, body: body, back: identity != nil)
        let bytes = AccountBar.inserted(into: Array(html.utf8), identity: identity)
        return Replies.bytes(bytes, type: .html, status: status, extra: fields + [(.cacheControl, "no-store")])
    }

    /// A labelled input, its problem (when it has one) beside it, tied to it for screen readers.
    static func field(
        _ name: String, label: String, type: String, value: String = "", autocomplete: String? = nil,
        problem: String? = nil
    ) -> String {
        let described = problem == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(name)-problem\""
        let complete = autocomplete.map { " autocomplete=\"\($0)\"" } ?? ""
        let shown = problem.map { "<span class=\"problem\" id=\"\(name)-problem\">\(Escaping.html($0))</span>" } ?? ""
        return """
            <label for="\(name)">\(Escaping.html(label))</label>
            <input id="\(name)" name="\(name)" type="\(type)" value="\(Escaping.html(value))"\(complete)\(described) required>
            \(shown)

            """
    }

    /// A hidden input.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(Escaping.html(value))\">"
    }

    /// 303 to `location`.
    static func redirect(_ location: String, fields: [(HTTPField.Name, String)] = []) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        for (name, value) in fields { headers[name] = value }
        return Response(status: .seeOther, headers: headers)
    }

    /// `90` as `2 minutes`, `30` as `30 seconds`.
    static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}

/// The bar every page of a signed-in person opens with: the address they are signed in with
/// (people with several accounts must see which one), their account's page, and a way to log out.
enum AccountBar {
    static func html(_ identity: Identity) -> String {
        """
        <nav class="account-bar" style="font: 10pt/1.4 sans-serif; padding: .4rem .8rem; \
        border-bottom: 1px solid #cfd6dd; background: #eef2f5; text-align: right;">\
        Signed in as <strong>\(Escaping.html(identity.email))</strong> · <a href="/account">Account</a> · \
        <form method="post" action="/logout" style="display: inline;">\
        \(AccountPages.hidden(CSRFRule.formField, identity.formToken))\
        <button type="submit">Log out</button></form></nav>
        <style>@media print { nav.account-bar { display: none; } }</style>

        """
    }

    /// `page` with the bar right after its `<body>` tag, and `more` (HTML) after the bar, when
    /// someone is signed in.
    static func inserted(into page: [UInt8], identity: Identity?, more: String = "") -> [UInt8] {
        guard let identity else { return page }
        var text = String(decoding: page, as: UTF8.self)
        guard let body = text.range(of: "<body>") else { return page }
        text.insert(contentsOf: "\n" + html(identity) + more, at: body.upperBound)
        return Array(text.utf8)
    }
}
