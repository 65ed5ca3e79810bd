import Foundation

/// A traveller's email address, checked by the product's rule and nothing more, with the name
/// it may be written with.
///
/// The rule: at least one `@`, at least one character on either side of the (first) `@`, and a
/// `.` with a character on either side of it somewhere after the first `@`. So `a@b.c` is an
/// address and `a@bc`, `ab.c` and `ab@.c` are not. Deliverability is not our business.
///
/// The address may come with a name, as mail programs write it (RFC 5322's name-addr):
/// `Ana Silva <ana@example.org>` or `"Silva, Ana" <ana@example.org>`. The address inside the
/// angle brackets follows the same rule; the report shows the name.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address, with its name before it when it has one, as RFC 5322 writes it: the name in
    /// quotes when it holds a character that would otherwise end it (`"Silva, Ana" <a@b.c>`).
    public let text: String
    /// The address alone: `ana@example.org`.
    public let address: String
    /// The name written before the address, without quotes, or `nil`: `Ana Silva`.
    public let name: String?

    /// Creates an address when `text` follows the rule, or returns `nil`.
    ///
    /// `NAME <ADDRESS>` is read as a name and an address when the address inside follows the
    /// rule and the name holds no angle bracket. When it does not, and the name holds no `@`
    /// either, the text is no address: read whole, its `@` would have the name and `<` before it
    /// (`Ana <@example.org>`). Any other text is one address.
    public init?(_ text: String) {
        if let (name, address) = EmailAddress.nameAndAddress(text) {
            (self.name, self.address) = (name, address)
            self.text = name.map { "\(EmailAddress.quotedIfNeeded($0)) <\(address)>" } ?? address
        } else {
            if let (name, _) = EmailAddress.angleBracketed(text), !name.contains(where: { "<>@".contains($0) }) {
                return nil
            }
            guard EmailAddress.isValid(text) else { return nil }
            (self.name, self.address, self.text) = (nil, text, text)
        }
    }

    /// An address with a name: `name` may hold any text but a line break or an angle bracket.
    public init?(name: String, address: String) {
        guard !name.contains(where: { "<>".contains($0) }) else { return nil }
        self.init("\(EmailAddress.quotedIfNeeded(name)) <\(address)>")
    }

    /// What a person reading the report calls the traveller: the name, else the address.
    public var shown: String { name ?? address }

    /// `NAME <ADDRESS>` split in two (the name unquoted when quoted, `nil` when empty), or `nil`
    /// when `text` is not written that way or its address does not follow the rule.
    static func nameAndAddress(_ text: String) -> (String?, String)? {
        guard let (before, address) = angleBracketed(text) else { return nil }
        var name = before.trimmingCharacters(in: .whitespaces)
        guard isValid(address), !name.contains(where: { "<>".contains($0) }) else { return nil }
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            // A quoted-string: a backslash keeps the character after it.
            var unquoted = ""
            var escaped = false
            for character in name.dropFirst().dropLast() {
                if !escaped, character == "\\" {
                    escaped = true
                    continue
                }
                unquoted.append(character)
                escaped = false
            }
            name = unquoted
        }
        return (name.isEmpty ? nil : name, address)
    }

    /// `text` ending in `<ADDRESS>`, split before the last `<`, or `nil`.
    private static func angleBracketed(_ text: String) -> (before: Substring, address: String)? {
        guard text.hasSuffix(">"), let open = text.lastIndex(of: "<") else { return nil }
        return (text[..<open], String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }

    /// `name` as RFC 5322 writes it before an address: as it is when it is plain words, else in
    /// quotes with `"` and `\` escaped.
    static func quotedIfNeeded(_ name: String) -> String {
        let specials = "()<>[]:;@\\,.\""
        guard name.contains(where: { specials.contains($0) }) || name.hasPrefix(" ") || name.hasSuffix(" ") else {
            return name
        }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// Why `text` is no traveller: a name alone is shown the form that gives it an address.
    public static func refusal(_ text: String) -> String {
        if isPhoneNumber(text) {
            return "\(Quoting.quoted(text)) is a phone number, not an email address; write the traveler's address, "
                + "with the name before it if you like: \"Ana Silva <ana@example.org>\""
        }
        if !text.contains("@") {
            let name = text.trimmingCharacters(in: .whitespaces)
            let example = name.isEmpty ? "Ana Silva <ana@example.org>" : "\(name) <name@example.org>"
            return "\(Quoting.quoted(text)) is not an email address; write the address, with the name before it if you "
                + "like: \(Quoting.quoted(example))"
        }
        // Of NAME <ADDRESS>, the address is what breaks the rule.
        let address = angleBracketed(text)?.address ?? text
        return "\(Quoting.quoted(address)) is not an email address: it needs one character "
            + "either side of an \"@\", and a \".\" between two characters after it"
    }

    /// Whether `text` looks like a phone number: at least six digits, and besides them only
    /// `+`, spaces, `-`, `.`, `/` and brackets.
    static func isPhoneNumber(_ text: String) -> Bool {
        text.filter(\.isNumber).count >= 6 && text.allSatisfy { $0.isASCII && ($0.isNumber || "+ -./()".contains($0)) }
    }

    /// Whether `text` follows the rule.
    public static func isValid(_ text: String) -> Bool {
        let characters = Array(text)
        guard let at = characters.firstIndex(of: "@"), at > 0, at < characters.count - 1 else {
            return false
        }
        // The character before the "." must itself come after the "@": `ab@.c` has none.
        let afterAt = characters.index(after: at)
        for dot in afterAt..<characters.count where characters[dot] == "." {
            if dot > afterAt, dot < characters.count - 1 { return true }
        }
        return false
    }

    public var description: String { text }
}
