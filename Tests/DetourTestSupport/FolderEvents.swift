import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A wait for something a program writes into a folder (a log line, a file), woken by the
/// folder's inotify events rather than by the clock.
public enum FolderEvents {
    /// Waits until `condition` holds, looking again after each change in `folder` (a file
    /// created, written, closed or moved in); whether it held within `timeout` seconds, a bound
    /// on a broken program, never a wait the test relies on.
    public static func wait(in folder: URL, timeout: Double = 60, until condition: () -> Bool) -> Bool {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return condition() }
        defer { close(descriptor) }
        // Watched before the first look, so that no change between the look and the wait is missed.
        let events = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO)
        guard inotify_add_watch(descriptor, folder.path, events) >= 0 else { return condition() }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !condition() {
            let left = deadline.timeIntervalSinceNow
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&poller, 1, Int32(left * 1000)) > 0 else { return condition() }
            _ = read(descriptor, &buffer, buffer.count)
        }
        return true
    }
}
