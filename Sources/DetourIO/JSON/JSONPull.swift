// Reading a document a value at a time, for the trip reader: the draft is filled as the JSON is
// read, so a large trip is never held as a tree of nodes beside its draft, and a value the draft
// does not keep (under an unknown key, or of the wrong kind) is checked and dropped without being
// built. Building a tree (``JSONCursor/object(depth:)``, ``JSONCursor/array(depth:)``) uses these
// same steps, so both report every syntax error with the same message at the same offset.

/// Names an object may have, as UTF-8, matched byte for byte (code point by code point, as
/// RFC 8259 §8.3 compares names).
package struct KeyNames: Sendable {
    let names: [[UInt8]]

    /// No names: every key is another key (a `rates` object's currencies).
    static let none = KeyNames([])

    init(_ names: [String]) {
        // An object's known keys are counted in 32 bits (`JSONObjectReading.knownSeen`); the
        // key sets are the reader's own enums, so only a change to the code can break this.
        precondition(names.count <= 32)
        self.names = names.map { Array($0.utf8) }
    }

    /// The index of the name whose UTF-8 is `bytes`.
    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for (index, name) in names.enumerated() where name.count == bytes.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) { return index }
        }
        return nil
    }
}

/// The keys one kind of object may have, as the cases of `Key` (each case's raw value is its
/// key), so that the code reading them switches over every one by name.
package struct KnownKeys<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    package let names: KeyNames
    /// The cases, in the order of ``names``.
    package let keys: [Key]

    package init(_: Key.Type) {
        keys = Array(Key.allCases)
        names = KeyNames(keys.map(\.rawValue))
    }
}

/// An object being read: how many members so far, and which keys were seen (a key may appear
/// once).
package struct JSONObjectReading {
    /// The object's nesting depth; its members' values are read at this depth.
    package let depth: Int
    fileprivate var count = 0
    fileprivate var knownSeen: UInt32 = 0
    fileprivate var others: [String] = []
    fileprivate var otherSet: Set<CodePointKey> = []

    /// Whether `key`, which is none of the known keys, was seen before; records it.
    ///
    /// Objects have a handful of members, so comparing with each costs less than hashing; a large
    /// object (a long `rates` table) switches to a set.
    fileprivate mutating func insertOther(_ key: String) -> Bool {
        if others.count < 16 {
            if others.contains(where: { JSONKey.equal($0, key) }) { return false }
            others.append(key)
            return true
        }
        if otherSet.isEmpty { otherSet = Set(others.map { CodePointKey(text: $0) }) }
        return otherSet.insert(CodePointKey(text: key)).inserted
    }
}

/// One member's key: which known key it is, or its text when it is none of them.
package struct JSONMemberKey {
    /// The index in the ``KeyNames`` given, or `nil` for another key.
    package var known: Int?
    /// The key's text, for a key that is not known (known keys are never spelled out).
    package var other: String
    /// The byte offset of the key's opening quote.
    package var offset: Int
}

/// An array being read.
package struct JSONArrayReading {
    /// The array's nesting depth; its elements are read at this depth.
    package let depth: Int
    fileprivate var count = 0
}

extension JSONCursor {
    /// The byte at the cursor, or 0 at the end of the input.
    package var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    /// Starts the object at the cursor (which is on its `{`) at nesting `depth`.
    package mutating func beginObject(depth: Int) throws(JSONParser.SyntaxError) -> JSONObjectReading {
        try checkDepth(depth)
        index += 1  // {
        skipWhiteSpace()
        return JSONObjectReading(depth: depth)
    }

    /// The next member's key, with the cursor on its value (which the caller must read); `nil`
    /// when the object ends.
    package mutating func nextMember(_ object: inout JSONObjectReading, known: KeyNames) throws(JSONParser.SyntaxError)
        -> JSONMemberKey?
    {
        if object.count == 0 {
            if peek == UInt8(ascii: "}") {
                index += 1
                return nil
            }
        } else if try !another(close: UInt8(ascii: "}")) {
            return nil
        }
        skipWhiteSpace()
        guard peek == UInt8(ascii: "\"") else {
            let trailing = peek == UInt8(ascii: "}")  // after a comma: an empty object ended above
            throw error(
                trailing
                    ? "trailing comma before \"}\" (JSON allows no comma after the last member)"
                    : "unexpected \(describeCurrent()), a key in double quotes was expected\(hintForCurrent())")
        }
        let offset = index
        var key = JSONMemberKey(known: nil, other: "", offset: offset)
        switch try stringToken() {
        case .span(let range):
            key.known = known.index(of: UnsafeBufferPointer(rebasing: bytes[range]))
            if key.known == nil {
                key.other = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
        case .text(var text):
            key.known = text.withUTF8 { known.index(of: $0) }
            if key.known == nil { key.other = text }
        }
        let duplicate: Bool
        if let index = key.known {
            duplicate = object.knownSeen & (1 << UInt32(index)) != 0
            object.knownSeen |= 1 << UInt32(index)
        } else {
            duplicate = !object.insertOther(key.other)
        }
        guard !duplicate else {
            let text = key.known.map { String(decoding: known.names[$0], as: UTF8.self) } ?? key.other
            throw error("duplicate key \(quoted(text)) in one object", at: offset, code: .jsonDuplicateKey)
        }
        skipWhiteSpace()
        guard peek == UInt8(ascii: ":") else {
            throw error("unexpected \(describeCurrent()), \":\" was expected after a key")
        }
        index += 1
        skipWhiteSpace()
        object.count += 1
        return key
    }

    /// Starts the array at the cursor (which is on its `[`) at nesting `depth`.
    package mutating func beginArray(depth: Int) throws(JSONParser.SyntaxError) -> JSONArrayReading {
        try checkDepth(depth)
        index += 1  // [
        skipWhiteSpace()
        return JSONArrayReading(depth: depth)
    }

    /// Whether another element follows, with the cursor on it (the caller must read it).
    package mutating func nextElement(_ array: inout JSONArrayReading) throws(JSONParser.SyntaxError) -> Bool {
        if array.count == 0 {
            if peek == UInt8(ascii: "]") {
                index += 1
                return false
            }
        } else {
            guard try another(close: UInt8(ascii: "]")) else { return false }
            skipWhiteSpace()
            if peek == UInt8(ascii: "]") {
                throw error("trailing comma before \"]\" (JSON allows no comma after the last element)")
            }
        }
        skipWhiteSpace()
        array.count += 1
        return true
    }

    /// Reads and drops the value at the cursor, checking it as any other (syntax, nesting,
    /// repeated keys) but keeping nothing, and names its kind for a message: `a string`, `null`.
    package mutating func skipValue(depth: Int) throws(JSONParser.SyntaxError) -> String {
        switch peek {
        case UInt8(ascii: "{"):
            var object = try beginObject(depth: depth + 1)
            while try nextMember(&object, known: .none) != nil { _ = try skipValue(depth: object.depth) }
            return JSONKindName.object
        case UInt8(ascii: "["):
            var array = try beginArray(depth: depth + 1)
            while try nextElement(&array) { _ = try skipValue(depth: array.depth) }
            return JSONKindName.array
        case UInt8(ascii: "\""):
            _ = try stringToken()
            return JSONKindName.string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try number()
            return JSONKindName.number
        default:
            return try literal()
        }
    }
}
