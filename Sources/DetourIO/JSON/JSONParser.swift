import DetourCore

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It refuses what the RFC refuses (trailing commas, `NaN`, comments, single quotes, leading
/// zeros, raw control characters in strings, lone surrogates), refuses duplicate keys in an
/// object, and limits nesting so no input can exhaust the stack. The first error stops it; the
/// error carries the byte offset where it was found.
public struct JSONParser {
    /// Why the input is not JSON, and where.
    public struct SyntaxError: Error, Sendable, Equatable {
        /// What is wrong.
        public var message: String
        /// The byte offset of the problem.
        public var offset: Int
        /// Which kind of problem: a syntax error, a duplicate key or too deep a nesting.
        public var code: DiagnosticCode
    }

    /// Reads one whole document with `body`, which reads the value at the cursor: leading and
    /// trailing white space are skipped, and anything after the value is an error.
    package static func read<Value>(
        _ bytes: [UInt8], maximumDepth: Int, _ body: (inout JSONCursor) throws(SyntaxError) -> Value
    ) throws(SyntaxError) -> Value {
        let result: Result<Value, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(bytes: buffer, maximumDepth: maximumDepth)
            do throws(SyntaxError) {
                cursor.skipWhiteSpace()
                let value = try body(&cursor)
                cursor.skipWhiteSpace()
                if cursor.index < buffer.count {
                    throw cursor.error("unexpected \(cursor.describeCurrent()) after the end of the JSON value")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// An object key compared code point by code point, as RFC 8259 §8.3 compares names.
///
/// `String`'s own `==` and hash follow canonical equivalence, which would make `"café"` in NFC
/// and in NFD one key.
struct CodePointKey: Hashable {
    let text: String

    static func == (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
        JSONKey.equal(lhs.text, rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

/// The parser's position in the input.
///
/// Objects and arrays are read a member or an element at a time (``beginObject(depth:)``,
/// ``nextMember(_:known:)``, ``beginArray(depth:)``, ``nextElement(_:)`` in `JSONPull.swift`):
/// the trip reader pulls values that way (and the tests build a tree with the same steps).
package struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    package var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    package func error(_ message: String, at offset: Int? = nil, code: DiagnosticCode = .jsonSyntax)
        -> JSONParser.SyntaxError
    {
        JSONParser.SyntaxError(message: message, offset: offset ?? index, code: code)
    }

    /// The next character for a message: `"}"`, or `the end of the input`.
    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        return "character 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// A literal at the cursor (`true`, `false`, `null`), read past; its kind's name for
    /// messages, or the error for anything else that is no value.
    mutating func literal() throws(JSONParser.SyntaxError) -> String {
        guard index < bytes.count else { throw error("unexpected end of input, a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONKindName.boolean
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONKindName.boolean
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONKindName.null
        default:
            throw error("unexpected \(describeCurrent()), a value was expected\(hintForCurrent())")
        }
    }

    /// A hint for a few common non-JSON tokens.
    func hintForCurrent() -> String {
        let rest = bytes[index..<min(bytes.count, index + 9)]
        let word = String(decoding: rest, as: UTF8.self)
        if word.hasPrefix("NaN") || word.hasPrefix("Infinity") || word.hasPrefix("-Infinity") {
            return " (NaN and Infinity are not JSON numbers)"
        }
        if word.hasPrefix("'") { return " (JSON strings use double quotes)" }
        if word.hasPrefix("/") { return " (JSON has no comments)" }
        return decimalCommaHint()
    }

    /// ` (a JSON number has no decimal comma: write 12.50)` when the current byte is a digit
    /// right after a comma right after a whole number (`"amount": 12,50`); else empty.
    func decimalCommaHint() -> String {
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard index >= 2, index < bytes.count, isDigit(bytes[index]), bytes[index - 1] == UInt8(ascii: ","),
            isDigit(bytes[index - 2])
        else { return "" }
        var start = index - 2
        while start > 0, isDigit(bytes[start - 1]) { start -= 1 }
        var end = index
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        let whole = String(decoding: bytes[start..<index - 1], as: UTF8.self)
        let fraction = String(decoding: bytes[index..<end], as: UTF8.self)
        return " (a JSON number has no decimal comma: write \(whole).\(fraction))"
    }

    package mutating func literal(_ word: StaticString) throws(JSONParser.SyntaxError) {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(expected) else {
            throw error("unexpected \(describeCurrent()), a value was expected\(hintForCurrent())")
        }
        index += count
    }

    /// Refuses an array or object nested deeper than ``maximumDepth``.
    func checkDepth(_ depth: Int) throws(JSONParser.SyntaxError) {
        guard depth <= maximumDepth else {
            throw error(
                "nesting is too deep: more than \(maximumDepth) levels of arrays and objects", code: .jsonTooDeep)
        }
    }

    /// After a member or an element: `true` past a comma (another follows), `false` past `close`
    /// (the container ends).
    mutating func another(close: UInt8) throws(JSONParser.SyntaxError) -> Bool {
        skipWhiteSpace()
        func closing() -> String { "\"\(Character(Unicode.Scalar(close)))\"" }
        guard index < bytes.count else { throw error("unexpected end of input, \(closing()) was expected") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return true
        case close:
            index += 1
            return false
        default:
            throw error("unexpected \(describeCurrent()), \",\" or \(closing()) was expected")
        }
    }

    package mutating func number() throws(JSONParser.SyntaxError) -> String {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("a digit was expected after \"-\"\(hintForCurrent())")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("a number may not have a leading zero", at: start)
            }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit was expected after the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("a digit was expected in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    package mutating func string() throws(JSONParser.SyntaxError) -> String {
        switch try stringToken() {
        case .span(let range): return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .text(let text): return text
        }
    }

    /// A string as it lies in the input: its bytes there when it has no escapes (so a key can be
    /// matched without making a `String`), or else its unescaped text.
    enum StringToken {
        case span(Range<Int>)
        case text(String)
    }

    mutating func stringToken() throws(JSONParser.SyntaxError) -> StringToken {
        let open = index
        index += 1  // "
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return .span(start..<index - 1)
            }
            if byte == backslash { break }
            if byte < 0x20 { throw controlCharacterError(byte) }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return .text(String(decoding: buffer, as: UTF8.self))
            }
            if byte < 0x20 { throw controlCharacterError(byte) }
            if byte != backslash {
                buffer.append(byte)
                index += 1
                continue
            }
            let escapeStart = index
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case quote, backslash, UInt8(ascii: "/"): buffer.append(escaped)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                let units = try unicodeEscape(escapeStart: escapeStart)
                buffer.append(contentsOf: String(decoding: units, as: UTF16.self).utf8)
            default:
                throw error("invalid escape \"\\\(describeEscaped(escaped))\" in a string", at: escapeStart)
            }
        }
        throw error("unexpected end of input inside a string that starts here", at: open)
    }

    func describeEscaped(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "?"
    }

    func controlCharacterError(_ byte: UInt8) -> JSONParser.SyntaxError {
        let name = byte == 0x0A ? "a line break" : "the control character " + Quoting.codePoint(UInt32(byte))
        return error("\(name) inside a string must be escaped (or the string is not closed)")
    }

    /// Reads `XXXX` after `\u` (and a low surrogate's `\uXXXX` after a high one): the UTF-16 of
    /// one scalar, so a surrogate pair is checked whole and every other unit is a scalar itself.
    mutating func unicodeEscape(escapeStart: Int) throws(JSONParser.SyntaxError) -> [UInt16] {
        let high = try hex4(escapeStart: escapeStart)
        if (0xDC00...0xDFFF).contains(high) {
            throw error("lone low surrogate \\u\(Quoting.hex4(UInt32(high))) in a string", at: escapeStart)
        }
        guard (0xD800...0xDBFF).contains(high) else { return [high] }
        guard index + 1 < bytes.count, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
            throw error("lone high surrogate \\u\(Quoting.hex4(UInt32(high))) in a string", at: escapeStart)
        }
        let lowStart = index
        index += 2
        let low = try hex4(escapeStart: lowStart)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw error("lone high surrogate \\u\(Quoting.hex4(UInt32(high))) in a string", at: escapeStart)
        }
        return [high, low]
    }

    mutating func hex4(escapeStart: Int) throws(JSONParser.SyntaxError) -> UInt16 {
        guard index + 4 <= bytes.count else {
            throw error("\\u must be followed by four hex digits", at: escapeStart)
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u must be followed by four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars.prefix(60) {
            out += scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : String(scalar)
        }
        return out + "\""
    }
}
