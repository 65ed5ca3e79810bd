import DetourCore
import Testing

@Suite struct EmailAddressTests {
    @Test(arguments: ["a@b.c", "ana@example.org", "a.b@c.d.e", "a@b@c.d", "ü@exämple.de"])
    func acceptsAddressesThatFollowTheRule(_ text: String) {
        #expect(EmailAddress(text) != nil)
    }

    @Test(arguments: [
        "a@bc",  // no "." after the "@"
        "ab.c",  // no "@"
        "ab@.c",  // "." right after the "@"
        "@b.c",  // nothing before the "@"
        "a@",  // nothing after the "@"
        "a@b.",  // nothing after the "."
        "a.b@c",  // the only "." is before the "@"
        "",
    ])
    func refusesAddressesThatBreakTheRule(_ text: String) {
        #expect(EmailAddress(text) == nil)
    }
}
