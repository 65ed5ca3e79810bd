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
}
