import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of the run's own in the system's temporary directory (`TMPDIR`): what `--check -d`
/// renders into and where a browser printing PDFs keeps its profile.
public enum TemporaryFolder {
    /// Makes `TMPDIR/PREFIX.XXXXXX`, readable by this user alone (`mkdtemp(3)`), or `nil`.
    public static func make(_ prefix: String) -> FilePath? {
        let temporary = NSTemporaryDirectory()
        let folder = temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
        var template = Array((folder + "/" + prefix + ".XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        return FilePath(platformString: made)
    }

    /// Removes `folder` and everything in it, as far as it can.
    public static func remove(_ folder: FilePath) {
        try? FileManager.default.removeItem(atPath: folder.string)
    }
}
