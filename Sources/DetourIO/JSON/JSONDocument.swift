/// A parsed JSON document that remembers where every value was.
///
/// Foundation's JSON parsers are not used for trip files because on this platform they give no
/// position for syntax errors, accept trailing commas, take UTF-16 silently, keep the last of two
/// duplicate keys, and turn every number into a `Double` before we could keep it exactly. This
/// parser is strict RFC 8259 and small; ``JSONParser`` has the grammar.
public struct JSONDocument: Sendable {
    /// The top-level value.
    public let root: JSONNode
    /// Maps byte offsets to lines and columns.
    public let lines: LineTable
}

/// One JSON value and the byte offset where it starts.
public struct JSONNode: Sendable {
    /// The value.
    public var value: JSONValue
    /// Byte offset of its first character in the input.
    public var offset: Int

    /// The JSON type's name, for messages: `a string`, `null`, `an object`.
    public var kindName: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
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
public struct LineTable: Sendable {
    private let lineStarts: [Int]
    private let bytes: [UInt8]

    /// Indexes the line starts of `bytes`.
    public init(_ bytes: [UInt8]) {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        self.lineStarts = starts
        self.bytes = bytes
    }

    /// The line and column of a byte offset.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let start = lineStarts[low]
        let end = min(offset, bytes.count)
        var column = 1
        if start < end {
            // Count scalars, not bytes: skip UTF-8 continuation bytes.
            for index in start..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        }
        return (low + 1, column)
    }
}
