import ArgumentParser
import DetourAccounts
import DetourCommandLine
import DetourCore

#if canImport(Glibc)
import Glibc
#endif

/// `detour-report-user`, what `detour-report user` runs: the accounts of `serve --accounts`,
/// for the person running the server.
@main
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detour-report user",
        abstract: "Manage the accounts of serve --accounts.",
        discussion: """
            Works on the accounts' database of DIR (DIR/.detour/accounts.sqlite, made when missing). \
            A password is read from standard input, never from an argument: typed twice, without \
            echo, at a terminal; else the first line.
            """,
        subcommands: [Add.self, List.self, Remove.self, ResetPassword.self, EndSessions.self, Audit.self])
}

/// The options every `user` command takes.
struct UserOptions: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "The accounts' database: sqlite:PATH or postgres://USER@HOST/DATABASE (the password from PGPASSWORD). Default: DIR/.detour/accounts.sqlite.",
            valueName: "url"))
    var database: String?

    @Option(
        name: .customLong("min-password-length"),
        help: ArgumentHelp("The fewest characters a new password may have (6 to 1024).", valueName: "n"))
    var minPasswordLength = PasswordRule.defaultMinimum

    @OptionGroup var diagnosticsOption: DiagnosticsOption

    var printer: DiagnosticPrinter { DiagnosticPrinter(file: "detour-report", format: diagnosticsOption.format) }

    func validate() throws {
        guard PasswordRule(minimum: minPasswordLength) != nil else {
            throw ValidationError(
                "--min-password-length must be between \(PasswordRule.lowestMinimum) and \(PasswordRule.maximum)")
        }
        try DatabaseURL.validate(option: database)
    }

    /// Runs `body` with the database open, and closes it however `body` ends; a failure is
    /// reported and ends the command with its exit code.
    func withStore(folder: String, _ body: (AccountStore) async throws(AccountFailure) -> Void) async throws {
        let store: AccountStore
        do throws(AccountFailure) {
            store = try await AccountStore.open(
                database.flatMap(DatabaseURL.init), folder: folder,
                password: DatabasePassword.take(), now: UTCTime.now)
        } catch {
            throw fail(error)
        }
        do throws(AccountFailure) {
            try await body(store)
        } catch {
            await store.close()
            throw fail(error)
        }
        await store.close()
    }

    /// Runs `body` with the database open and the account of `email`; `unknown-account` when no
    /// account has it.
    func withAccount(
        _ email: String, folder: String, _ body: (AccountStore, Account) async throws(AccountFailure) -> Void
    ) async throws {
        try await withStore(folder: folder) { store throws(AccountFailure) in
            guard let account = try await store.account(email: email) else { throw .unknownAccount(email) }
            try await body(store, account)
        }
    }

    /// Reports `failure` and returns the exit code it ends the command with.
    func fail(_ failure: AccountFailure) -> ExitCode {
        printer.report(failure.code, failure.message)
        switch failure {
        case .emailTaken, .weakPassword: return ExitCodes.usage
        case .unknownAccount: return ExitCodes.noInput
        case .database, .unavailable: return ExitCodes.ioError
        }
    }

    /// A new password from standard input, checked by the rule and hashed.
    func newPasswordHash() async throws(AccountFailure) -> String {
        let (password, confirm) = PasswordInput.read()
        let rule = PasswordRule(minimum: minPasswordLength) ?? PasswordRule.standard
        if let problem = rule.problems(password: password, confirm: confirm).first {
            throw .weakPassword(problem.message)
        }
        return try await PasswordHasher(width: 1).hash(password)
    }
}

/// The arguments of a command about one account: its address, and the folder.
struct AccountArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The account's e-mail address.", valueName: "email")) var email: String
    @OptionGroup var folder: FolderArgument
    @OptionGroup var options: UserOptions

    /// `body` with the account, as ``UserOptions/withAccount(_:folder:_:)`` runs it.
    func withAccount(_ body: (AccountStore, Account) async throws(AccountFailure) -> Void) async throws {
        try await options.withAccount(email, folder: folder.folder, body)
    }

    /// Adds `event` to the audit log, as done by this command.
    func record(_ event: String, in store: AccountStore, command: String) async throws(AccountFailure) {
        try await store.record(event, email: email, client: nil, detail: "detour-report user \(command)")
    }
}

