import DetourTestSupport
import Foundation
import Testing

/// Every row of `Tests/Corpus/hostile/MANIFEST.tsv`, checked as its README defines: rejects
/// exit 65 with the needle on stderr and leave an existing `-o` target untouched; accepts render
/// all three formats with nothing active or unescaped from the input; every run stays within
/// 10 s and a 1 GiB address space and prints only valid, printable UTF-8.
@Suite(.serialized) struct HostileCorpusTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var file: String
        var verdict: String
        var needle: String
        var testDescription: String { file }
    }

    static let folder = Fixtures.corpus.appendingPathComponent("hostile")

    static let rows: [Row] = {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7 else { return nil }
            return Row(file: fields[0], verdict: fields[4], needle: fields[6])
        }
    }()

    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-hostile")
    }

    @Test func theCorpusIsThereAndEveryFileHasARow() throws {
        #expect(Self.rows.count == 29)
        let trips = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".gpx") }
        #expect(Set(trips) == Set(Self.rows.map(\.file)))
        #expect(Set(Self.rows.map(\.verdict)) == ["accept", "reject"])
        #expect(Self.rows.filter { $0.verdict == "reject" }.allSatisfy { !$0.needle.isEmpty })
    }

    /// Runs the binary under a 1 GiB address-space limit, in the scratch folder, and stops it
    /// after 60 s: a guard against a hang, far above any run's time (which `bench/` measures).
    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        let result = try cli.run(
            ["-c", "ulimit -v 1048576; exec timeout 60 \"$0\" \"$@\"", cli.executable.path] + arguments,
            directory: scratch, viaShell: true)
        #expect(result.status != 124, "hung: stopped after 60 s")
        #expect(result.status < 128, "killed by a signal: \(result.status)")
        for (name, bytes) in [("stdout", result.stdout), ("stderr", Data(result.stderr.utf8))] {
            let text = String(validating: bytes, as: UTF8.self)
            #expect(text != nil, "\(name) is not UTF-8")
            let control = text?.unicodeScalars.first {
                ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || (0x7F...0x9F).contains($0.value)
            }
            #expect(
                control == nil, "\(name) holds control character \(control.map { String($0.value, radix: 16) } ?? "")")
        }
        #expect(!result.stderr.contains("root:x:0:0") && !result.output.contains("root:x:0:0"))
        return result
    }

    @Test(arguments: rows.filter { $0.verdict == "reject" })
    func aRejectedFileExits65WithItsNeedleAndLeavesTheTargetAlone(_ row: Row) throws {
        let folder = Self.folder
        let input = folder.appendingPathComponent(row.file).path
        let result = try run([input, "--today", "2026-11-22"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let stderr = result.stderr.replacingOccurrences(of: input, with: "").lowercased()
        let matched =
            row.needle.contains(",")
            ? row.needle.split(separator: ",").allSatisfy { stderr.contains($0.lowercased()) }
            : row.needle.split(separator: "|").contains { stderr.contains($0.lowercased()) }
        #expect(matched, "needle \(row.needle) not in: \(result.stderr)")

        let target = scratch.appendingPathComponent("OUT.html")
        try Data("previous report\n".utf8).write(to: target)
        let written = try run([input, "--today", "2026-11-22", "-o", "OUT.html"])
        #expect(written.status == 65)
        #expect(try Data(contentsOf: target) == Data("previous report\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["OUT.html"])
        try FileManager.default.removeItem(at: target)
    }

    @Test(arguments: rows.filter { $0.verdict == "accept" })
    func anAcceptedFileRendersEveryFormatSafely(_ row: Row) throws {
        let folder = Self.folder
        let input = folder.appendingPathComponent(row.file).path
        let names = try plainNames(in: folder.appendingPathComponent(row.file))
        for format in ["html", "markdown", "json"] {
            let result = try run([input, "--today", "2026-11-22", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let report = result.output
            for name in names { #expect(report.contains(name), "\(format) lacks \(name)") }
            switch format {
            case "html": checkHTML(report)
            case "markdown": checkMarkdown(report)
            default:
                let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
                #expect(object?["format"] as? String == "detour-report/1")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func aByteOrderMarkChangesNothing() throws {
        let folder = Self.folder
        for format in ["html", "markdown", "json"] {
            let plain = try run([
                folder.appendingPathComponent("j01-baseline-valid.json").path, "--today", "2026-11-22", "--format",
                format,
            ])
            let bom = try run([
                folder.appendingPathComponent("j19-utf8-bom.json").path, "--today", "2026-11-22", "--format", format,
            ])
            #expect(plain.stdout == bom.stdout)
            #expect(!bom.stdout.starts(with: [0xEF, 0xBB, 0xBF]))
        }
    }

    /// Destination and task names made only of letters, digits and spaces.
    func plainNames(in file: URL) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let pattern = file.pathExtension == "gpx" ? #"<name>([^<]*)</name>"# : #""name": "((?:[^"\\]|\\.)*)""#
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }.filter { name in
            !name.isEmpty
                && name.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " "
                }
        }
    }

    func checkHTML(_ html: String) {
        let lower = html.lowercased()
        for forbidden in [
            "<script", "<img", "<iframe", "<object", "<embed", "<base", "javascript:", "expression(", "@import",
        ] {
            #expect(!lower.contains(forbidden), "HTML holds \(forbidden)")
        }
        #expect(!lower.contains("<link"), "HTML links a stylesheet")
        let onAttribute = try? NSRegularExpression(pattern: #"<[^>]*\son[a-z]+\s*="#, options: [.caseInsensitive])
        #expect(
            onAttribute?.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) == nil, "an on* attribute")
        let urls = try? NSRegularExpression(pattern: #"\s(?:href|src)\s*=\s*"([^"]*)""#, options: [.caseInsensitive])
        for match in urls?.matches(in: html, range: NSRange(html.startIndex..., in: html)) ?? [] {
            guard let range = Range(match.range(at: 1), in: html) else { continue }
            let value = html[range].lowercased().filter { !$0.isWhitespace }
            #expect(["https:", "http:", "mailto:", "#"].contains { value.hasPrefix($0) }, "URL \(value)")
        }
        #expect(!lower.contains("url(http"), "remote url() in CSS")
    }

    func checkMarkdown(_ markdown: String) {
        var header: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                header = nil
                continue
            }
            let pipes = MarkdownCheck.unescapedPipes(String(line))
            if let header {
                #expect(pipes == header, "row has \(pipes) pipes, header \(header): \(line)")
            } else {
                header = pipes
            }
        }
        // No markup from input survives: `anAcceptedFileMakesNoMarkdownMarkup` reads it as GFM does.
        #expect(!markdown.contains("<!--"), "the escaper writes no raw HTML")
    }

    /// The hostile rule, read as GitHub would: no input makes Markdown markup.
    ///
    /// Each accepted file and each sample, and the batch index that lists them, render under cmark-gfm to the same HTML elements as their plain
    /// twins (every user text replaced by plain words of the same shape), so no input makes
    /// emphasis, code, a link, an image, raw HTML, a heading, a list or a table cell of its own.
    /// Email addresses are the one exception GFM allows: a link whose text is the address.
    @Test(.enabled(if: Tool.usable("cmark-gfm"), "needs cmark-gfm on PATH (Debian: cmark-gfm)"))
    func anAcceptedFileMakesNoMarkdownMarkup() throws {
        let manager = FileManager.default
        let hostile = scratch.appendingPathComponent("hostile")
        let plain = scratch.appendingPathComponent("plain")
        for folder in [hostile, plain] { try manager.createDirectory(at: folder, withIntermediateDirectories: true) }
        let files =
            Self.rows.filter { $0.verdict == "accept" }.map { Self.folder.appendingPathComponent($0.file) }
            + Fixtures.sampleTrips().map(Fixtures.sampleURL)
        var twins = PlainTwins()
        for file in files {
            let bytes = try Data(contentsOf: file)
            try bytes.write(to: hostile.appendingPathComponent(file.lastPathComponent))
            let twin = try twins.twin(of: bytes, gpx: file.pathExtension == "gpx")
            try twin.write(to: plain.appendingPathComponent(file.lastPathComponent))
        }
        for folder in [hostile, plain] {
            let result = try run([
                folder.path, "-d", folder.appendingPathComponent("out").path, "--format", "markdown", "--today",
                "2026-11-22",
            ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let pages = try manager.contentsOfDirectory(atPath: hostile.appendingPathComponent("out").path)
            .filter { $0.hasSuffix(".md") }.sorted()
        #expect(pages.count == files.count + 1 && pages.contains("index.md"), "\(pages)")
        for page in pages {
            let markdown = try String(contentsOf: hostile.appendingPathComponent("out/\(page)"), encoding: .utf8)
            let twin = try String(contentsOf: plain.appendingPathComponent("out/\(page)"), encoding: .utf8)
            #expect(!markdown.contains("<!--"), "\(page): the escaper writes no raw HTML")
            let html = try MarkdownCheck.gfm(markdown, unsafe: true)
            let links = MarkdownCheck.links(in: html).filter { !$0.href.hasSuffix(".md") }
            #expect(links.allSatisfy { $0.isAllowed }, "\(page): \(links)")
            let elements = Self.elements(MarkdownCheck.unlinked(html))
            let expected = Self.elements(MarkdownCheck.unlinked(try MarkdownCheck.gfm(twin, unsafe: true)))
            #expect(
                !elements.isEmpty && elements == expected,
                "\(page): \(elements.difference(from: expected))\n\(markdown)")
        }
    }

    /// The tags of cmark-gfm's HTML, in order, text left out.
    static func elements(_ html: String) -> [String] {
        let tags = try? NSRegularExpression(pattern: "<[^>]*>")
        return (tags?.matches(in: html, range: NSRange(html.startIndex..., in: html)) ?? []).compactMap {
            Range($0.range, in: html).map { String(html[$0]) }
        }
    }
}

/// Trips with every user text (the title, names, pros and cons; the traveler is an address) replaced by plain
/// words: the same text gets the same words, and spaces and line breaks stay where they were, so
/// the twin meets the same rules (equal names, blank or multi-line text) as the trip.
struct PlainTwins {
    private var words: [String: String] = [:]

    mutating func plain(_ text: String) -> String {
        if let known = words[text] { return known }
        let number = words.count
        var run = 0
        let made = text.split(separator: " ", omittingEmptySubsequences: false).map { piece in
            piece.split(omittingEmptySubsequences: false) { $0.isNewline || $0 == "\t" }.map { part in
                defer { run += 1 }
                return part.isEmpty ? "" : "Plain" + Self.letters(number) + Self.letters(run)
            }.joined(separator: "\n")
        }.joined(separator: " ")
        words[text] = made
        return made
    }

    static func letters(_ number: Int) -> String {
        var number = number
        var result = ""
        repeat {
            result.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(number % 26))))
            number /= 26
        } while number > 0
        return result
    }

    mutating func twin(of bytes: Data, gpx: Bool) throws -> Data {
        let text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes, as: UTF8.self)
        if gpx {
            let pattern = try NSRegularExpression(pattern: "<(name|dr:pro|dr:con)>([^<]*)</")
            var result = text
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
                guard let range = Range(match.range(at: 2), in: text) else { continue }
                result.replaceSubrange(range, with: plain(String(text[range])))
            }
            return Data(result.utf8)
        }
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try JSONSerialization.data(withJSONObject: twin(object, key: nil), options: [.sortedKeys])
    }

    private mutating func twin(_ value: Any, key: String?) -> Any {
        switch value {
        case let object as [String: Any]:
            return object.reduce(into: [String: Any]()) { $0[$1.key] = twin($1.value, key: $1.key) }
        case let array as [Any]:
            return array.map { twin($0, key: key) }
        case let text as String where ["title", "name", "pros", "cons"].contains(key ?? ""):
            return plain(text)
        default:
            return value
        }
    }
}
