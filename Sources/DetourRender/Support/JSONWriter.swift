/// A JSON value whose objects keep their key order, and its serialiser.
///
/// The JSON report is a contract scripts read, so it is built from typed data in code rather than
/// from a text template: what comes out is always valid JSON, keys stay in a stable, readable
/// order, and numbers are written exactly (amounts from `Decimal` text, never through `Double`).
public indirect enum JSONOutput: Sendable, Equatable {
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

    /// Compares structure and text.
    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let a), .array(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// The value as pretty-printed JSON (two-space indent), ending in a newline, laid out by
    /// ``JSONStream`` as the JSON report is.
    public func serialized() -> String {
        var stream = JSONStream()
        write(to: &stream)
        stream.newline()
        return String(decoding: stream.bytes, as: UTF8.self)
    }

    /// The value as compact JSON on one line, without a newline: one record of JSON Lines.
    public func serializedLine() -> String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to stream: inout JSONStream) {
        switch self {
        case .object(let members):
            stream.object { stream in
                for (key, value) in members {
                    stream.member(key)
                    value.write(to: &stream)
                }
            }
        case .array(let elements):
            stream.array(elements) { stream, element in element.write(to: &stream) }
        case .string(let text): stream.string(text)
        case .number(let text): stream.number(text)
        case .bool(let value): stream.bool(value)
        case .null: stream.null()
        }
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
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !needsEscaping(text) {
            out += text.utf8
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\"".utf8
                case "\\": out += "\\\\".utf8
                case "\n": out += "\\n".utf8
                case "\r": out += "\\r".utf8
                case "\t": out += "\\t".utf8
                case "\u{2028}": out += "\\u2028".utf8
                case "\u{2029}": out += "\\u2029".utf8
                default:
                    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                        let hex = String(scalar.value, radix: 16)
                        out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
                    } else {
                        out += String(scalar).utf8
                    }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any byte of `text` must be escaped (quote, backslash, C0, DEL, C1, U+2028/9).
    private static func needsEscaping(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x00...0x1F, 0x22, 0x5C, 0x7F, 0xE2: return true
            case 0x80...0x9F where previous == 0xC2: return true
            default: previous = byte
            }
        }
        return false
    }
}
