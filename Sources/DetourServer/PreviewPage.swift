import DetourCore
import DetourJob
import DetourRender
import Foundation

/// The live preview: a trip's HTML report, or its diagnostics, with the few lines of script
/// that reload the page when the trip changes.
///
/// The script exists only here, in pages the server sends to a browser; `render` never writes
/// it, and `/trips/NAME.html` is the report exactly as `render` writes it. The report's own
/// Content-Security-Policy (`default-src 'none'`) would block the script, so the preview's
/// policy is the report's with the script allowed by a nonce, and `connect-src 'self'` for its
/// event stream.
public enum PreviewPage {
    /// The policy a preview page is sent with, for `nonce`.
    public static func policy(nonce: String) -> String {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-\(nonce)'; connect-src 'self'"
    }

    /// The script: listens to the trip's event stream and reloads when the version it gets is
    /// not the one the page was made from.
    static func script(nonce: String, version: String, events: String) -> String {
        // The values are JSON strings, which a <script> element cannot end early: `<` is escaped.
        """
        <script nonce="\(nonce)">(function () {
          var version = \(jsonString(version));
          var events = new EventSource(\(jsonString(events)));
          events.onmessage = function (event) {
            if (event.data !== version) { events.close(); location.reload(); }
          };
        })();</script>

        """
    }

    /// The bar a preview opens with: back to the index, and each format of the trip `name`.
    ///
    /// Each format is `/trips/NAME.EXT`, byte for byte what `render` writes, to download. Hidden
    /// on paper, so a printed preview is the report.
    static func bar(_ name: TripName) -> String {
        let downloads = OutputFormat.withoutBrowser.map { format in
            "<a href=\"/trips/\(name.text).\(format.fileExtension)\" download>\(IndexLinkModel.label(format.rawValue))</a>"
        }
        return """
            <nav class="preview-bar" style="font: 10pt/1.4 sans-serif; padding: .4rem .8rem; \
            border-bottom: 1px solid #cfd6dd; background: #f3f6f8;">\
            <a href="/">← All trips</a> · Download: \(downloads.joined(separator: " · "))</nav>
            <style>@media print { nav.preview-bar { display: none; } }</style>

            """
    }

    /// `page` with its Content-Security-Policy meta element set to the preview's.
    ///
    /// The bar of links goes after `<body>` when a trip's `name` is given, and the script
    /// before `</body>` (or at the end).
    public static func preview(
        of page: [UInt8], nonce: String, version: String, events: String, name: TripName? = nil
    ) -> [UInt8] {
        var text = String(decoding: page, as: UTF8.self)
        if let name, let body = text.range(of: "<body>") {
            text.insert(contentsOf: "\n" + bar(name), at: body.upperBound)
        }
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\""
        if let start = text.range(of: meta), let end = text[start.upperBound...].firstIndex(of: "\"") {
            text.replaceSubrange(start.upperBound..<end, with: policy(nonce: nonce))
        }
        let script = script(nonce: nonce, version: version, events: events)
        if let body = text.range(of: "</body>", options: .backwards) {
            text.insert(contentsOf: script, at: body.lowerBound)
        } else {
            text += script
        }
        return Array(text.utf8)
    }

    /// A page listing `diagnostics` of the trip file `file`, in place of its report.
    public static func problems(
        title: String, file: String, diagnostics: [Diagnostic], nonce: String, version: String, events: String,
        docs: String
    ) -> [UInt8] {
        var rows = ""
        for diagnostic in diagnostics {
            let place = DiagnosticText.location(diagnostic, file: file)
            let code = diagnostic.code.rawValue
            rows += """
                <tr class="\(diagnostic.severity.rawValue)"><td class="place">\(Escaping.html(place))</td>\
                <td class="severity">\(diagnostic.severity.rawValue)</td>\
                <td class="code"><a href="\(docs)\(code)">\(code)</a></td>\
                <td class="message">\(Escaping.html(message(diagnostic)))</td></tr>

                """
        }
        let page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Escaping.html(title))</title>
            <style>
            body { margin: 0 auto; max-width: 60rem; padding: 2rem 1.5rem; color: #1d232b;
              font: 11pt/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
            table { width: 100%; border-collapse: collapse; }
            th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #cfd6dd; }
            td.place, td.code { white-space: nowrap; font-family: ui-monospace, monospace; }
            tr.error td.severity { color: #a1262b; font-weight: 600; }
            tr.warning td.severity { color: #8a5a00; font-weight: 600; }
            </style>
            </head>
            <body>
            <p><a href="/">← All trips</a></p>
            <h1>\(Escaping.html(title))</h1>
            <p class="summary">\(Escaping.html(summary(diagnostics))); the report comes back when the file is saved without errors.</p>
            <table>
            <thead><tr><th>Where</th><th>Severity</th><th>Code</th><th>Message</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            </body>
            </html>

            """
        return preview(of: Array(page.utf8), nonce: nonce, version: version, events: events)
    }

    /// The message with its path in front, as the command line prints it.
    static func message(_ diagnostic: Diagnostic) -> String {
        guard let path = diagnostic.path, !path.isEmpty else { return diagnostic.fullMessage }
        return "\(path): \(diagnostic.fullMessage)"
    }

    /// `2 errors, 1 warning`.
    static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors
        return "\(errors) \(errors == 1 ? "error" : "errors"), \(warnings) \(warnings == 1 ? "warning" : "warnings")"
    }

    /// `text` as a JSON string safe inside a `<script>` element: the JSON writer's string, which
    /// escapes quotes, control characters and U+2028/2029, with `<` escaped too, so no `</script>`
    /// can end the element early.
    static func jsonString(_ text: String) -> String {
        JSONOutput.string(text).serializedLine().replacingOccurrences(of: "<", with: "\\u003c")
    }
}

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

    /// The section as a small page.
    public static func page(_ code: String, section: String) -> [UInt8] {
        let page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>\(Escaping.html(code))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body { margin: 0 auto; max-width: 50rem; padding: 2rem 1.5rem; color: #1d232b;
              font: 11pt/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
            pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f6f8; padding: .6rem .8rem; border-radius: 4px; }
            code, pre { font: 10pt/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
            table { border-collapse: collapse; } th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #cfd6dd; }</style>
            </head>
            <body>
            <p><a href="/">← All trips</a></p>
            \(DiagnosticDocs.html(section))</body>
            </html>

            """
        return Array(page.utf8)
    }
}
