import ArgumentParser
import DetourCommandLine

/// `detour-report user …`: the accounts of `serve --accounts`, managed by `detour-report-user`,
/// installed beside this binary (as `serve` runs `detour-report-serve`), so that `render` never
/// loads the database's libraries.
struct User: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the accounts of serve --accounts: add, list, remove, reset-password, end-sessions, audit.",
        discussion: """
            detour-report user add EMAIL [DIR] adds an account, its password read from standard input \
            (never an argument); list, remove EMAIL, reset-password EMAIL, end-sessions EMAIL and audit \
            EMAIL do what they say. The accounts live in DIR/.detour/accounts.sqlite unless --database \
            names another. detour-report user --help lists every option.
            """)

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("The user command and its arguments.", valueName: "command"))
    var arguments: [String] = []

    @OptionGroup var diagnosticsOption: DiagnosticsOption

    /// Runs `detour-report-user`, installed beside this binary, with the same arguments.
    func run() throws {
        let message = Sibling.exec("detour-report-user", arguments: arguments)
        DiagnosticPrinter(file: "detour-report", format: diagnosticsOption.format).report(
            .usage,
            "cannot start detour-report-user, which manages accounts (it belongs beside detour-report): \(message)")
        throw ExitCodes.unavailable
    }
}
