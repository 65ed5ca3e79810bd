import DetourRender

/// The index of a folder of reports: `index.json`, `index.html`, and `index.md` when any trip
/// has a Markdown report, as a batch run, `detour-report index` and the server's front page
/// write them.
public enum IndexPages {
    /// Each index file's name and text.
    ///
    /// `all` runs the makers of the texts and returns what each made, in order: one after the
    /// other unless the caller runs them on threads of its own. A batch run does, because the
    /// index of thousands of trips is written while every other core is idle.
    public static func render(
        _ index: TripIndex, templates: ReportTemplates,
        all: ([@Sendable () -> String]) -> [String] = { makers in makers.map { $0() } }
    ) -> [(name: String, text: String)] {
        var names = ["index.json", "index.html"]
        var makers: [@Sendable () -> String] = [{ index.json() }, { templates.renderIndex(index, as: .html) }]
        if index.has(.output(.markdown)) {
            names.append("index.md")
            makers.append { templates.renderIndex(index, as: .markdown) }
        }
        return Array(zip(names, all(makers)))
    }
}
