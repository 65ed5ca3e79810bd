@testable import DetourIO

// The JSON tree: what the trip reader built before it read JSON as a stream (see
// TreeDraftMapper), kept for the tests that hold the stream to it. It is built with the same
// cursor steps as the trip reader's.

extension JSONParser {
    /// Parses a whole document into a tree; the bytes must already be valid UTF-8 without a BOM.
    static func parse(_ bytes: [UInt8], maximumDepth: Int = ReadLimits.standard.maxDepth) throws(SyntaxError)
        -> JSONNode
    {
        try read(bytes, maximumDepth: maximumDepth) { cursor throws(SyntaxError) in try cursor.value(depth: 0) }
    }
}

extension JSONCursor {
    mutating func value(depth: Int) throws(JSONParser.SyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("unexpected end of input, a value was expected") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return JSONNode(value: try object(depth: depth + 1), offset: start)
        case UInt8(ascii: "["):
            return JSONNode(value: try array(depth: depth + 1), offset: start)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try string()), offset: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number()), offset: start)
        default:
            throw error("unexpected \(describeCurrent()), a value was expected\(hintForCurrent())")
        }
    }

    /// The object at the cursor, at nesting `depth`, read member by member with the same
    /// ``nextMember(_:known:)`` the trip reader uses (see `JSONPull.swift`).
    mutating func object(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        var object = try beginObject(depth: depth)
        var members: [JSONMember] = []
        while let key = try nextMember(&object, known: .none) {
            members.append(JSONMember(key: key.other, keyOffset: key.offset, value: try value(depth: object.depth)))
        }
        return .object(members)
    }

    /// The array at the cursor, at nesting `depth`, read element by element with the trip
    /// reader's ``nextElement(_:)``.
    mutating func array(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        var array = try beginArray(depth: depth)
        var elements: [JSONNode] = []
        while try nextElement(&array) {
            elements.append(try value(depth: array.depth))
        }
        return .array(elements)
    }

}

// Foundation's JSON parsers are not used for trip files because on this platform they give no
// position for syntax errors, accept trailing commas, take UTF-16 silently, keep the last of two
// duplicate keys, and turn every number into a `Double` before an amount could be kept exactly.
// ``JSONParser`` is strict RFC 8259 and small; these are the values it makes.

/// One JSON value and the byte offset where it starts.
struct JSONNode: Sendable {
    /// The value.
    var value: JSONValue
    /// Byte offset of its first character in the input.
    var offset: Int

    /// The JSON type's name, for messages: `a string`, `null`, `an object`.
    var kindName: String {
        switch value {
        case .object: return JSONKindName.object
        case .array: return JSONKindName.array
        case .string: return JSONKindName.string
        case .number: return JSONKindName.number
        case .bool: return JSONKindName.boolean
        case .null: return JSONKindName.null
        }
    }
}

/// A JSON value; numbers keep their exact text.
enum JSONValue: Sendable {
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
struct JSONMember: Sendable {
    /// The key, unescaped.
    var key: String
    /// Byte offset of the key's opening quote.
    var keyOffset: Int
    /// The value.
    var value: JSONNode
}
