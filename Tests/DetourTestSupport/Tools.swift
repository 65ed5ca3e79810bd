import Foundation

/// Whether this run is continuous integration, where no test may be skipped.
///
/// A test that needs something outside the repository (a command, a Python module, a device
/// file) runs when that thing is there. Under `CI=true` it runs whatever happens, so that a
/// missing tool fails the test instead of skipping it:
///
/// ```swift
/// @Test(.enabled(if: Tool.usable("xmllint"), "needs xmllint (libxml2-utils)"))
/// ```
public enum CI {
    /// The environment variable CI services set, and `.ci/run` runs under.
    public static let variable = "CI"

    /// Whether every test must run: `CI` is `true` (or `1`, `yes`).
    public static var isRequired: Bool {
        isRequired(ProcessInfo.processInfo.environment)
    }

    /// Whether every test must run, by the given environment.
    public static func isRequired(_ environment: [String: String]) -> Bool {
        ["true", "1", "yes"].contains(environment[variable]?.lowercased() ?? "")
    }

    /// Whether a test that needs something should run: when it is `available`, and always under CI.
    public static func runs(whenAvailable available: Bool) -> Bool {
        available || isRequired
    }
}

/// Commands and modules from outside the repository that some tests use.
public enum Tool {
    /// The executable `name` on `PATH`, or `nil`.
    public static func path(_ name: String) -> String? {
        let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return searched.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the command `name` is on `PATH`.
    public static func available(_ name: String) -> Bool {
        path(name) != nil
    }

    /// Whether a test that needs the command `name` should run: when it is there, and always under CI.
    public static func usable(_ name: String) -> Bool {
        CI.runs(whenAvailable: available(name))
    }

    /// Whether `python3` can import `module`.
    public static func pythonModuleAvailable(_ module: String) -> Bool {
        guard let python = path("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether a test that needs the Python module `module` should run: when it imports, and always under CI.
    public static func pythonModuleUsable(_ module: String) -> Bool {
        CI.runs(whenAvailable: pythonModuleAvailable(module))
    }

    /// Whether a test that needs the file at `path` (a device such as `/dev/full`) should run:
    /// when it exists, and always under CI.
    public static func fileUsable(_ path: String) -> Bool {
        CI.runs(whenAvailable: FileManager.default.fileExists(atPath: path))
    }
}
