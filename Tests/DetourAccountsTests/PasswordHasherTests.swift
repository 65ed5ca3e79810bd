import Testing

@testable import DetourAccounts

/// Argon2id hashes through libsodium: they verify, carry their cost, and are made again when the
/// cost is raised.
@Suite struct PasswordHasherTests {
    @Test func aHashVerifiesItsPasswordAndNoOther() async throws {
        let hasher = try PasswordHasher(width: 2)
        let hash = try await hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(await hasher.verify("correct horse battery", against: hash) == .valid(rehash: false))
        #expect(await hasher.verify("correct horse batterY", against: hash) == .invalid)
        #expect(await hasher.verify("", against: hash) == .invalid)
    }

    @Test func twoHashesOfOnePasswordDiffer() async throws {
        let hasher = try PasswordHasher(width: 2)
        let first = try await hasher.hash("correct horse battery")
        let second = try await hasher.hash("correct horse battery")
        #expect(first != second)
    }

    /// An address without an account checks the dummy hash: the same work, and never valid, even
    /// for the password the dummy might have.
    @Test func withoutAStoredHashTheVerdictIsInvalid() async throws {
        let hasher = try PasswordHasher(width: 1)
        #expect(await hasher.verify("anything at all", against: nil) == .invalid)
        #expect(await hasher.verify("x", against: "not a hash") == .invalid)
        #expect(await hasher.verify("x", against: String(repeating: "$", count: 500)) == .invalid)
    }

    @Test func aHashOfALowerCostIsMadeAgain() async throws {
        let old = try PasswordHasher(width: 1)
        let hash = try await old.hash("correct horse battery")
        let raised = try #require(HashCost(passes: 3, memoryBytes: 19 << 20))
        let hasher = try PasswordHasher(cost: raised, width: 1)
        #expect(await hasher.verify("correct horse battery", against: hash) == .valid(rehash: true))
        let again = try await hasher.hash("correct horse battery")
        #expect(again.contains("t=3"))
        #expect(await hasher.verify("correct horse battery", against: again) == .valid(rehash: false))
    }

    @Test func noCostBelowOWASPsIsTaken() {
        #expect(HashCost(passes: 1, memoryBytes: 64 << 20) == nil)
        #expect(HashCost(passes: 2, memoryBytes: (19 << 20) - 1) == nil)
        #expect(HashCost(passes: 2, memoryBytes: 19 << 20) == HashCost.owasp)
    }

    /// The password is hashed in NFKC: either spelling of `é` is the same password.
    @Test func spellingsOfOneCharacterAreOnePassword() async throws {
        let hasher = try PasswordHasher(width: 1)
        let hash = try await hasher.hash("caf\u{e9} au lait")
        #expect(await hasher.verify("cafe\u{301} au lait", against: hash) == .valid(rehash: false))
    }

    @Test func secretsAreRandomAndOnlyTheirDigestIsKept() {
        let one = SecretToken.random(prefix: "dtr_")
        let two = SecretToken.random(prefix: "dtr_")
        #expect(one != two)
        #expect(one.text.hasPrefix("dtr_"))
        // 32 bytes in unpadded base64url: 43 characters.
        #expect(one.text.count == 4 + 43)
        #expect(one.digest.count == 64)
        #expect(SecretToken(text: one.text).digest == one.digest)
        #expect(SecretToken.randomHex(count: 16).count == 32)
    }

    @Test(
        arguments: [
            ([], ""), ([0x66], "Zg"), ([0x66, 0x6f], "Zm8"), ([0x66, 0x6f, 0x6f], "Zm9v"), ([0xfb, 0xff], "-_8"),
        ] as [([UInt8], String)])
    func base64URLIsRFC4648s(bytes: [UInt8], text: String) {
        #expect(SecretToken.base64URL(bytes) == text)
    }
}
