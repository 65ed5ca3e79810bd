import Foundation

/// Runs the built `detour-report` binary, as a user would, and captures what it did; or any
/// other command a test needs.
public struct CommandRunner: Sendable {
    /// What one run produced.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output, as bytes.
        public var stdout: Data
        /// Standard error, as text.
        public var stderr: String
        /// Standard output, as text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The binary.
    public let executable: URL

    /// Runs `executable` instead: another command a test needs (see ``Tool/path(_:)``).
    public init(executable: URL) {
        self.executable = executable
    }

    /// Why a suite that runs the binary cannot start.
    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String { "the detour-report binary was not built beside the tests" }
    }

    /// The binary SwiftPM built beside the test bundle, as every CLI suite starts with; throws
    /// when there is none.
    public static func built() throws -> CommandRunner {
        guard let runner = CommandRunner() else { throw NotBuilt() }
        return runner
    }

    /// Finds the binary SwiftPM built beside the test bundle, or returns `nil`.
    public init?() {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("detour-report"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("detour-report"),
            Fixtures.repository.appendingPathComponent(".build/debug/detour-report"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            return nil
        }
        executable = found
    }

    /// The clock every run sees unless a test removes it to read the real one.
    ///
    /// `SOURCE_DATE_EPOCH` at 2026-11-22, the day the goldens are as of. A report's sections, and
    /// so its pages, depend on the day; a test that read the machine's clock would pass on some
    /// days and fail on others.
    public static let pinnedClock = ["SOURCE_DATE_EPOCH": "1795305600"]

    /// Runs the binary with `arguments`, feeding `stdin`, in `directory`, with extra environment;
    /// the clock pinned (``pinnedClock``) unless `removing` names `SOURCE_DATE_EPOCH`.
    public func run(
        _ arguments: [String], stdin: Data? = nil, directory: URL? = nil,
        environment: [String: String] = [:], removing: [String] = [],
        viaShell: Bool = false, shell: String = "/bin/sh"
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("detour-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let process = Process()
        // With `viaShell`, the arguments go to /bin/sh (`-c SCRIPT ARG0 ARG1…`), to redirect, say.
        process.executableURL = viaShell ? URL(fileURLWithPath: shell) : executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env.merge(CommandRunner.pinnedClock) { $1 }
        for key in removing { env.removeValue(forKey: key) }
        env.merge(environment) { $1 }
        process.environment = env
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
