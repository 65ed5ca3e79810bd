import DetourCore
import DetourJob

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which browser prints PDFs: the one `--browser` names, else `DETOUR_BROWSER`, else the first
/// of Chromium's usual names on `PATH`.
public enum BrowserSearch {
    /// The commands looked for on `PATH`, in order.
    public static let names = ["chromium", "chromium-browser", "google-chrome"]

    /// What to do when there is none, in one line.
    public static let hint =
        "install Chromium (Debian and Ubuntu: apt-get install chromium) or Google Chrome, or name one with --browser PATH or DETOUR_BROWSER"

    /// The browser's path: `named` when given (a path, or a command looked up on `PATH`), else
    /// `DETOUR_BROWSER` from `environment` when set and not empty, else the first of ``names``
    /// on its `PATH`.
    public static func find(named: String?, environment: [String: String]) throws(PrintFailure) -> String {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        if let given = named ?? environment["DETOUR_BROWSER"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let source = named == nil ? "DETOUR_BROWSER" : "--browser"
            guard let found = executable(given, searching: path) else {
                throw .noBrowser(
                    "\(source) names \(Quoting.quoted(given)), which is not a program that can be run; \(hint)")
            }
            return found
        }
        for name in names {
            if let found = executable(name, searching: path) { return found }
        }
        throw .noBrowser("no browser to print PDF with (\(names.joined(separator: ", ")) on PATH); \(hint)")
    }

    /// `command` itself when it has a `/`, else its first match in the `:`-separated `path`; only
    /// a regular file this process may run.
    static func executable(_ command: String, searching path: String) -> String? {
        let candidates =
            command.contains("/")
            ? [command]
            : path.split(separator: ":", omittingEmptySubsequences: false).map {
                ($0.isEmpty ? "." : String($0)) + "/" + command
            }
        return candidates.first { candidate in
            var info = stat()
            return stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(candidate, X_OK) == 0
        }
    }
}
