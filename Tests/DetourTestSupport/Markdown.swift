import Foundation

/// Helpers for checking Markdown output.
public enum MarkdownCheck {
    /// The `|` characters in a table row that are not backslash-escaped: its column separators.
    public static func unescapedPipes(_ row: String) -> Int {
        var count = 0
        var escaped = false
        for scalar in row.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "|" {
                count += 1
            }
        }
        return count
    }

    /// What `cmark-gfm` could not do.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The HTML `cmark-gfm` (Debian's `cmark-gfm` package) makes of `markdown`, with the table,
    /// autolink and strikethrough extensions on, as GitHub renders it; `unsafe` lets raw HTML
    /// through instead of writing `<!-- raw HTML omitted -->`.
    public static func gfm(_ markdown: String, unsafe: Bool) throws -> String {
        guard let tool = Tool.path("cmark-gfm") else {
            throw Failure(description: "cmark-gfm is not installed (apt-get install cmark-gfm)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-e", "table", "-e", "autolink", "-e", "strikethrough"] + (unsafe ? ["--unsafe"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // cmark-gfm reads the whole document before it writes, so the pipe cannot fill both ways.
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let html = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "cmark-gfm exited with \(process.terminationStatus)")
        }
        return String(decoding: html, as: UTF8.self)
    }

    /// A link in cmark-gfm's HTML.
    public struct Link: Equatable, CustomStringConvertible {
        public var href: String
        public var text: String

        /// An email autolink (GFM links `a@b.co`, `mailto:a@b.co` and `xmpp:a@b/c` whatever is
        /// escaped) that reads as the address it links to and is nothing else.
        public var isAddress: Bool {
            (href.hasPrefix("mailto:") || href.hasPrefix("xmpp:")) && !text.contains("<")
                && (href == text || href == "mailto:" + text)
        }

        /// A report's link to a place on OpenStreetMap (the template's own, around a stay's
        /// coordinates or a task's distance): exactly that URL's shape, and text with no markup.
        public var isMapLink: Bool {
            href.range(of: MarkdownCheck.mapLinkPattern, options: .regularExpression) != nil && !text.contains("<")
        }

        /// A link a report may have: an address, or a map link.
        public var isAllowed: Bool { isAddress || isMapLink }

        public var description: String { "<a href=\"\(href)\">\(text)</a>" }
    }

    /// What cmark-gfm writes for a report's map link, `&` as `&amp;`.
    static let mapLinkPattern =
        #"^https://www\.openstreetmap\.org/\?mlat=-?[0-9.]+&amp;mlon=-?[0-9.]+#map=16/-?[0-9.]+/-?[0-9.]+$"#

    private static let linkPattern = try? NSRegularExpression(pattern: #"<a href="([^"]*)">(.*?)</a>"#)
    private static let anyLinkPattern = try? NSRegularExpression(pattern: #"<a\b"#, options: [.caseInsensitive])

    /// Every `<a` in `html`: those cmark-gfm writes as `<a href="…">…</a>`, and anything else
    /// that opens an `a` tag as a link with an empty `href`, which is no address.
    public static func links(in html: String) -> [Link] {
        let range = NSRange(html.startIndex..., in: html)
        let written = (linkPattern?.matches(in: html, range: range) ?? []).compactMap { match -> Link? in
            guard let href = Range(match.range(at: 1), in: html), let text = Range(match.range(at: 2), in: html)
            else { return nil }
            return Link(href: String(html[href]), text: String(html[text]))
        }
        let opened = anyLinkPattern?.numberOfMatches(in: html, range: range) ?? 0
        return written + Array(repeating: Link(href: "", text: ""), count: max(0, opened - written.count))
    }

    /// `html` with each link that ``Link/isAddress`` replaced by its text.
    public static func unlinked(_ html: String) -> String {
        var result = html
        for link in links(in: html) where link.isAddress {
            result = result.replacingOccurrences(of: link.description, with: link.text)
        }
        return result
    }
}
