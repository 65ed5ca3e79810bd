/// The names messages give JSON's types, for a node and for a value skipped without one.
enum JSONKindName {
    static let object = "an object"
    static let array = "an array"
    static let string = "a string"
    static let number = "a number"
    static let boolean = "a boolean"
    static let null = "null"
}

/// Keys are compared by code points, as RFC 8259 says, never by Unicode equivalence (which
/// `String`'s `==` uses): `"é"` written precomposed and decomposed are two keys.
enum JSONKey {
    /// Whether `a` and `b` are the same sequence of code points (the same UTF-8 bytes).
    static func equal(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in left.elementsEqual(right) } }
    }
}
