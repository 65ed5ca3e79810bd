import DetourCore
import DetourRender
import Foundation

/// The sections of `docs/diagnostics.md`, one per code, for the links on a diagnostics page.
public enum DiagnosticDocs {
    /// The section about `code`, from its heading to the next, or `nil` for an unknown code.
    public static func section(_ code: String) -> String? {
        guard DiagnosticCode(rawValue: code) != nil else { return nil }
        let text = String(decoding: PackageResources.diagnostics_md, as: UTF8.self)
        let heading = "### `\(code)`\n"
        guard let start = text.range(of: heading) else { return nil }
        let rest = text[start.upperBound...]
        // Every code's section has another heading after it (the retired codes come last).
        guard let end = rest.range(of: "\n#")?.lowerBound else { return nil }
        return "\(code)\n\n" + rest[..<end].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The section, which `docs/diagnostics.md` writes in a small part of Markdown (headings,
    /// paragraphs, fenced code, lists, tables, inline code and bold), as the model of its page:
    /// the page's template writes the markup and escapes every value.
    ///
    /// Read here rather than with a Markdown library: the file is the project's own and its
    /// sections use only these constructs, and no text of it can become markup, since the
    /// template escapes it all.
    static func model(_ section: String) -> DiagnosticPageModel {
        var lines = section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let code = lines.isEmpty ? "" : lines.removeFirst()
        var blocks: [DocBlockModel] = []
        var paragraph: [String] = []
        var list: [String] = []
        var table: [[String]] = []
        var fenced: [String]?
        func flush() {
            if !paragraph.isEmpty { blocks.append(.paragraph(spans(paragraph.joined(separator: " ")))) }
            if !list.isEmpty { blocks.append(.list(list.map { DocLineModel(spans($0)) })) }
            if let header = table.first {
                blocks.append(
                    .table(
                        header: header.map { DocLineModel(spans($0)) },
                        rows: table.dropFirst().map { DocRowModel($0.map { DocLineModel(spans($0)) }) }))
            }
            (paragraph, list, table) = ([], [], [])
        }
        for text in lines {
            if var code = fenced {
                if text.hasPrefix("```") {
                    blocks.append(.code(code.joined(separator: "\n")))
                    fenced = nil
                } else {
                    code.append(text)
                    fenced = code
                }
            } else if text.hasPrefix("```") {
                flush()
                fenced = []
            } else if text.trimmingCharacters(in: .whitespaces).isEmpty {
                flush()
            } else if text.hasPrefix("- ") {
                if !paragraph.isEmpty || !table.isEmpty { flush() }
                list.append(String(text.dropFirst(2)))
            } else if text.hasPrefix("|") {
                let cells = text.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                // The row under the header (`| --- | --- |`) only marks it.
                if !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { table.append(cells) }
            } else if let last = list.indices.last, text.hasPrefix("  ") {
                list[last] += " " + text.trimmingCharacters(in: .whitespaces)
            } else {
                if !list.isEmpty || !table.isEmpty { flush() }
                paragraph.append(text)
            }
        }
        flush()
        return DiagnosticPageModel(code: code, blocks: blocks)
    }

    /// A line as its runs: `code`, **bold**, and [a link](…) as its words.
    static func spans(_ text: String) -> [DocSpanModel] {
        var spans: [DocSpanModel] = []
        var rest = Substring(text)
        while let tick = rest.firstIndex(of: "`") {
            let after = rest[rest.index(after: tick)...]
            guard let close = after.firstIndex(of: "`") else {
                // An unclosed tick is a tick.
                spans += emphasis(rest[...tick])
                rest = after
                continue
            }
            spans += emphasis(rest[..<tick])
            spans.append(DocSpanModel(String(after[..<close]), .code))
            rest = after[after.index(after: close)...]
        }
        return merged(spans + emphasis(rest))
    }

    /// Text with `**bold**` in bold and `[words](target)` as its words.
    static func emphasis(_ text: Substring) -> [DocSpanModel] {
        var plain = String(text)
        // Links to other documents would lead nowhere on the server: their words stay.
        while let open = plain.range(of: "["),
            let middle = plain.range(of: "](", range: open.upperBound..<plain.endIndex),
            let close = plain.range(of: ")", range: middle.upperBound..<plain.endIndex)
        {
            plain.replaceSubrange(open.lowerBound..<close.upperBound, with: plain[open.upperBound..<middle.lowerBound])
        }
        let parts = plain.components(separatedBy: "**")
        return parts.enumerated().compactMap { part in
            guard !part.element.isEmpty else { return nil }
            let bold = part.offset % 2 == 1 && part.offset < parts.count - 1
            return DocSpanModel(part.element, bold ? .bold : .plain)
        }
    }

    /// `spans` with plain runs side by side joined into one.
    static func merged(_ spans: [DocSpanModel]) -> [DocSpanModel] {
        spans.reduce(into: []) { joined, span in
            if span.isPlain, let last = joined.last, last.isPlain {
                joined[joined.count - 1].text += span.text
            } else {
                joined.append(span)
            }
        }
    }

    /// The section as a small page, with the account bar of whoever is signed in.
    static func page(_ code: String, section: String, bar: AccountBarModel?) -> [UInt8] {
        var model = ServerPageModel(title: code, chrome: ChromeModel(bar: bar), hasBack: true)
        model.diagnostic = DiagnosticDocs.model(section)
        return ServerPages.page(model)
    }
}