/// The folder of trips, the accounts' home.
struct FolderArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The folder served with --accounts.", valueName: "dir"), completion: .directory)
    var folder: String = "."
}

extension UserCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an account; its password from standard input.")
        @OptionGroup var account: AccountArguments

        func run() async throws {
            if let problem = AccountAddress.problem(account.email) {
                account.options.printer.report(.invalidEmail, problem)
                throw ExitCodes.usage
            }
            let email = AccountAddress.normalized(account.email)
            let folder = account.folder.folder
            try await account.options.withStore(folder: folder) { store throws(AccountFailure) in
                if try await store.account(email: email) != nil { throw .emailTaken(email) }
                let made = try await store.addAccount(
                    email: email, passwordHash: try await account.options.newPasswordHash())
                try await account.record("register", in: store, command: "add")
                let trips = try AccountsFolder.makeTrips(in: folder, accountID: made.id)
                print("added \(made.email); its trips go in \(trips)/")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the accounts: address, when made, live sessions, folder.")
        @OptionGroup var folder: FolderArgument
        @OptionGroup var options: UserOptions

        func run() async throws {
            try await options.withStore(folder: folder.folder) { store throws(AccountFailure) in
                for account in try await store.accounts() {
                    let sessions = Quoting.counted(
                        try await store.sessionCount(accountID: account.id), "session")
                    print("\(account.email)\t\(UTCTime.text(account.createdAt))\t\(sessions)\taccounts/\(account.id)/")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an account and end its sessions; its folder of trips is kept.")
        @OptionGroup var account: AccountArguments

        func run() async throws {
            try await account.withAccount { store, found throws(AccountFailure) in
                _ = try await store.removeAccount(id: found.id)
                try await account.record("account-removed", in: store, command: "remove")
                let folder = AccountsFolder.trips(in: account.folder.folder, accountID: found.id)
                print("removed \(found.email); its trips stay in \(folder)/")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Give an account a new password (from standard input); end its sessions and tokens.")
        @OptionGroup var account: AccountArguments

        func run() async throws {
            try await account.withAccount { store, found throws(AccountFailure) in
                try await store.setPasswordHash(accountID: found.id, try await account.options.newPasswordHash())
                let ended = try await store.endSessions(accountID: found.id)
                let revoked = try await store.revokeTokens(accountID: found.id)
                try await account.record("password-reset", in: store, command: "reset-password")
                print(
                    "new password for \(found.email); \(Quoting.counted(ended, "session")) and "
                        + "\(Quoting.counted(revoked, "token")) ended")
            }
        }
    }

    struct EndSessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-sessions", abstract: "End every session and API token of an account.")
        @OptionGroup var account: AccountArguments

        func run() async throws {
            try await account.withAccount { store, found throws(AccountFailure) in
                let ended = try await store.endSessions(accountID: found.id)
                let revoked = try await store.revokeTokens(accountID: found.id)
                try await account.record("sessions-ended", in: store, command: "end-sessions")
                print(
                    "\(Quoting.counted(ended, "session")) and \(Quoting.counted(revoked, "token")) "
                        + "of \(found.email) ended")
            }
        }
    }

    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an address's audit log: time (UTC), event, client, detail.")
        @Argument(help: ArgumentHelp("The e-mail address.", valueName: "email")) var email: String
        @OptionGroup var folder: FolderArgument
        @OptionGroup var options: UserOptions

        func run() async throws {
            try await options.withStore(folder: folder.folder) { store throws(AccountFailure) in
                for entry in try await store.audit(email: email) {
                    print("\(UTCTime.text(entry.at))\t\(entry.event)\t\(entry.client ?? "-")\t\(entry.detail ?? "")")
                }
            }
        }
    }
}

/// A new password read from standard input: at a terminal, typed twice with echo off; else the
/// first line, which is its own confirmation.
enum PasswordInput {
    static func read() -> (password: String, confirm: String) {
        guard isatty(STDIN_FILENO) == 1 else {
            let line = readLine(strippingNewline: true) ?? ""
            return (line, line)
        }
        let password = prompt("New password: ")
        let confirm = prompt("Again: ")
        return (password, confirm)
    }

    /// One line typed at the terminal without echo, after `text` on standard error.
    private static func prompt(_ text: String) -> String {
        StandardStreams.writeError(text)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            StandardStreams.writeError("\n")
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
