import DetourTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C and `kill` in the middle of writing: no temporary file is left behind, finished
/// reports and the old index stay, and the exit code is 128 plus the signal's number.
@Suite struct InterruptTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-interrupt")
    }

    /// A trip of `destinations` stays, made by the benchmark's generator.
    func bigTrip(_ destinations: Int, at url: URL) throws {
        let python = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("python3"))))
        let script = Fixtures.repository.appendingPathComponent("bench/make_trip.py").path
        let made = try python.run([script, String(destinations), url.path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// Starts the binary with `arguments`, waits until `ready` holds for its process id (polling
    /// every 5 ms, at most 60 s), then sends `signal`; returns the exit status.
    ///
    /// A poll, not a wait on an event: what `ready` looks for is an unnamed file (`O_TMPFILE`)
    /// open in the process, which nothing announces; inotify sees it only once it is named.
    func interrupt(
        _ arguments: [String], with signal: Int32, environment: [String: String] = [:], when ready: (Int32) -> Bool
    ) throws -> Int32 {
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var waited = 0
        while !ready(process.processIdentifier), process.isRunning, waited < 12_000 {
            usleep(5_000)
            waited += 1
        }
        try #require(process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A folder of 20 trips of 1,500 stays each, long enough to render to be interrupted.
    func twentyTrips() throws -> URL {
        let trips = scratch.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: trips, withIntermediateDirectories: true)
        try bigTrip(1500, at: trips.appendingPathComponent("t00.json"))
        for number in 1..<20 {
            try FileManager.default.copyItem(
                at: trips.appendingPathComponent("t00.json"),
                to: trips.appendingPathComponent(String(format: "t%02d.json", number)))
        }
        return trips
    }

    func hidden(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
    }

    /// Whether process `pid` is writing a new file in `folder`: one with no name yet, which its
    /// open descriptors show as `FOLDER/#INODE (deleted)`, or a `.NAME.XXXXXX` beside its target
    /// on a file system that has no unnamed files.
    func writing(_ pid: Int32, in folder: URL) -> Bool {
        let descriptors = "/proc/\(pid)/fd"
        let links = ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")
        }
        let unnamed = links.contains { $0.hasPrefix(folder.path + "/#") && $0.hasSuffix(" (deleted)") }
        return unnamed || (try? hidden(in: folder))?.isEmpty == false
    }

    /// `kill` while `-o` writes: the old report stays whole, no `.plan.html.XXXXXX` is left.
    @Test(.enabled(if: Tool.path("python3") != nil, "needs python3 for the trip generator"))
    func aKilledRunLeavesTheOldReportAndNoTemporary() throws {
        let trip = scratch.appendingPathComponent("big.json")
        try bigTrip(6000, at: trip)
        let report = scratch.appendingPathComponent("plan.html")
        try Data("old".utf8).write(to: report)
        let status = try interrupt([trip.path, "-o", report.path, "--today", "2026-11-22"], with: SIGTERM) {
            writing($0, in: scratch)
        }
        #expect(status == 143)
        #expect(try hidden(in: scratch) == [])
        #expect(try Data(contentsOf: report) == Data("old".utf8))
    }

    /// Ctrl-C during a batch: the reports finished before stay, the one being written goes, no
    /// more are started, and the old index is not rewritten.
    @Test(.enabled(if: Tool.path("python3") != nil, "needs python3 for the trip generator"))
    func anInterruptedBatchKeepsFinishedReportsAndTheOldIndex() throws {
        let trips = try twentyTrips()
        let output = scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let oldIndex = Data("{\"old\": true}".utf8)
        try oldIndex.write(to: output.appendingPathComponent("index.json"))
        func reports() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).filter { $0.hasSuffix(".html") }
        }
        let status = try interrupt(
            [trips.path, "-d", output.path, "-j", "1", "--quiet", "--today", "2026-11-22"], with: SIGINT
        ) { !reports().isEmpty && writing($0, in: output) }
        #expect(status == 130)
        #expect(try hidden(in: output) == [])
        #expect(!reports().isEmpty && reports().count < 20, "\(reports())")
        #expect(try Data(contentsOf: output.appendingPathComponent("index.json")) == oldIndex)
    }

    /// Ctrl-C during `--check -d`: the temporary folder it renders into goes too.
    @Test(.enabled(if: Tool.path("python3") != nil, "needs python3 for the trip generator"))
    func anInterruptedCheckLeavesNoTemporaryFolder() throws {
        let trips = try twentyTrips()
        let temporary = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        func checking() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] }
        func rendered() -> Bool {
            checking().contains { folder in
                let inside = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path + "/" + folder)) ?? []
                return inside.contains { $0.hasSuffix(".html") }
            }
        }
        let status = try interrupt(
            [
                trips.path, "-d", scratch.appendingPathComponent("out").path, "--check", "-j", "1", "--today",
                "2026-11-22",
            ],
            with: SIGINT, environment: ["TMPDIR": temporary.path]
        ) { _ in rendered() }
        #expect(status == 130)
        #expect(checking() == [])
    }
}
