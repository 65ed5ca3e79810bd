/// A JSON value whose objects keep their key order, and its serialiser.
///
/// The JSON report is a contract scripts read, so it is built from typed data in code rather than
/// from a text template: what comes out is always valid JSON, keys stay in a stable, readable
/// order, and numbers are written exactly (amounts from `Decimal` text, never through `Double`).
public indirect enum JSONOutput: Sendable {
    /// An object with keys in this order.
    case object([(String, JSONOutput)])
    /// An array.
    case array([JSONOutput])
    /// A string.
    case string(String)
    /// A number, written as this text (which must be a valid JSON number).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// An integer.
    public static func int(_ value: Int) -> JSONOutput { .number(String(value)) }

    /// A string, or `null`.
    public static func string(_ value: String?) -> JSONOutput { value.map { .string($0) } ?? .null }

    /// A number, or `null`.
    public static func int(_ value: Int?) -> JSONOutput { value.map { .int($0) } ?? .null }

    /// The value as compact JSON on one line, without a newline: one record of JSON Lines.
    public func serializedLine() -> String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // Bytes, not String appends: a large value is many small pieces.
    private func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONOutput.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text):
            JSONOutput.writeString(text, to: &out)
        case .number(let text):
            out += text.utf8
        case .bool(let value):
            out += (value ? "true" : "false").utf8
        case .null:
            out += "null".utf8
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest UTF-8.
    ///
    /// Escaped: `"`, `\`, C0 controls (`\n`, `\r`, `\t` by name, the others as `\u00XX`),
    /// DEL and C1 controls (`\u007f`, `\u0080`…), and U+2028/U+2029, which JavaScript before
    /// ES2019 refused in strings. One pass over the UTF-8: runs with nothing to escape are copied
    /// whole. Every character escaped is ASCII, or a C1 (`C2 80`–`C2 9F`) or U+2028/9
    /// (`E2 80 A8`/`A9`) sequence, whose lead bytes are never inside another sequence.
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            var index = 0
            func escape(_ escaped: StaticString, skipping length: Int) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                out.append(contentsOf: UnsafeBufferPointer(start: escaped.utf8Start, count: escaped.utf8CodeUnitCount))
                index += length
                run = index
            }
            func escapeHex(_ value: UInt8, skipping length: Int) {
                escape("\\u00", skipping: 0)
                out.append(hexDigits[Int(value >> 4)])
                out.append(hexDigits[Int(value & 0x0F)])
                index += length
                run = index
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): escape("\\\"", skipping: 1)
                case UInt8(ascii: "\\"): escape("\\\\", skipping: 1)
                case UInt8(ascii: "\n"): escape("\\n", skipping: 1)
                case UInt8(ascii: "\r"): escape("\\r", skipping: 1)
                case UInt8(ascii: "\t"): escape("\\t", skipping: 1)
                case 0x00..<0x20, 0x7F: escapeHex(byte, skipping: 1)
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                    escapeHex(bytes[index + 1], skipping: 2)
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA8:
                    escape("\\u2028", skipping: 3)
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA9:
                    escape("\\u2029", skipping: 3)
                default: index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
