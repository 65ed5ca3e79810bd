import DetourCore
import Testing

@testable import DetourAccounts

/// A new password's rules, each at its limit and one past it.
@Suite struct PasswordRuleTests {
    /// A password of `count` characters that is on no list.
    static func password(_ count: Int) -> String {
        String(repeating: "q7#", count: count / 3 + 1).prefix(count).description
    }

    @Test func theMinimumIsSixAtTheLowestAndAtMostTheMaximum() {
        #expect(PasswordRule(minimum: 5) == nil)
        #expect(PasswordRule(minimum: 6)?.minimum == 6)
        #expect(PasswordRule(minimum: 1024)?.minimum == 1024)
        #expect(PasswordRule(minimum: 1025) == nil)
        #expect(PasswordRule.standard.minimum == 8)
    }

    @Test(arguments: [6, 8, 12])
    func aPasswordOfTheMinimumPassesAndOneShorterDoesNot(minimum: Int) throws {
        let rule = try #require(PasswordRule(minimum: minimum))
        let enough = Self.password(minimum)
        let short = Self.password(minimum - 1)
        #expect(rule.problems(password: enough, confirm: enough) == [])
        #expect(rule.problems(password: short, confirm: short) == [.tooShort(minimum: minimum)])
    }

    @Test func aPasswordOf1024CharactersPassesAnd1025DoNot() {
        let longest = Self.password(1024)
        let over = Self.password(1025)
        #expect(PasswordRule.standard.problems(password: longest, confirm: longest) == [])
        #expect(PasswordRule.standard.problems(password: over, confirm: over) == [.tooLong(maximum: 1024)])
    }

    @Test(arguments: ["password", "PASSWORD", "Baseball1", "iloveyou", "qqqqqq1"])
    func aCommonPasswordIsRefusedInAnyCase(password: String) throws {
        let rule = try #require(PasswordRule(minimum: 6))
        #expect(rule.problems(password: password, confirm: password) == [.common])
    }

    @Test func theConfirmationMustBeTheSame() {
        let password = Self.password(10)
        let problems = PasswordRule.standard.problems(password: password, confirm: password + "x")
        #expect(problems == [.mismatch])
        #expect(problems.first?.field == "confirm")
        #expect(problems.first?.message == "Passwords do not match.")
    }

    @Test func everyBrokenRuleIsToldAtOnce() {
        #expect(PasswordRule.standard.problems(password: "abc", confirm: "") == [.tooShort(minimum: 8), .mismatch])
    }

    /// Code points are counted after NFKC: the ligature `ﬁ` is two characters, `é` written as `e`
    /// and a combining accent is one, and either spelling of `é` is the same password.
    @Test func charactersAreCountedAfterNormalization() {
        let ligatures = "ﬁﬁﬁﬁ"
        #expect(PasswordRule.standard.problems(password: ligatures, confirm: "fifififi") == [])
        let combining = String(repeating: "e\u{301}", count: 7) + "x"
        #expect(PasswordRule.standard.problems(password: combining, confirm: combining) == [])
        let composed = String(repeating: "\u{e9}", count: 7)
        #expect(
            PasswordRule.standard.problems(password: composed, confirm: composed) == [.tooShort(minimum: 8)])
        #expect(PasswordRule.normalized("e\u{301}") == "\u{e9}")
    }

    @Test func theListHoldsTenThousandLowerCasePasswords() {
        #expect(CommonPasswords.all.count == 10_000)
        #expect(CommonPasswords.all.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
        #expect(CommonPasswords.contains("123456"))
        #expect(!CommonPasswords.contains(Self.password(12)))
    }

    /// The original app's e-mail rule, which registration shares with a trip's traveller.
    @Test(arguments: [
        ("a@b.c", true), ("a@bc", false), ("ab.c", false), ("ab@.c", false), ("@b.c", false), ("a@b.", false),
    ])
    func theEmailRuleIsTheOriginalAppsOwn(address: String, valid: Bool) {
        #expect(EmailAddress.isValid(address) == valid)
    }
}
