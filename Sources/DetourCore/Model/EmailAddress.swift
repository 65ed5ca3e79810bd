/// A traveller's email address, checked by the product's rule and nothing more.
///
/// The rule: at least one `@`, at least one character on either side of the (first) `@`, and a
/// `.` with a character on either side of it somewhere after the first `@`. So `a@b.c` is an
/// address and `a@bc`, `ab.c` and `ab@.c` are not. Deliverability is not our business.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as written.
    public let text: String

    /// Creates an address when `text` follows the rule, or returns `nil`.
    public init?(_ text: String) {
        guard EmailAddress.isValid(text) else { return nil }
        self.text = text
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
