import DetourTestSupport
import Foundation
import Testing

/// `detour-report user`: accounts managed from the command line, on the real binaries, the
/// password always from standard input.
@Suite struct UserCommandTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var dir: String { folder.url.path }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-user")
    }

    func user(_ arguments: [String], stdin: String? = nil) throws -> CommandRunner.Result {
        try cli.run(["user"] + arguments, stdin: stdin.map { Data($0.utf8) })
    }

    @Test func anAccountIsAddedListedAndRemoved() throws {
        let added = try user(["add", "Ana@Example.org", dir], stdin: "correct horse battery\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.output.hasPrefix("added Ana@Example.org; its trips go in \(dir)/accounts/"))
        let list = try user(["list", dir])
        #expect(list.status == 0)
        let fields = list.output.split(separator: "\t")
        #expect(fields.first == "Ana@Example.org")
        #expect(fields.count == 4)
        #expect(fields.dropFirst(2).first == "0 sessions")
        let removed = try user(["remove", "ana@example.org", dir])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try user(["list", dir]).output.isEmpty)
        let audit = try user(["audit", "ANA@example.org", dir]).output.split(separator: "\n")
        #expect(audit.map { $0.split(separator: "\t")[1] } == ["register", "account-removed"])
    }

    @Test func thePasswordIsNeverAnArgument() throws {
        let tried = try user(["add", "ana@example.org", "correct horse battery", dir])
        #expect(tried.status == 64)
        let list = try user(["list", dir])
        #expect(list.output.isEmpty)
    }

    @Test func aWeakPasswordIsRefusedWithItsRule() throws {
        let short = try user(["add", "ana@example.org", dir], stdin: "1234567\n")
        #expect(short.status == 64)
        #expect(short.stderr.contains("Password must be at least 8 characters. [weak-password]"))
        let common = try user(["add", "ana@example.org", dir], stdin: "Baseball1\n")
        #expect(common.stderr.contains("one of the 10,000 most common"))
        let six = try user(["add", "ana@example.org", dir, "--min-password-length", "6"], stdin: "q7#q7#\n")
        #expect(six.status == 0, "\(six.stderr)")
        let five = try user(["add", "bo@example.org", dir, "--min-password-length", "5"], stdin: "q7#q7\n")
        #expect(five.status == 64)
        #expect(five.stderr.contains("--min-password-length must be between 6 and 1024"))
    }

    @Test func anAddressOutsideTheRuleOrTakenIsRefused() throws {
        let invalid = try user(["add", "ana@example", dir], stdin: "correct horse battery\n")
        #expect(invalid.status == 64)
        #expect(invalid.stderr.contains("[invalid-email]"))
        #expect(try user(["add", "ana@example.org", dir], stdin: "correct horse battery\n").status == 0)
        let taken = try user(["add", "ANA@example.org", dir], stdin: "another good password\n")
        #expect(taken.status == 64)
        #expect(taken.stderr.contains("an account for ANA@example.org exists already [email-taken]"))
    }

    @Test func anUnknownAddressIsReportedForEveryCommandThatNeedsOne() throws {
        for command in ["remove", "reset-password", "end-sessions"] {
            let result = try user([command, "nobody@example.org", dir], stdin: "correct horse battery\n")
            #expect(result.status == 66, "\(command)")
            #expect(result.stderr.contains("no account has the address nobody@example.org [unknown-account]"))
        }
    }

    @Test func aPasswordResetKeepsTheAccountAndIsAudited() throws {
        #expect(try user(["add", "ana@example.org", dir], stdin: "correct horse battery\n").status == 0)
        let reset = try user(["reset-password", "ana@example.org", dir], stdin: "staple gun lantern\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.output == "new password for ana@example.org; 0 sessions and 0 tokens ended\n")
        let ended = try user(["end-sessions", "ana@example.org", dir])
        #expect(ended.output == "0 sessions and 0 tokens of ana@example.org ended\n")
        let events = try user(["audit", "ana@example.org", dir]).output.split(separator: "\n").map {
            $0.split(separator: "\t")[1]
        }
        #expect(events == ["register", "password-reset", "sessions-ended"])
    }

    @Test func aFileThatIsNoDatabaseEndsWith74() throws {
        let path = dir + "/text.sqlite"
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let result = try user(["list", "--database", "sqlite:" + path])
        #expect(result.status == 74)
        #expect(result.stderr.contains("[accounts-failed]"))
        let json = try user(["list", "--database", "sqlite:" + path, "--diagnostics", "json"])
        #expect(json.stderr.contains("\"code\":\"accounts-failed\""), "\(json.stderr)")
    }

    @Test func anotherDatabaseIsNamedAsAURL() throws {
        let result = try user(["list", "--database", "mysql://localhost/x"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--database takes sqlite:PATH or postgres://USER@HOST/DATABASE"))
    }
}
