import DetourTestSupport
import Testing

@testable import DetourRender

/// A value's one `[` that ``MarkdownEscapeRules/bracketIsText(_:at:_:_:)`` tells is text without
/// a scan is text by the scan too: escaped or not, cmark-gfm's reading (``MarkdownInlineScan``)
/// of the value in its place is the same, whatever text follows.
@Suite struct MarkdownBracketTests {
    static let alphabet: [String] = ["[", "]", "(", ")", "!", "\\", "a", "1", " ", ".", ":", "<", "*", "[1]", "](x)"]

    /// The places the built-in Markdown template gives user text, and an unknown one.
    static let contexts: [MarkdownContext] =
        MarkdownEscapePropertyTests.templatePlaces.map(\.context) + [
            MarkdownContext(before: "x [", openBefore: true, openAfter: true),
            MarkdownContext(before: "\\", after: "(y)", openAfter: true),
            MarkdownContext(after: "](z)"),
        ]

    @Test func aBracketToldTextReadsTheSameEscapedOrNot() {
        var random = SplitMix(seed: 91)
        var told = 0
        for _ in 0..<20_000 {
            let length = Int(random.next() % 10) + 1
            let value = Array(
                (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }.joined().utf8)
            for context in Self.contexts {
                for index in value.indices where value[index] == UInt8(ascii: "[") {
                    let none = [Bool](repeating: false, count: value.count)
                    guard MarkdownEscapeRules.bracketIsText(value, at: index, context, none) else { continue }
                    told += 1
                    var escaped = none
                    escaped[index] = true
                    let before = Array(((context.openBefore ? " " : "") + context.before).utf8)
                    for continuation in [""] + MarkdownEscapeRules.probes {
                        let after = Array((context.after + continuation).utf8)
                        let plain = MarkdownInlineScan(before, value, none, after).marks()
                        let kept = MarkdownInlineScan(before, value, escaped, after).marks()
                        #expect(
                            plain == kept,
                            "\(String(decoding: value, as: UTF8.self)) at \(index) before \(context.before) after \(context.after + continuation)"
                        )
                    }
                }
            }
        }
        #expect(told > 1_000)
    }

    @Test func aWarningsPathAndMessageKeepTheirBracketsUnescaped() {
        let path = MarkdownContext(lineStart: true, after: ": ", openBefore: true, openAfter: true)
        #expect(Escaping.markdown("destinations[3].arrival", path) == "destinations[3].arrival")
        let message = MarkdownContext(openBefore: true, openAfter: true)
        let text = #"the stay arrives 2026-01-01, 7 nights before the stay at "A" (destinations[13]) departs"#
        #expect(Escaping.markdown(text, message) == text)
        // A bracket that may close as a link keeps its escape.
        #expect(Escaping.markdown("see [the map", message) == #"see \[the map"#)
        #expect(Escaping.markdown("[a](b)", message) == #"\[a](b)"#)
    }
}
