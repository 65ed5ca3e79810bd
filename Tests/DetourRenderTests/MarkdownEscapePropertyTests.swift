import DetourTestSupport
import Foundation
import Testing

@testable import DetourRender

/// The Markdown escaper against cmark-gfm on random text: what renders is the text, and every
/// escape is needed.
@Suite struct MarkdownEscapePropertyTests {
    /// A place user text goes in a built-in template.
    ///
    /// The Markdown around it and the context the template compiler gives it. Where more may follow, the escaper's continuations are tried after it.
    struct Place: Sendable {
        var name: String
        var prefix: String
        var suffix: String
        var context: MarkdownContext
        /// Whether each escape must be needed here: not where the context cannot tell this place
        /// from another (a heading's `(draft)` is a section that may be absent).
        var minimal = true
    }

    /// The places of the built-in templates, each also with the context a `--templates` folder
    /// gives (which must render the text as well, though it may escape more), and a line under a
    /// paragraph's, which only a `--templates` folder can make.
    static let places: [Place] =
        templatePlaces
        + (templatePlaces + [Place(name: "under a line", prefix: "Title\n", suffix: "", context: .conservative)]).map {
            Place(
                name: $0.name + " (unknown template)", prefix: $0.prefix, suffix: $0.suffix, context: .conservative,
                minimal: false)
        }

    static let templatePlaces: [Place] = [
        Place(name: "h1", prefix: "# ", suffix: "", context: MarkdownContext(headingEnd: true)),
        Place(name: "h3", prefix: "### ", suffix: "", context: MarkdownContext(headingEnd: true)),
        Place(
            name: "h4", prefix: "#### 1. ", suffix: "",
            context: MarkdownContext(headingEnd: true, before: ". ", openBefore: true, openAfter: true)),
        Place(
            name: "h4 draft", prefix: "#### 1. ", suffix: " (draft)",
            context: MarkdownContext(headingEnd: true, before: ". ", openBefore: true, openAfter: true), minimal: false),
        Place(
            name: "traveler", prefix: "Traveler: ", suffix: " · Plan as of 1 May",
            context: MarkdownContext(before: "Traveler: ", after: " · ", openBefore: true, openAfter: true)),
        Place(
            name: "cell", prefix: "| a | b |\n| --- | --- |\n| ", suffix: " | c |",
            context: MarkdownContext(tableCell: true)),
        Place(
            name: "pro", prefix: "| a | b |\n| --- | --- |\n| Pros | ", suffix: "<br>x |",
            context: MarkdownContext(tableCell: true, openBefore: true, openAfter: true)),
        Place(
            name: "pick", prefix: "**Pick ", suffix: "**: shorter.",
            context: MarkdownContext(before: "**Pick ", after: "**: ", openBefore: true, openAfter: true)),
        Place(
            name: "chosen", prefix: "**Chosen ", suffix: "**: the budget leaves no room for the pick.",
            context: MarkdownContext(
                before: "**Chosen ", after: "**: the budget leaves no room for the pick.")),
        Place(
            name: "item", prefix: "- **Mon 1 June**: ", suffix: "",
            context: MarkdownContext(openBefore: true, openAfter: true)),
        Place(
            name: "path", prefix: "- ", suffix: ": message \\[code\\]",
            context: MarkdownContext(lineStart: true, after: ": ", openBefore: true, openAfter: true)),
        Place(
            name: "code", prefix: "- message \\[", suffix: "\\]",
            context: MarkdownContext(before: " \\[", after: "\\]", openBefore: true)),
    ]

    static let alphabet: [String] =
        Array("*_`[]()<>&#;!\\|~-+=.:@/\"'{}%^?$,".map(String.init)) + Array("aaxwwh1209  ".map(String.init))
        + ["é", "–", "“", "日", "www.", "http://", "&amp;", "&#35;", "<a>", "\n"]

