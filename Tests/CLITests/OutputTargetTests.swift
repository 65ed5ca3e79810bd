import DetourTestSupport
import Foundation
import Testing

/// Where `-o` may point besides a plain file, and what happens to the thing it points at.
@Suite(.serialized) struct OutputTargetTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    let sample: String

    init() throws {
        cli = try CommandRunner.built()
        sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        folder = try ScratchFolder("detour-target")
    }

    func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// `--format` says what to write; the `-o` file's extension only tells when it does not.
    @Test(arguments: [
        ("plan.md", "json", "{"), ("plan.json", "markdown", "# "), ("plan.html", "ics", "BEGIN:VCALENDAR"),
    ])
    func anExplicitFormatBeatsTheFilesExtension(file: String, format: String, start: String) throws {
        let target = scratch.appendingPathComponent(file)
        let result = try cli.run([sample, "-o", target.path, "--format", format, "--today", "2026-11-24"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix(start))
    }

    @Test func aDeviceTargetIsWrittenThroughAndStaysADevice() throws {
        let null = DeviceNodes.device("null", in: scratch)
        let result = try cli.run([sample, "-o", null])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(DeviceNodes.kind(null) == S_IFCHR)
        #expect(try entries(scratch).allSatisfy { $0 == "null" })
    }

    @Test func aFIFOTargetIsWrittenThroughToItsReader() throws {
        let fifo = scratch.appendingPathComponent("plan.md").path
        let received = scratch.appendingPathComponent("received").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = try cli.run(
            [
                "-c", "timeout -s KILL 20 cat \"$2\" > \"$3\" & \"$0\" \"$1\" -o \"$2\"; status=$?; wait; exit $status",
                cli.executable.path, sample, fifo, received,
            ],
            viaShell: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceNodes.kind(fifo) == S_IFIFO)
        #expect(try String(contentsOfFile: received, encoding: .utf8).hasPrefix("# "))
        #expect(try entries(scratch) == ["plan.md", "received"])
    }

    @Test func aLinkToStandardOutputWritesToStandardOutput() throws {
        // A link of our own to /dev/stdout, so a broken build replaces the link, not /dev/stdout.
        let link = scratch.appendingPathComponent("stdout").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
        let direct = try cli.run([sample, "--today", "2026-11-22", "--format", "json"])
        let result = try cli.run([sample, "--today", "2026-11-22", "-o", link, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == direct.stdout)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/stdout")
    }

    @Test func aDashTargetIsStandardOutput() throws {
        let direct = try cli.run([sample, "--today", "2026-11-22"])
        let result = try cli.run([sample, "--today", "2026-11-22", "-o", "-"], directory: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == direct.stdout)
        #expect(try entries(scratch).isEmpty)
    }

    @Test func aLinkedTargetIsReplacedWhereItPointsAndTheLinkStays() throws {
        let links = scratch.appendingPathComponent("links")
        let real = scratch.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("plan.html")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target.path)
        let link = links.appendingPathComponent("plan.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../real/plan.html")

        let result = try cli.run([sample, "-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../real/plan.html")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try entries(links) == ["plan.html"])
        #expect(try entries(real) == ["plan.html"])
    }

    @Test func aDanglingLinkGetsTheFileItPointsTo() throws {
        let link = scratch.appendingPathComponent("plan.md").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "made.md")
        let result = try cli.run([sample, "-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceNodes.kind(link) == S_IFLNK)
        #expect(
            try String(contentsOfFile: scratch.appendingPathComponent("made.md").path, encoding: .utf8).hasPrefix("# "))
        #expect(try entries(scratch) == ["made.md", "plan.md"])
    }

    @Test func aTripOnStandardInputIsNeverOverwrittenByItsReport() throws {
        let trip = scratch.appendingPathComponent("trip.json")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: sample), to: trip)
        let before = try Data(contentsOf: trip)
        let result = try cli.run(
            ["-c", "exec \"$0\" - -o \"$1\" --format json < \"$1\"", cli.executable.path, trip.path], viaShell: true)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("is the trip itself"))
        #expect(try Data(contentsOf: trip) == before)
        #expect(try entries(scratch) == ["trip.json"])
    }

    @Test func aDirectoryOrAMissingFolderCannotBeCreatedAndExits73() throws {
        for target in [scratch.path, scratch.appendingPathComponent("missing/plan.html").path] {
            let result = try cli.run([sample, "-o", target, "--format", "html"])
            #expect(result.status == 73, "\(target)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try entries(scratch).isEmpty)
    }

    /// The command line must build where Glibc is absent, so it never names a platform module in a call.
    @Test func theCommandLineCallsNoSystemFunctionThroughAPlatformModule() throws {
        let folder = Fixtures.repository.appendingPathComponent("Sources/detour-report")
        for name in try entries(folder) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("Glibc."), "\(name)")
            #expect(!text.contains("Darwin."), "\(name)")
        }
    }
}
