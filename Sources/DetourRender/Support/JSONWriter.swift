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

    /// The value as pretty-printed JSON (two-space indent), ending in a newline.
    public func serialized() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSONOutput.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: indent + 2)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                element.write(to: &out, indent: indent + 2)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .string(let text):
            JSONOutput.writeString(text, to: &out)
        case .number(let text):
            out += text
        case .bool(let value):
            out += value ? "true" : "false"
        case .null:
            out += "null"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest UTF-8.
    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
