// Foundation's JSON parsers are not used for trip files because on this platform they give no
// position for syntax errors, accept trailing commas, take UTF-16 silently, keep the last of two
// duplicate keys, and turn every number into a `Double` before an amount could be kept exactly.
// ``JSONParser`` is strict RFC 8259 and small; these are the values it makes.

/// One JSON value and the byte offset where it starts.
public struct JSONNode: Sendable {
    /// The value.
    public var value: JSONValue
    /// Byte offset of its first character in the input.
    public var offset: Int

    /// The JSON type's name, for messages: `a string`, `null`, `an object`.
    public var kindName: String {
        switch value {
        case .object: return JSONKindName.object
        case .array: return JSONKindName.array
        case .string: return JSONKindName.string
        case .number: return JSONKindName.number
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// The names messages give JSON's types, for a node and for a value skipped without one.
enum JSONKindName {
    static let object = "an object"
    static let array = "an array"
    static let string = "a string"
    static let number = "a number"
}

/// A JSON value; numbers keep their exact text.
public enum JSONValue: Sendable {
    /// An object's members, in document order.
    case object([JSONMember])
    /// An array's elements.
    case array([JSONNode])
    /// A string, unescaped.
    case string(String)
    /// A number, as written (it matches RFC 8259's grammar).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
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

/// One `"key": value` member of an object.
public struct JSONMember: Sendable {
    /// The key, unescaped.
    public var key: String
    /// Byte offset of the key's opening quote.
    public var keyOffset: Int
    /// The value.
    public var value: JSONNode
}

/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
///
/// It keeps a reference to the text and scans it only when asked, so a file with no problems
/// costs nothing here.
public struct LineTable: Sendable {
    private let bytes: [UInt8]

    /// A table over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The line and column of a byte offset.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        positions(of: [offset])[offset] ?? (1, 1)
    }

    /// The lines and columns of many byte offsets, found in one pass over the text.
    public func positions(of offsets: [Int]) -> [Int: (line: Int, column: Int)] {
        var wanted = Array(Set(offsets.map { min(max($0, 0), bytes.count) })).sorted()[...]
        var found: [Int: (line: Int, column: Int)] = [:]
        var line = 1
        var column = 1
        var index = 0
        while let next = wanted.first {
            while index < next {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1  // count scalars, not bytes: skip UTF-8 continuation bytes
                }
                index += 1
            }
            found[next] = (line, column)
            wanted = wanted.dropFirst()
        }
        for offset in offsets where found[offset] == nil {
            found[offset] = found[min(max(offset, 0), bytes.count)]
        }
        return found
    }
}
