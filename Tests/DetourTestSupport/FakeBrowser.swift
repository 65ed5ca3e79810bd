import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Tests/Fakes/fake-browser`, a stand-in for headless Chromium that speaks the DevTools
/// protocol over its pipe and fails on demand, and the log it keeps.
public struct FakeBrowser: Sendable {
    /// The script.
    public static let script = Fixtures.repository.appendingPathComponent("Tests/Fakes/fake-browser").path

    /// Its log: `start PID PROFILE` for each start, each command as JSON, `end PID`.
    public let log: URL
    /// A program to give as the browser: a script in `folder` that starts the fake in `mode`.
    public let path: String

    /// Writes the script that starts the fake in `mode` (see the fake's own comment).
    ///
    /// In `slow` mode it waits `delay` seconds before each print; it logs to `log` (default:
    /// `browser.log` in `folder`). The environment of the test process, shared by every test, is
    /// left alone.
    public init(in folder: URL, mode: String = "print", delay: Double = 30, log: URL? = nil) throws {
        self.log = log ?? folder.appendingPathComponent("browser.log")
        let script = folder.appendingPathComponent("browser-\(mode)")
        let text = """
            #!/bin/sh
            FAKE_BROWSER_MODE='\(mode)' FAKE_BROWSER_DELAY='\(delay)' FAKE_BROWSER_LOG='\(self.log.path)' \
            exec '\(Self.script)' "$@"

            """
        // Written by a child process, never opened for writing by this one: a descriptor of a file
        // being written leaks into any process another test starts meanwhile, and running a
        // file some process holds open for writing fails with ETXTBSY ("Text file busy").
        let shell = CommandRunner(executable: URL(fileURLWithPath: "/bin/sh"))
        let written = try shell.run(
            ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", script.path], stdin: Data(text.utf8))
        guard written.status == 0 else { throw WriteFailure(description: written.stderr) }
        path = script.path
    }

    struct WriteFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The log's lines.
    public func lines() throws -> [Substring] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    }

    /// Each browser started: its process ID and profile folder.
    public func starts() throws -> [(pid: pid_t, profile: String)] {
        try lines().filter { $0.hasPrefix("start ") }.map { line in
            let parts = line.split(separator: " ")
            return (pid_t(parts[1]) ?? 0, String(parts[2]))
        }
    }

    /// The methods sent, in order.
    public func methods() throws -> [String] {
        try lines().compactMap { line in (try? Self.command(line))?["method"] as? String }
    }

    /// A command the fake logged, parsed.
    public static func command(_ line: Substring) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    /// The `params` of a command the fake logged.
    public static func params(_ line: Substring) throws -> [String: Any] {
        try command(line)["params"] as? [String: Any] ?? [:]
    }

    /// Whether every browser started has exited and its profile folder is gone.
    public func allEnded() throws -> Bool {
        try starts().allSatisfy { pid, profile in kill(pid, 0) == -1 && !FileManager.default.fileExists(atPath: profile)
        }
    }
}
