import DetourTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a batch run reads: every trip of the folders given, none lost without a word, and never
/// what the run itself wrote.
@Suite struct BatchInputTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    static let today = ["--today", "2026-11-22", "--quiet"]
    static let lisbon = Fixtures.samples.appendingPathComponent("lisbon-city-break.json")

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-batch-input")
    }

    func folder(_ name: String, trips: [String]) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        for trip in trips {
            let file = url.appendingPathComponent(trip)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.lisbon, to: file)
        }
        return url
    }

    func index(_ folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["trips"] as? [[String: Any]])
    }

    /// A folder that cannot be listed (here: deeper than the system's longest path) is an
    /// unreadable trip of the run, named by its path, with exit code 66; it was skipped, and the
    /// run said "0 unreadable" and exited 0.
    @Test func aFolderThatCannotBeListedIsAnUnreadableTrip() throws {
        let input = try folder("deep", trips: ["ok.json"])
        // Folders of 200 bytes, 25 deep: past PATH_MAX (4,096), made one level at a time.
        let name = String(repeating: "d", count: 200)
        var descriptor = open(input.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<25 {
            try #require(mkdirat(descriptor, name, 0o755) == 0)
            let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY)
            close(descriptor)
            descriptor = next
        }
        close(descriptor)
        let output = scratch.appendingPathComponent("deep-out")
        let result = try cli.run([input.path, "-r", "-d", output.path] + Self.today)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr.contains("error: cannot list the folder: File name too long [read-failed]"),
            "\(result.stderr)")
        let entries = try index(output)
        #expect(Set(entries.compactMap { $0["status"] as? String }) == ["written", "unreadable"])
        #expect(entries.count == 2)
    }

    /// Two names that differ only in how `é` is encoded (NFC, NFD) are two trips whose reports
    /// would share a name: a clash, said so; one of them was dropped without a word.
    @Test func namesThatDifferOnlyInUnicodeEncodingClash() throws {
        let input = try folder("cafe", trips: ["caf\u{E9}.json", "cafe\u{301}.json"])
        let listed = try FileManager.default.contentsOfDirectory(atPath: input.path)
        try #require(listed.count == 2, "this file system keeps both spellings apart")
        let result = try cli.run([input.path, "-d", scratch.appendingPathComponent("cafe-out").path] + Self.today)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains("differ only in how their letters are encoded (Unicode NFC and NFD)"),
            "\(result.stderr)")
    }

    /// A byte that is not UTF-8 in a trip's name is shown as `\xE9`, not lost as U+FFFD.
    @Test func aNameThatIsNotUTF8IsShownByItsBytes() throws {
        let input = scratch.appendingPathComponent("latin1")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let name = Array(input.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".json".utf8) + [0]
        let descriptor = open(name.map { CChar(bitPattern: $0) }, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0)
        _ = "{".withCString { write(descriptor, $0, 1) }
        close(descriptor)
        let output = scratch.appendingPathComponent("latin1-out")
        let result = try cli.run([input.path, "-d", output.path] + Self.today)
        #expect(result.status == 65)
        #expect(result.stderr.contains("/caf\\xE9.json:1:2: error:"), "\(result.stderr)")
        #expect(try index(output).first?["source"] as? String == input.path + "/caf\\xE9.json")
    }

    /// Reports that would land on a shard's index or where another trip needs a folder are
    /// clashes found before anything is written, as the README promises.
    @Test(arguments: [
        (["index.0-of-1.json"], ["--shard", "0/1"], "which the run's index uses"),
        (["x.json", "x.html/a.json"], ["-r"], "would write \"x.html\", which"),
    ])
    func reportsThatWouldLandOnAnIndexOrAFolderClash(trips: [String], options: [String], message: String) throws {
        let input = try folder("clash-\(trips.count)-\(options.count)", trips: trips)
        let output = scratch.appendingPathComponent("clash-out-\(trips.count)-\(options.count)")
        let result = try cli.run([input.path, "-d", output.path] + options + Self.today)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
    }

    /// Run twice into a folder inside its input, with `-r`, or into the input folder itself, a
    /// run never reads what the first wrote: the same trips, the same index.
    @Test(arguments: ["out", ""])
    func theOutputFolderIsNeverAnInput(inside: String) throws {
        let input = try folder("self-\(inside.isEmpty ? "same" : inside)", trips: ["a.json", "sub/b.json"])
        let output = inside.isEmpty ? input : input.appendingPathComponent(inside)
        for run in 1...2 {
            let result = try cli.run([input.path, "-r", "-d", output.path] + Self.today)
            #expect(result.status == 0, "run \(run): \(result.stderr)")
            #expect(try index(output).compactMap { $0["name"] as? String } == ["a", "sub/b"], "run \(run)")
        }
    }

    @Test func aShardCountPastTheLimitIsAUsageError() throws {
        let result = try cli.run([
            Self.lisbon.path, "-d", scratch.appendingPathComponent("x").path, "--shard", "0/99999999999",
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--shard"), "\(result.stderr)")
    }

    /// `index` over the one part of a job of 100,000 names how many are missing and a few of
    /// them, without a line or an allocation for each; it aborted on 0/99999999999.
    @Test func manyMissingShardsAreCountedNotListed() throws {
        let output = scratch.appendingPathComponent("shards")
        let result = try cli.run([Self.lisbon.path, "-d", output.path, "--shard", "0/100000"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        let joined = try cli.run(["index", output.path])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(
            joined.stderr
                == "\(output.path): warning: 99999 of 100000 shards (1/100000, 2/100000, 3/100000, 4/100000, 5/100000, 6/100000, 7/100000, 8/100000, 9/100000, 10/100000, …) have not written their index; their trips are not listed [index-shard-missing]\n"
        )
    }

    /// Two parts that list one report name are a clash of the set-up: exit code 64, as README says.
    @Test func partsThatListOneNameTwiceAreAUsageError() throws {
        let output = scratch.appendingPathComponent("twice")
        for part in ["0/2", "1/2"] {
            _ = try cli.run([Self.lisbon.path, "-d", output.path, "--shard", part] + Self.today)
        }
        // Both parts say they rendered Lisbon.
        try FileManager.default.copyItem(
            at: output.appendingPathComponent("index.0-of-2.json"),
            to: output.appendingPathComponent("index.1-of-2.json.tmp"))
        try FileManager.default.removeItem(at: output.appendingPathComponent("index.1-of-2.json"))
        try FileManager.default.moveItem(
            at: output.appendingPathComponent("index.1-of-2.json.tmp"),
            to: output.appendingPathComponent("index.1-of-2.json"))
        let result = try cli.run(["index", output.path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("[output-name-clash]"))
    }
}

extension BatchInputTests {
    /// A control character in a trip's file name reaches neither the index pages nor standard
    /// error raw: it is shown escaped, as everywhere else.
    @Test func aControlCharacterInAFileNameReachesNoIndexRaw() throws {
        let input = try folder("escape", trips: ["red\u{1B}[31m.json"])
        let output = scratch.appendingPathComponent("escape-out")
        let result = try cli.run([input.path, "-d", output.path, "--format", "html,markdown"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        for page in ["index.html", "index.md", "index.json"] {
            let bytes = try Data(contentsOf: output.appendingPathComponent(page))
            #expect(!bytes.contains(0x1B), "\(page) holds a raw ESC")
        }
        let markdown = String(decoding: try Data(contentsOf: output.appendingPathComponent("index.md")), as: UTF8.self)
        #expect(markdown.contains("/red\\u{1B}[31m.json |"), "\(markdown)")
    }
}

extension BatchInputTests {
    /// A whole run leaves only the indexes it wrote: a shard's part from an earlier job would be
    /// joined over the new index by `index`, and an `index.md` from a run with Markdown would
    /// stay beside an index that lists none.
    @Test func aWholeRunRemovesTheIndexesItDidNotWrite() throws {
        let output = scratch.appendingPathComponent("stale")
        _ = try cli.run([Self.lisbon.path, "-d", output.path, "--shard", "0/2"] + Self.today)
        _ = try cli.run([Self.lisbon.path, "-d", output.path, "--format", "html,markdown"] + Self.today)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.md").path))
        let result = try cli.run([Self.lisbon.path, "-d", output.path] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix("index") }
        #expect(names.sorted() == ["index.html", "index.json"])
        // The Markdown report the run before wrote and this one does not goes too (BatchOwnershipTests).
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("lisbon-city-break.md").path))
    }
}

extension BatchInputTests {
    /// `-d` under a file says what is in the way: "Not a directory", not "File exists".
    @Test func anOutputFolderUnderAFileSaysNotADirectory() throws {
        let file = scratch.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        let result = try cli.run([Self.lisbon.path, "-d", file.appendingPathComponent("sub").path] + Self.today)
        #expect(result.status == 73)
        #expect(
            result.stderr.hasSuffix("error: cannot create the folder: Not a directory [cannot-create-output]\n"),
            "\(result.stderr)")
    }
}

extension BatchInputTests {
    /// A symbolic link planted inside the output folder sends no report outside it.
    ///
    /// A link in a report's place is replaced by the report, and so is one in the index's place;
    /// a linked folder under it is refused. `-o` still follows links, as documented.
    @Test func aLinkInsideTheOutputFolderRedirectsNothing() throws {
        let outside = scratch.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim.html")
        try Data("keep".utf8).write(to: victim)
        let output = scratch.appendingPathComponent("planted")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for name in ["lisbon-city-break.html", "index.html"] {
            try FileManager.default.createSymbolicLink(
                at: output.appendingPathComponent(name), withDestinationURL: victim)
        }
        let result = try cli.run([Self.lisbon.path, "-d", output.path] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: victim) == Data("keep".utf8))
        for name in ["lisbon-city-break.html", "index.html"] {
            let kind = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(name).path)[.type]
            #expect(kind as? FileAttributeType == .typeRegular, "\(name) is still a link")
        }

        let input = try folder("linked-in", trips: ["europe/oslo.json"])
        let linked = scratch.appendingPathComponent("linked-out")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: linked.appendingPathComponent("europe"), withDestinationURL: outside)
        let refused = try cli.run([input.path, "-r", "-d", linked.path] + Self.today)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("/europe is a symbolic link; a batch run writes only inside its folder"),
            "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim.html"])
    }
}
