import DetourCore
import Testing

@Suite struct EmailAddressTests {
    /// Several `@`: the rule reads from the first one, so a later `@` is just a character.
    @Test(arguments: [
        "a@b.c", "ana@example.org", "a.b@c.d.e", "a@b@c.d", "ü@exämple.de", "a@@b.c", "a@b.c@", "a@b.@c", "a@.b@c.d",
        "a@@.c", "a@b.c.",
    ])
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
        "@a@b.c",  // nothing before the first "@", though there is before the second
        "a.b@c@d",  // no "." after the first "@"
        "",
    ])
    func refusesAddressesThatBreakTheRule(_ text: String) {
        #expect(EmailAddress(text) == nil)
    }
}
