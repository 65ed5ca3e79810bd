import DetourTestSupport
import Foundation
import Testing

/// The limits of the command's own options, each exactly at its edge and one past it, on the
/// real binary: what is accepted runs, what is past is a usage error (64) naming the option.
@Suite(.serialized) struct OptionLimitTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    let sample: String

    init() throws {
        cli = try CommandRunner.built()
        sample = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        folder = try ScratchFolder("detour-option-limits")
    }

    /// A valid trip padded with spaces to exactly `size` bytes.
    func trip(of size: Int, _ ext: String) throws -> String {
        var bytes = try Fixtures.sample("lisbon-city-break.\(ext)")
        bytes += Array(repeating: UInt8(ascii: " "), count: size - bytes.count)
        let url = scratch.appendingPathComponent("padded-\(size).\(ext)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test(arguments: ["json", "gpx"])
    func aTripOfExactlyMaxInputMibIsReadAndOneByteMoreIsNot(_ ext: String) throws {
        let at = try cli.run([
            try trip(of: 1 << 20, ext), "--max-input-mib", "1", "--today", "2026-11-22", "--format", "json",
        ])
        #expect(at.status == 0, "\(at.stderr)")
        let past = try cli.run([try trip(of: (1 << 20) + 1, ext), "--max-input-mib", "1", "--today", "2026-11-22"])
        #expect(past.status == 65)
        #expect(past.stderr.contains("MiB limit for "), "\(past.stderr)")
        #expect(past.stderr.contains("; raise it with --max-input-mib N [file-too-large]"), "\(past.stderr)")
        #expect(past.stdout.isEmpty)
    }

    /// Arguments after the trip, and whether they are accepted.
    struct Edge: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var accepted: Bool
        /// What standard error names when refused.
        var says: String = ""
        var batch = false
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let edges: [Edge] = [
        Edge(arguments: ["--max-input-mib", "1"], accepted: true),
        Edge(arguments: ["--max-input-mib", "0"], accepted: false, says: "--max-input-mib"),
        Edge(arguments: ["--max-input-mib", "1048576"], accepted: true),
        Edge(arguments: ["--max-input-mib", "1048577"], accepted: false, says: "--max-input-mib"),
        Edge(arguments: ["--day-hours", "24"], accepted: true),
        Edge(arguments: ["--day-hours", "24.05"], accepted: false, says: "--day-hours"),
        Edge(arguments: ["--day-hours", "0.05"], accepted: true),
        Edge(arguments: ["--day-hours", "0"], accepted: false, says: "--day-hours"),
        Edge(arguments: ["--day-hours", "7.51"], accepted: false, says: "--day-hours"),
        Edge(arguments: ["-j", "1"], accepted: true, batch: true),
        Edge(arguments: ["-j", "0"], accepted: false, says: "-j", batch: true),
        Edge(arguments: ["-j", "1024"], accepted: true, batch: true),
        Edge(arguments: ["-j", "1025"], accepted: false, says: "-j", batch: true),
        Edge(arguments: ["--shard", "0/1"], accepted: true, batch: true),
        Edge(arguments: ["--shard", "2/3"], accepted: true, batch: true),
        Edge(arguments: ["--shard", "3/3"], accepted: false, says: "--shard", batch: true),
        Edge(arguments: ["--shard", "-1/3"], accepted: false, says: "--shard", batch: true),
        Edge(arguments: ["--shard", "0/0"], accepted: false, says: "--shard", batch: true),
        Edge(arguments: ["--shard", "0/3/1"], accepted: false, says: "--shard", batch: true),
    ]

    @Test(arguments: edges)
    func eachOptionIsAcceptedAtItsEdgeAndRefusedPastIt(_ edge: Edge) throws {
        let out = scratch.appendingPathComponent("out").path
        let arguments =
            [sample, "--today", "2026-11-22"] + (edge.batch ? ["-d", out, "--quiet"] : []) + edge.arguments
        let result = try cli.run(arguments)
        if edge.accepted {
            #expect(result.status == 0, "\(result.stderr)")
        } else {
            #expect(result.status == 64)
            #expect(result.stderr.contains(edge.says), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// `serve` declares the options it shares with `render` the same way, so they take the same
    /// values: past an edge, a usage error before anything listens; at it, the server starts.
    @Test(
        arguments: edges.filter {
            !$0.batch && $0.arguments[0] != "--day-hours" || $0.arguments == ["--day-hours", "24.05"]
        })
    func serveTakesTheSharedOptionsAtTheSameEdges(_ edge: Edge) throws {
        let trips = scratch.appendingPathComponent("trips")
        try FileManager.default.createDirectory(at: trips, withIntermediateDirectories: true)
        guard edge.accepted else {
            let result = try cli.run(["serve", trips.path, "--port", "0"] + edge.arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains(edge.says), "\(result.stderr)")
            return
        }
        let server = try ServerProcess(folder: trips, arguments: edge.arguments)
        #expect(try Curl.request("\(server.base)/api/v1/trips").status == 200)
    }
}
