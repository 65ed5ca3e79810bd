import DetourAccounts
import Testing

/// The address an account signs in with: NFKC, at most 254 bytes, nothing hidden, one script a
/// part, and the original app's rule.
@Suite struct AccountAddressTests {
    @Test(arguments: [
        "ana@example.org", "a@b.c", "josé@example.org", "ελληνικά@example.org", "東京abc@example.jp",
        "Ana.Silva+trips@Example.ORG", "user@xn--mnchen-3ya.de", "пётр@пример.рф",
    ])
    func anAddressWithinTheRuleIsTaken(_ address: String) {
        #expect(AccountAddress.problem(address) == nil, "\(address)")
    }

    @Test(arguments: [
        ("a@bc", "Enter an e-mail address"), ("ab.c", "Enter an e-mail address"),
        ("esc\u{1B}[31mred@evil.co", "U+001B"), ("ana\r\n@example.org", "U+000D"),
        ("alice\u{200B}@example.org", "U+200B"), ("alice@exa\u{202E}mple.org", "U+202E"),
        ("ali ce@example.org", "U+0020"), ("alice@\u{E000}example.org", "U+E000"),
        ("alice@ex\u{0430}mple.org", "mixes letters"), ("p\u{0430}ypal@example.org", "mixes letters"),
        ("alice\u{0378}@example.org", "U+0378"),
    ])
    func anAddressOutsideTheRuleIsRefusedWithTheReason(_ address: String, _ reason: String) throws {
        let problem = try #require(AccountAddress.problem(address), "\(address)")
        #expect(problem.contains(reason), "\(problem)")
    }

    /// RFC 5321's longest path, 254 bytes, at the limit and one past it, counted in UTF-8.
    @Test func theLongestAddressHas254Bytes() throws {
        let domain = "@example.org"
        let longest = String(repeating: "a", count: 254 - domain.utf8.count) + domain
        #expect(AccountAddress.problem(longest) == nil)
        let past = try #require(AccountAddress.problem("a" + longest))
        #expect(past.contains("at most 254"))
        #expect(AccountAddress.problem(String(repeating: "é", count: 122) + domain) != nil, "256 bytes in 134 letters")
        #expect(AccountAddress.problem(String(repeating: "a", count: 5_000) + domain) != nil)
    }

    /// An address typed in full-width letters, or with a ligature, is the address NFKC makes of
    /// it, and one account whatever the case.
    @Test func anAddressIsKeptAsNFKC() {
        #expect(AccountAddress.normalized(" \u{FF41}lice@example.org ") == "alice@example.org")
        #expect(AccountAddress.problem("\u{FF41}lice@example.org") == nil)
        #expect(AccountAddress.normalized("\u{FB01}@example.org") == "fi@example.org")
        #expect(AccountStore.key("\u{FF21}LICE@Example.org") == AccountStore.key("alice@example.org"))
    }
}
