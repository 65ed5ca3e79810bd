import Foundation

/// Golden files: expected outputs kept in the repository beside the tests.
///
/// A test compares what it made with the golden file. When they differ it fails with a unified
/// diff. Set `DETOUR_RECORD_GOLDENS=1` to rewrite every golden file from the current output
/// instead. Recording always fails the test, whether the file was new, changed or the same, so
/// a run in record mode can never pass unnoticed and every recorded file is looked at before it
/// is committed.
public enum Golden {
    /// The environment variable that turns comparing into recording.
    public static let recordVariable = "DETOUR_RECORD_GOLDENS"

    /// Whether this run rewrites golden files.
    public static var isRecording: Bool {
        let value = ProcessInfo.processInfo.environment[recordVariable] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// Compares `actual` with the golden file at `url`; returns why it failed, or `nil`.
    ///
    /// When `recording` (by default: ``isRecording``) or when the file does not exist yet, it
    /// writes `actual` to `url` and returns a failure that says so.
    public static func check(_ actual: String, against url: URL, recording: Bool = isRecording) -> String? {
        let existing = try? String(contentsOf: url, encoding: .utf8)
        if recording || existing == nil {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url, atomically: true, encoding: .utf8)
            } catch {
                return "could not record \(url.path): \(error)"
            }
            return existing == nil
                ? "recorded a new golden file at \(url.path); check it and run the tests again"
                : "recorded \(url.path) (\(existing == actual ? "unchanged" : "changed")) because \(recordVariable) is set; "
                    + "review it, then run the tests again without \(recordVariable)"
        }
        guard let existing, existing != actual else { return nil }
        return """
            output differs from \(url.lastPathComponent) (run with \(recordVariable)=1 to accept it):
            \(LineDiff.unified(old: existing, new: actual, oldName: "golden", newName: "actual"))
            """
    }
}

/// A small line diff, enough to show where a golden file and an output part ways.
public enum LineDiff {
    /// A unified diff of two texts with three lines of context, at most `maxLines` lines long.
    public static func unified(
        old: String, new: String, oldName: String, newName: String, maxLines: Int = 80
    ) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Trim the common head and tail so the quadratic table only covers the changed middle.
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] {
            tail += 1
        }
        let midA = Array(a[head..<(a.count - tail)])
        let midB = Array(b[head..<(b.count - tail)])
        var edits: [String] = []
        if midA.count * midB.count <= 4_000_000 {
            edits = lcsEdits(midA, midB)
        } else {
            edits = midA.map { "-" + $0 } + midB.map { "+" + $0 }
        }
        let contextBefore = a[max(0, head - 3)..<head].map { " " + $0 }
        let contextAfter = a[(a.count - tail)..<min(a.count, a.count - tail + 3)].map { " " + $0 }
        var lines = ["--- \(oldName)", "+++ \(newName)", "@@ from line \(head - contextBefore.count + 1) @@"]
        lines += contextBefore + edits + contextAfter
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines)) + ["… (\(lines.count - maxLines) more lines)"]
        }
        return lines.joined(separator: "\n")
    }

    private static func lcsEdits(_ a: [String], _ b: [String]) -> [String] {
        let n = a.count
        let m = b.count
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [String] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                edits.append(" " + a[i])
                i += 1
                j += 1
            } else if j < m, i == n || table[i][j + 1] >= table[i + 1][j] {
                edits.append("+" + b[j])
                j += 1
            } else {
                edits.append("-" + a[i])
                i += 1
            }
        }
        return edits
    }
}
