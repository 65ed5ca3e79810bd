import DetourRender

/// The index of a folder of reports: `index.json`, `index.html`, and `index.md` when any trip
/// has a Markdown report, as a batch run, `detour-report index` and the server's front page
/// write them.
public enum IndexPages {
    /// Each index file's name and text.
    public static func render(_ index: TripIndex, templates: ReportTemplates) -> [(name: String, text: String)] {
        var files = [("index.json", index.json()), ("index.html", templates.renderIndex(index, as: .html))]
        if index.has(OutputFormat.markdown.rawValue) {
            files.append(("index.md", templates.renderIndex(index, as: .markdown)))
        }
        return files
    }
}
