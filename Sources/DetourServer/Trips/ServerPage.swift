import DetourRender

/// A page of the server's own, not a report: one head, one policy and one look for each.
///
/// The pages are a diagnostic's documentation and a trip's problems in place of its preview.
enum ServerPage {
    /// The whole page: `title` (text, escaped here), `style` added to the shared rules, and
    /// `body` (HTML) after the link back to the index (unless `back` is false).
    static func html(title: String, style: String, body: String, back: Bool = true) -> String {
        """
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
        table { border-collapse: collapse; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #cfd6dd; }
        \(style)</style>
        </head>
        <body>
        \(back ? "<p><a href=\"/\">← All trips</a></p>\n" : "")\(body)</body>
        </html>

        """
    }
}
