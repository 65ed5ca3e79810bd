/// The report templates compiled into the binary, so `detour-report` works from any directory.
///
/// The `.mustache` files beside this one are the source; SwiftPM embeds their bytes at build
/// time. Keep this folder flat: embedded names are flattened.
public enum BundledTemplates {
    /// Every template, by file name (`report.html.mustache`), as UTF-8 text.
    public static let files: [String: String] = [
        "report.html.mustache": String(decoding: PackageResources.report_html_mustache, as: UTF8.self),
        "report.md.mustache": String(decoding: PackageResources.report_md_mustache, as: UTF8.self),
        "index.html.mustache": String(decoding: PackageResources.index_html_mustache, as: UTF8.self),
        "index.md.mustache": String(decoding: PackageResources.index_md_mustache, as: UTF8.self),
        "page.html.mustache": String(decoding: PackageResources.page_html_mustache, as: UTF8.self),
        "chrome.html.mustache": String(decoding: PackageResources.chrome_html_mustache, as: UTF8.self),
        "field.html.mustache": String(decoding: PackageResources.field_html_mustache, as: UTF8.self),
        "span.html.mustache": String(decoding: PackageResources.span_html_mustache, as: UTF8.self),
        "reload.html.mustache": String(decoding: PackageResources.reload_html_mustache, as: UTF8.self),
    ]
}
