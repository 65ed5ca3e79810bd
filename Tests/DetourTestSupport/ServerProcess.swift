import Foundation

/// `detour-report serve` running for a test: the real binary on a free port (`--port 0`), its
/// address read from the line it prints, stopped (SIGTERM, then SIGKILL) when the value goes.
public final class ServerProcess: @unchecked Sendable {
    /// `http://127.0.0.1:PORT` (no trailing slash).
    public let base: String
    /// The port it listens on.
    public let port: Int
    public let process: Process
    private let errorURL: URL
    private let scratch: URL
    /// Signalled once, when the process ends.
    private let exited = DispatchSemaphore(value: 0)
    /// What the server has written to standard error.
    private let errors = ErrorLog()
    /// Reads standard error as it comes, once started.
    private let errorReader: Thread

    /// Starts `detour-report serve FOLDER --port 0 ARGUMENTS…` and waits (up to 20 s) for the
    /// address it prints.
    ///
    /// `--today 2026-11-24` is added unless the arguments give a day. With `launcher` (a program
    /// and its arguments, such as `prlimit --nofile=…`), that program starts it. Standard error is
    /// read from the start unless `readingErrors` is false: then nothing reads it until
    /// ``readErrors()``, as with a reader that has stopped.
    public init(
        folder: URL, arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = [],
        readingErrors: Bool = true
    ) throws {
        let cli = try CommandRunner.built()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detour-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        errorURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        var arguments = ["serve", folder.path, "--port", "0"] + arguments
        if !arguments.contains("--today") { arguments += ["--today", "2026-11-24"] }
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [cli.executable.path] + arguments
        } else {
            process.executableURL = cli.executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(CommandRunner.pinnedClock) { $1 }
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        self.process = process
        let errorFile = try FileHandle(forWritingTo: errorURL)
        // Standard error is read as it comes, into a file (kept for a failure's message) and the
        // text a test waits on.
        errorReader = Thread { [errors] in
            let handle = errorPipe.fileHandleForReading
            while case let data = handle.availableData, !data.isEmpty {
                errorFile.write(data)
                errors.append(String(decoding: data, as: UTF8.self))
            }
            try? errorFile.close()
        }
        if readingErrors { errorReader.start() }
        // The first line is `detour-report: serving DIR at http://HOST:PORT/`.
        let line = ServerProcess.firstLine(of: output.fileHandleForReading, timeout: 20)
        guard let line, let range = line.range(of: "http://") else {
            process.terminate()
            process.waitUntilExit()
            let stderr = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: scratch)
            throw ServerError("the server did not say where it listens: \(line ?? "nothing") \(stderr)")
        }
        var address = String(line[range.lowerBound...])
        if address.hasSuffix("/") { address.removeLast() }
        base = address
        port = Int(address.split(separator: ":").last ?? "") ?? 0
    }

    /// Starts reading standard error, for a server started not reading it.
    public func readErrors() {
        if !errorReader.isExecuting && !errorReader.isFinished { errorReader.start() }
    }

    /// Everything the server wrote to standard error so far.
    public var stderr: String {
        errors.wait(timeout: 0) { _ in true }.text
    }

    /// Waits until the server has written `text` to standard error (its request log, a warning),
    /// and says whether it did within `timeout` seconds (a bound on a broken server).
    public func waitForError(containing text: String, timeout: Double = 20) -> Bool {
        waitForError(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until what the server has written to standard error satisfies `condition`, woken by
    /// each write, and says whether it did within `timeout` seconds (a bound on a broken server).
    public func waitForError(timeout: Double = 20, until condition: (String) -> Bool) -> Bool {
        errors.wait(timeout: timeout, until: condition).satisfied
    }

    /// Sends `signal` and waits (up to `timeout` seconds) for the server to end; its exit status,
    /// or `nil` when it did not end in time.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 5) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        // Each later stop finds the process ended.
        exited.signal()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        // SIGTERM first, so the server ends as it should (and writes its coverage profile).
        if stop(signal: SIGTERM, timeout: 5) == nil {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    private static func firstLine(of handle: FileHandle, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        let descriptor = handle.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

/// Text that grows, and waits for it to say something, each woken by the next write.
private final class ErrorLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var text = ""

    func append(_ more: String) {
        condition.lock()
        text += more
        condition.broadcast()
        condition.unlock()
    }

    /// The text once `satisfies` holds of it, or `timeout` seconds have passed.
    func wait(timeout: Double, until satisfies: (String) -> Bool) -> (satisfied: Bool, text: String) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !satisfies(text) {
            guard condition.wait(until: deadline) else { return (satisfies(text), text) }
        }
        return (true, text)
    }
}

/// A failure to start or reach a test server.
public struct ServerError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension Optional {
    /// The value, or a ``ServerError`` saying `message`.
    public func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw ServerError(message) }
        return self
    }
}

/// curl, the real HTTP client the server tests use: every request as curl sends it, with
/// `--path-as-is` so that `..` and `%2e` reach the server as written.
public struct Curl: Sendable {
    /// One answer: status, headers (names lower-cased), body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }

        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    public static var isAvailable: Bool { Tool.usable("curl") }

    /// `curl -s ARGUMENTS URL`, the body sent from `body` when given.
    public static func request(
        _ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        extra: [String] = []
    ) throws -> Reply {
        let curl = try Tool.path("curl").orThrow("curl is not on PATH")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("detour-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var arguments = [
            "-s", "--path-as-is", "-X", method, "-o", scratch.appendingPathComponent("body").path, "-D",
            scratch.appendingPathComponent("head").path, "-w", "%{http_code}", "--max-time", "30",
        ]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body {
            let file = scratch.appendingPathComponent("upload")
            try body.write(to: file)
            arguments += ["--data-binary", "@\(file.path)"]
        }
        arguments += extra + [url]
        let result = try CommandRunner(executable: URL(fileURLWithPath: curl)).run(arguments)
        let status = Int(result.output) ?? 0
        let head = (try? String(contentsOf: scratch.appendingPathComponent("head"), encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: scratch.appendingPathComponent("body"))) ?? Data()
        return Reply(status: status, headers: fields, body: body)
    }
}
