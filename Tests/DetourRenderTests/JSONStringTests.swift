import Foundation
import Testing

@testable import DetourRender

/// JSON strings are escaped on UTF-8 bytes in one pass; they must give what the rules say for
/// Unicode scalars, and a real JSON parser must read back the text that went in.
@Suite struct JSONStringTests {
    static let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
        "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "\u{E2}", "é", "e\u{301}", "中", "😀", "\u{C2}",
    ]

    /// The rules, scalar by scalar.
    static func scalarRules(_ text: String) -> String {
        var out = "\""
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
        return out + "\""
    }

    @Test func escapingBytesGivesWhatTheScalarRulesGiveAndParsesBack() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...10, using: &generator)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            let written = JSONOutput.string(text).serializedLine()
            #expect(written == Self.scalarRules(text), "\(Array(text.unicodeScalars))")
            let read = try JSONSerialization.jsonObject(with: Data(written.utf8), options: .fragmentsAllowed) as? String
            #expect(
                read.map { Array($0.unicodeScalars) } == Array(text.unicodeScalars), "\(Array(text.unicodeScalars))")
        }
    }

    @Test(arguments: [
        ("plain", #""plain""#), ("say \"hi\"", #""say \"hi\"""#), ("a\\b", #""a\\b""#), ("\u{7}", #""\u0007""#),
        ("\u{85}", #""\u0085""#), ("x\u{2028}y", #""x\u2028y""#), ("tab\there", #""tab\there""#),
    ])
    func charactersJSONCannotCarryRawAreEscaped(_ text: String, _ expected: String) {
        #expect(JSONOutput.string(text).serializedLine() == expected)
    }

    /// Numbers in reports and templates are written digit by digit; `String(value)` is the
    /// reference, at the ends of the range and at random.
    @Test func integersAreWrittenAsStringWritesThem() {
        var generator = SystemRandomNumberGenerator()
        let values =
            [Int.min, Int.min + 1, -10, -1, 0, 1, 9, 10, Int.max]
            + (0..<2_000).map { _ in
                Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62, using: &generator)
            }
        for value in values {
            var bytes: [UInt8] = [0x78]
            bytes.appendDecimal(value)
            #expect(bytes == [0x78] + Array(String(value).utf8), "\(value)")
        }
    }
}
