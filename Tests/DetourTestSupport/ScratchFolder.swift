import Foundation

/// A folder of its own in the system's temporary directory, removed with everything in it when
/// the value goes away.
///
/// Swift Testing makes a suite's value for each test and drops it after, so a suite that keeps
/// one of these in a stored property gets a fresh folder per test and leaves nothing behind.
public final class ScratchFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates `<temporary directory>/<prefix>-<UUID>`.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
