import Foundation

/// Files that are not plain files, for tests of `-o` targets.
enum DeviceNodes {
    /// A character device like `/dev/NAME`: a new node with the same device number in `folder`
    /// when the tests may make one (as root), so a broken build can never replace the system's
    /// own node; `/dev/NAME` itself otherwise, which a user cannot replace anyway.
    static func device(_ name: String, in folder: URL) -> String {
        let system = "/dev/\(name)"
        let copy = folder.appendingPathComponent(name).path
        var info = stat()
        guard getuid() == 0, stat(system, &info) == 0, mknod(copy, S_IFCHR | 0o666, info.st_rdev) == 0 else {
            return system
        }
        return copy
    }

    /// The kind of file at `path`, without following a final link (`S_IFREG`, `S_IFLNK`, …).
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