    static func randomText(_ random: inout SplitMix) -> String {
        let length = Int(random.next() % 12)
        return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    static func cmark(_ documents: [String]) throws -> [String] {
        let separator = "\n\n<!--sep-->\n\n"
        let html = try MarkdownCheck.gfm(documents.joined(separator: separator), unsafe: true)
        return html.components(separatedBy: "<!--sep-->\n")
    }

    static func escapes(_ escaped: String) -> [String.Index] {
        var result: [String.Index] = []
        var index = escaped.startIndex
        while index < escaped.endIndex {
            if escaped[index] == "\\" {
                result.append(index)
                index = escaped.index(after: index)
            }
            if index < escaped.endIndex { index = escaped.index(after: index) }
        }
        return result
    }

    /// Whole constructs random text seldom spells: HTML blocks and tags with attributes,
    /// comments, processing instructions, declarations, CDATA, links with titles and angle
    /// destinations, entities, autolinks; each in every place.
    static let constructs = [
        "<!-- note -->", "a <!-- b --> c", "<!-->", "<!--->", "<!-- a -- b -->", "<?php x ?>", "<!DOCTYPE html>",
        "<!doctype", "<![CDATA[x]]>", "<div>", "<div/>", "<div/x", "</div>", "<DIV class=x>", "<script>",
        "<pre x", "<style>", "<textarea>", "<a href=\"x\" title='y' data-z=w>", "<a b=c d = 'e'/>",
        "<a b=\"c>", "<x-y>", "</a >", "<a\nb>", "[a](b \"t\")", "[a](<b c> 't')", "[a](b (t))",
        "[a](b \"t)", "[a](<b>)", "![i](x.png)", "[a]: /u", "&copy; &#169; &#xA9; &foo;", "<https://x.org>",
        "www.x.org/a_b_", "https://x.org/(a)", "a*b*c", "_a_b_", "**a**", "~~a~~", "`a``b`",
        "# a #", "1) a", "10. b", "- a", "+ a", "> a", "=== ", "---", "\\*", "a\\", "|a|b|",
    ]

    @Test(.enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func renderedTextIsTheInputAndEveryEscapeIsNeeded() throws {
        var random = SplitMix(seed: 2024)
        try Self.checkRendering((0..<300).map { _ in Self.randomText(&random) })
    }

    @Test(.enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func constructsRenderAsTextAndEveryEscapeIsNeeded() throws {
        try Self.checkRendering(Self.constructs)
        // A warning's path that starts like a link reference definition keeps its escape: what
        // rules the definition out is the template's text after the message that follows it,
        // which the escaper does not see (it sees the text up to the next value).
        try Self.checkEveryEscapeIsNeeded(Self.constructs.filter { $0 != "[a]: /u" })
    }

    /// (1) What renders is the plain text in the same place.
    static func checkRendering(_ texts: [String]) throws {
        var cases: [(Place, String, String)] = []
        for text in texts {
            for place in Self.places { cases.append((place, text, Escaping.markdown(text, place.context))) }
        }
        // (1) what renders is the plain text in the same place.
        var documents: [String] = []
        for (place, text, escaped) in cases {
            let plain = text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
            documents.append(place.prefix + escaped + place.suffix)
            documents.append(place.prefix + Self.placeholder(plain) + place.suffix)
        }
        let html = try Self.cmark(documents)
        try #require(html.count == documents.count)
        var failures = 0
        for (index, (place, text, escaped)) in cases.enumerated() {
            let plain = text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
            let expected = html[2 * index + 1].replacingOccurrences(of: "PLACEHOLDER", with: Self.htmlText(plain))
            if html[2 * index] != expected, failures < 20 {
                failures += 1
                Issue.record(
                    "\(place.name): \(text.debugDescription) → \(escaped.debugDescription)\n\(html[2 * index])\(expected)"
                )
            }
        }
    }

    /// (2) Taking any one escape away changes what renders, with the template's own text after
    /// the value or, where more may follow, with one of the escaper's continuations after it.
    @Test(.enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func everyEscapeIsNeeded() throws {
        var random = SplitMix(seed: 2025)
        try Self.checkEveryEscapeIsNeeded((0..<300).map { _ in Self.randomText(&random) })
    }

    static func checkEveryEscapeIsNeeded(_ texts: [String]) throws {
        var checks: [(place: Place, text: String, escaped: String, removed: String)] = []
        for text in texts {
            for place in Self.places where place.minimal {
                let escaped = Escaping.markdown(text, place.context)
                for position in Self.escapes(escaped) {
                    var removed = escaped
                    removed.remove(at: position)
                    checks.append((place, text, escaped, removed))
                }
            }
        }
        // First with nothing after the value; what renders the same there is tried again with
        // every continuation the escaper considers where more may follow.
        var unresolved = checks
        for followers in [[""], MarkdownEscapeRules.probes] {
            var documents: [String] = []
            for check in unresolved {
                for follower in check.place.context.openAfter ? followers : [""] {
                    documents.append(check.place.prefix + check.escaped + follower + check.place.suffix)
                    documents.append(check.place.prefix + check.removed + follower + check.place.suffix)
                }
            }
            let html = try Self.cmark(documents)
            try #require(html.count == documents.count)
            var next = 0
            unresolved = unresolved.filter { check in
                let count = check.place.context.openAfter ? followers.count : 1
                defer { next += 2 * count }
                return !(0..<count).contains { html[next + 2 * $0] != html[next + 2 * $0 + 1] }
            }
        }
        for check in unresolved.prefix(20) {
            Issue.record(
                "\(check.place.name): \(check.text.debugDescription) → \(check.escaped.debugDescription): \(check.removed.debugDescription) renders the same"
            )
        }
    }

    static func placeholder(_ plain: String) -> String { plain.isEmpty ? "" : "PLACEHOLDER" }

    static func htmlText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
