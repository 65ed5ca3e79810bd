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
    /// paragraphs, fenced code, lists, tables, inline code and bold), as HTML.
    ///
    /// Written here rather than with a Markdown library: the file is the project's own, its
    /// sections use only these constructs, and every value is escaped before any markup is
    /// added, so no text of the file can become markup other than these.
    static func html(_ section: String) -> String {
        var out = ""
        var paragraph: [String] = []
        var list: [String] = []
        var table: [[String]] = []
        var code: [String]?
        func flush() {
            if !paragraph.isEmpty { out += "<p>\(inline(paragraph.joined(separator: " ")))</p>\n" }
            if !list.isEmpty { out += "<ul>\n" + list.map { "<li>\(inline($0))</li>\n" }.joined() + "</ul>\n" }
            if let header = table.first {
                out +=
                    "<table>\n<thead><tr>" + header.map { "<th>\(inline($0))</th>" }.joined()
                    + "</tr></thead>\n<tbody>\n"
                for row in table.dropFirst() {
                    out += "<tr>" + row.map { "<td>\(inline($0))</td>" }.joined() + "</tr>\n"
                }
                out += "</tbody>\n</table>\n"
            }
            (paragraph, list, table) = ([], [], [])
        }
        for (index, line) in section.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            if var lines = code {
                if text.hasPrefix("```") {
                    out += "<pre><code>\(Escaping.html(lines.joined(separator: "\n")))</code></pre>\n"
                    code = nil
                } else {
                    lines.append(text)
                    code = lines
                }
                continue
            }
            if index == 0 {
                out += "<h1><code>\(Escaping.html(text))</code></h1>\n"
            } else if text.hasPrefix("```") {
                flush()
                code = []
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
        return out
    }

    /// A line of text as HTML: escaped, then `code`, **bold**, and [a link](…) as its words.
    static func inline(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let tick = rest.firstIndex(of: "`") {
            out += emphasis(rest[..<tick])
            let after = rest[rest.index(after: tick)...]
            guard let close = after.firstIndex(of: "`") else {
                rest = after
                out += "`"
                continue
            }
            out += "<code>\(Escaping.html(String(after[..<close])))</code>"
            rest = after[after.index(after: close)...]
        }
        return out + emphasis(rest)
    }

    /// Escaped text with `**bold**` in bold and `[words](target)` as its words.
    static func emphasis(_ text: Substring) -> String {
        var plain = String(text)
        // Links to other documents would lead nowhere on the server: their words stay.
        while let open = plain.range(of: "["),
            let middle = plain.range(of: "](", range: open.upperBound..<plain.endIndex),
            let close = plain.range(of: ")", range: middle.upperBound..<plain.endIndex)
        {
            plain.replaceSubrange(open.lowerBound..<close.upperBound, with: plain[open.upperBound..<middle.lowerBound])
        }
        let parts = Escaping.html(plain).components(separatedBy: "**")
        return parts.enumerated().map {
            $0.offset % 2 == 1 && $0.offset < parts.count - 1 ? "<strong>\($0.element)</strong>" : $0.element
        }
        .joined()
    }

    /// The section as a small page, with the account bar of whoever is signed in.
    static func page(_ code: String, section: String, bar: AccountBarModel?) -> [UInt8] {
        var model = ServerPageModel(title: code, chrome: ChromeModel(bar: bar), hasBack: true)
        model.diagnostic = DiagnosticPageModel(html: DiagnosticDocs.html(section))
        return ServerPages.page(model)
    }
}
