import ArgumentParser
import DetourAccounts
import DetourCommandLine
import Testing

/// `serve --accounts` and the options that go with it.
@Suite struct AccountOptionTests {
    /// `detour-report` does not link the accounts' library, so the limits are written twice: here
    /// they are held to be the same.
    @Test func theLimitsOfAPasswordsLengthAreTheRulesOwn() {
        #expect(ServeOptions.passwordLengths == PasswordRule.lowestMinimum...PasswordRule.maximum)
    }

    @Test(
        arguments: [
            (["--accounts"], nil),
            (["--accounts", "--registration", "invite", "--min-password-length", "6"], nil),
            (["--accounts", "--min-password-length", "1024", "--database", "sqlite:/tmp/a.sqlite"], nil),
            (["--accounts", "--min-password-length", "5"], "--min-password-length must be between 6 and 1024"),
            (["--accounts", "--min-password-length", "1025"], "--min-password-length must be between 6 and 1024"),
            (["--accounts", "--registration", "anyone"], "The value 'anyone' is invalid for '--registration <who>'"),
            (["--accounts", "--database", "postgres://detour@db/trips"], nil),
            (
                ["--accounts", "--database", "mysql://x"],
                "--database takes sqlite:PATH or postgres://USER@HOST/DATABASE"
            ),
            (["--registration", "open"], "--registration needs --accounts"),
            (["--database", "sqlite:x"], "--database needs --accounts"),
            (["--min-password-length", "8"], "--min-password-length needs --accounts"),
            (["--trusted-proxy", "127.0.0.1"], "--trusted-proxy needs --accounts"),
            (["--accounts", "--trusted-proxy", "127.0.0.1"], nil),
            (["--accounts", "--token-file", "t"], "--token-file is for a server without accounts"),
            (["--max-connections-per-client", "1"], nil), (["--max-connections-per-client", "256"], nil),
            (["--max-connections-per-client", "0"], "--max-connections-per-client must be between 1 and 256"),
            (["--max-connections-per-client", "257"], "--max-connections-per-client must be between 1 and 256"),
        ] as [([String], String?)])
    func theAccountOptionsGoTogether(arguments: [String], refusal: String?) {
        do {
            _ = try ServeOptions.parse(arguments)
            #expect(refusal == nil, "\(arguments) was taken")
        } catch {
            let message = ServeOptions.message(for: error)
            #expect(refusal.map { message.hasPrefix($0) } == true, "\(arguments): \(message)")
        }
    }
}
