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

/// An address with a name before it, as mail programs write it (RFC 5322 name-addr).
@Suite struct NamedAddressTests {
    @Test(arguments: [
        ("Ana Silva <ana@example.org>", "Ana Silva", "ana@example.org"),
        ("\"Silva, Ana\" <ana@example.org>", "Silva, Ana", "ana@example.org"),
        ("  Ana  <ana@example.org>", "Ana", "ana@example.org"),
        ("<ana@example.org>", nil, "ana@example.org"),
        ("ana@example.org", nil, "ana@example.org"),
    ])
    func nameAndAddress(_ text: String, _ name: String?, _ address: String) throws {
        let parsed = try #require(EmailAddress(text))
        #expect(parsed.name == name)
        #expect(parsed.address == address)
        #expect(parsed.shown == name ?? address)
    }

    /// An address inside the brackets that breaks the rule is not saved by the name before it:
    /// `Ana Silva <@example.org>` read whole has `Ana Silva <` before its `@`.
    @Test(arguments: [
        "Ana Silva <ana@example>", "Ana Silva <>", "Ana <a@b>", "Ana Silva <@example.org>", "Ana <x@.org>",
        "Ana <@a.b>", "<@example.org>",
    ])
    func theAddressInsideFollowsTheRule(_ text: String) {
        #expect(EmailAddress(text) == nil)
    }

    /// Text that is not NAME <ADDRESS> is one address, by the product's lenient rule, as before.
    @Test(arguments: ["Ana <a<b@c.d>", "Ana Silva ana@example.org>", "a@b.c<]]>", "Ana Silva <ana@example.org"])
    func otherTextIsOneAddress(_ text: String) throws {
        let parsed = try #require(EmailAddress(text))
        #expect(parsed.name == nil)
        #expect(parsed.address == text)
    }

    @Test func theTextIsWrittenAsRFC5322WritesIt() throws {
        #expect(EmailAddress(#""Ana Silva" <a@b.c>"#)?.text == "Ana Silva <a@b.c>")
        #expect(EmailAddress("Ana B. Silva <a@b.c>")?.text == #""Ana B. Silva" <a@b.c>"#)
        #expect(EmailAddress(#""Say \"hi\"" <a@b.c>"#)?.name == #"Say "hi""#)
        #expect(EmailAddress(#""Say \"hi\"" <a@b.c>"#)?.text == #""Say \"hi\"" <a@b.c>"#)
        #expect(EmailAddress(name: #"Back\slash"#, address: "a@b.c")?.name == #"Back\slash"#)
        #expect(EmailAddress(name: "a<b", address: "a@b.c") == nil)
    }

    @Test func aNameAloneIsShownTheFormWithAnAddress() {
        #expect(
            EmailAddress.refusal("Ana Silva")
                == #""Ana Silva" is not an email address; write the address, with the name before it if you like: "Ana Silva <name@example.org>""#
        )
        #expect(
            EmailAddress.refusal("Ana <ana@example>")
                == #""ana@example" is not an email address: it needs one character either side of an "@", and a "." between two characters after it"#
        )
    }
}
