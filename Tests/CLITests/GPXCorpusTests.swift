import DetourTestSupport
import Foundation
import Testing

/// GPX from the outside world, run through the built binary.
@Suite(.serialized) struct GPXCorpusTests {
    let cli: CommandRunner

    init() throws {
        cli = try CommandRunner.built()
    }

    /// `Tests/Corpus/gpx-real`: GPX files from other apps, vendored with their licences.
    static let folder = Fixtures.corpus.appendingPathComponent("gpx-real")

    static var realWorld: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".gpx") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test func theRealWorldCorpusIsThere() throws {
        #expect(Self.realWorld.count == 48)
        // Only permissively licensed files are vendored; SOURCES.md names each one.
        let sources = try String(contentsOf: Self.folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)
        for path in Self.realWorld {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(sources.contains("| \(name) |"), "\(name) is not in SOURCES.md")
            #expect(!name.hasPrefix("gpsbabel__"), "\(name) is GPL-licensed")
        }
    }

    /// Every file from another app ends in a report or a clear error: exit 0 or 65, never a crash,
    /// and an error line that names the file. (How fast is `bench/`'s to say.)
    @Test(arguments: realWorld)
    func aRealWorldGPXFileEndsInAReportOrAClearError(_ path: String) throws {
        let result = try cli.run([path, "--today", "2026-11-22"])
        #expect([0, 65].contains(result.status), "exit \(result.status): \(result.stderr)")
        if result.status == 65 {
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("\(path)"))
            #expect(result.stderr.contains(": error: "))
        }
    }

    @Test(arguments: ["g03-xxe-file-passwd.gpx", "g05-external-dtd-http.gpx", "g06-billion-laughs-text.gpx"])
    func entityAttacksAreRefusedWithoutReadingAnything(_ name: String) throws {
        let path = Fixtures.corpus.appendingPathComponent("hostile/\(name)").path
        #expect(FileManager.default.fileExists(atPath: path))
        let result = try cli.run([path, "--format", "json"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("a DOCTYPE is not allowed"))
        #expect(!result.stderr.contains("root:x:0:0"))
    }

    @Test func aTripWrittenAsGPXReadsBackToTheSameTrip() throws {
        let sample = Fixtures.samples.appendingPathComponent("andes-drafts.json").path
        let gpx = try cli.run([sample, "--format", "gpx"])
        #expect(gpx.status == 0)
        #expect(gpx.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        let again = try cli.run(["-", "--format", "gpx"], stdin: gpx.stdout)
        #expect(again.status == 0)
        #expect(again.stdout == gpx.stdout)
        // Drafts survive the trip through GPX; only the warnings' paths name GPX places instead.
        let fromGPX = try cli.run(
            ["-", "--input-format", "gpx", "--format", "json", "--today", "2026-11-22"], stdin: gpx.stdout)
        let fromJSON = try cli.run([sample, "--format", "json", "--today", "2026-11-22"])
        #expect(fromGPX.status == 0)
        #expect(sectionsOnly(fromGPX.output) == sectionsOnly(fromJSON.output))
        #expect(fromGPX.stderr.contains("<stdin>:"))
    }

    @Test(.enabled(if: Tool.usable("xmllint"), "needs xmllint (Debian: libxml2-utils)"))
    func xmllintAcceptsTheGPXTheBinaryWrites() throws {
        let xmllint = try #require(Tool.path("xmllint"), "xmllint (libxml2-utils) is not installed")
        let sample = Fixtures.samples.appendingPathComponent("andes-drafts.json").path
        let gpx = try cli.run([sample, "--format", "gpx"])
        #expect(gpx.status == 0)
        let lint = try cli.run(["-c", "exec \"$0\" --noout --nonet -", xmllint], stdin: gpx.stdout, viaShell: true)
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    /// A JSON report without its `warnings` array.
    func sectionsOnly(_ report: String) -> String {
        report.components(separatedBy: "\"warnings\"").first ?? report
    }

    @Test func standardInputIsSniffedForXML() throws {
        let sample = Fixtures.sampleURL("lisbon-city-break.gpx")
        let piped = try cli.run(
            ["-", "--format", "markdown", "--today", "2026-11-22"], stdin: try Data(contentsOf: sample))
        let direct = try cli.run([sample.path, "--format", "markdown", "--today", "2026-11-22"])
        #expect(piped.status == 0)
        #expect(piped.stdout == direct.stdout)
    }
}
