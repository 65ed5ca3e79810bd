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
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-\(nonce)'; connect-src 'self'; base-uri 'none'; form-action 'self'"
    }

    /// The script: listens to the trip's event stream and reloads when the version it gets is
    /// not the one the page was made from (`reload.html.mustache`).
    static func script(nonce: String, version: String, events: String) -> String {
        let script = ServerPages.reloadScript(nonce: nonce, version: jsonString(version), events: jsonString(events))
        return String(decoding: script, as: UTF8.self)
    }

    /// The bar a preview opens with: back to the index, and each format of the trip `name`.
    ///
    /// Each format is `/trips/NAME.EXT`, byte for byte what `render` writes, to download. Hidden
    /// on paper, so a printed preview is the report.
    static func bar(_ name: TripName, base: String) -> PreviewBarModel {
        PreviewBarModel(
            downloads: OutputFormat.withoutBrowser.map {
                (label: $0.label, href: "\(base)/\(name.text).\($0.fileExtension)")
            })
    }

    /// `page` with `chrome` after its `<body>` tag, its Content-Security-Policy meta element set
    /// to the preview's, and the script before `</body>` (or at the end).
    public static func preview(
        of page: [UInt8], nonce: String, version: String, events: String, chrome: ChromeModel = ChromeModel()
    ) -> [UInt8] {
        var text = String(decoding: Chrome.inserted(into: page, chrome), as: UTF8.self)
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

    /// A page listing `diagnostics` of the trip file `file`, in place of its report, with
    /// `chrome` after its `<body>` tag.
    static func problems(
        title: String, file: String, diagnostics: [Diagnostic], nonce: String, version: String, events: String,
        docs: String, chrome: ChromeModel
    ) -> [UInt8] {
        let rows = diagnostics.map { diagnostic in
            ProblemRowModel(
                severity: diagnostic.severity.rawValue, place: DiagnosticText.location(diagnostic, file: file),
                code: diagnostic.code.rawValue, href: docs + diagnostic.code.rawValue, message: message(diagnostic))
        }
        var model = ServerPageModel(title: title, chrome: chrome, hasBack: true)
        model.problems = ProblemsPageModel(heading: title, summary: summary(diagnostics), rows: rows)
        return preview(of: ServerPages.page(model), nonce: nonce, version: version, events: events)
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
