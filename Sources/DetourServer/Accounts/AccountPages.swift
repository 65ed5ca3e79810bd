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
        let form = LoginPageModel(
            problem: problem,
            fields: [
                FormFieldModel("email", label: "E-mail address", type: "email", value: email, autocomplete: "username"),
                FormFieldModel("password", label: "Password", type: "password", autocomplete: "current-password"),
            ],
            canRegister: accounts.registration != .closed)
        var page = ServerPageModel(title: "Log in", hasBack: false)
        page.login = form
        return Replies.page(page, status: status, extra: fields)
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
        var page = ServerPageModel(title: "Registration is closed", hasBack: false)
        page.closed = true
        return Replies.page(page, status: .forbidden)
    }

    func registerForm(_ state: RegisterState, status: HTTPResponse.Status) -> Response {
        var fields = [
            FormFieldModel(
                "email", label: "E-mail address", type: "email", value: state.email, autocomplete: "username",
                problem: state.problems["email"]),
            FormFieldModel(
                "password", label: "Password (at least \(accounts.rule.minimum) characters)", type: "password",
                autocomplete: "new-password", problem: state.problems["password"]),
            FormFieldModel(
                "confirm", label: "Password again", type: "password", autocomplete: "new-password",
                problem: state.problems["confirm"]),
        ]
        if accounts.registration == .invite {
            fields.append(
                FormFieldModel(
                    "invite", label: "Invitation code", type: "text", value: state.invite,
                    problem: state.problems["invite"]))
        }
        var page = ServerPageModel(title: "Create an account", hasBack: false)
        page.register = RegisterPageModel(fields: fields)
        return Replies.page(page, status: status)
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

    // MARK: answers

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
