import DetourTestSupport
import Testing

@testable import DetourRender

/// Code spans against cmark-gfm, for every pair of backtick run lengths.
///
/// A run of backticks opens a code span only where a run of the same length closes it
/// (CommonMark 0.30 §6.1), so the inline scan must pair runs by length. Every pair of run lengths, in every place of the templates, renders as the text, and every
/// escape the escaper writes is needed.
@Suite struct MarkdownBacktickRunTests {
    /// Runs of one to five backticks around text, and with a third run after: `a``b`c`, every
    /// pair of lengths in both orders, touching and spaced.
    static let texts: [String] = {
        var texts: [String] = []
        for first in 1...5 {
            for second in 1...5 {
                let (open, close) = (String(repeating: "`", count: first), String(repeating: "`", count: second))
                texts += ["a\(open)b\(close)c", "\(open)x\(close)", "\(open) x \(close)", "\(open)\(close)x"]
                texts.append("a\(open)b\(close)c\(open)d")
            }
        }
        return texts
    }()

    @Test(
        .enabled(if: CI.runs(whenAvailable: Tool.usable("cmark-gfm")), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func everyPairOfRunLengthsRendersAsText() throws {
        #expect(Self.texts.count == 125)
        try MarkdownEscapePropertyTests.checkRendering(Self.texts)
    }

    @Test(
        .enabled(if: CI.runs(whenAvailable: Tool.usable("cmark-gfm")), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func everyEscapeOfARunIsNeeded() throws {
        try MarkdownEscapePropertyTests.checkEveryEscapeIsNeeded(Self.texts)
    }

    /// The scan itself, without cmark-gfm: a run closed by one of its own length is a code span,
    /// so its backticks are marked; a run that no run of its length follows is text.
    @Test(arguments: Array(1...5))
    func aRunIsCodeOnlyWhereARunOfItsLengthCloses(_ length: Int) {
        let run = String(repeating: "`", count: length)
        let none = { (text: String) in [Bool](repeating: false, count: text.utf8.count) }
        for other in 1...5 {
            let text = "a" + run + "b" + String(repeating: "`", count: other) + "c"
            let marks = MarkdownInlineScan([], Array(text.utf8), none(text), []).marks()
            // Kind 1 is a code span.
            #expect(marks.contains { $0.kind == 1 } == (other == length), "\(text)")
        }
    }
}
