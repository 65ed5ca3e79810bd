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
        cli = try #require(CommandRunner(), "the detour-report binary was not built beside the tests")
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
        // No markup from input survives: every <, [ and & from data is backslash-escaped. The
        // escaper's own empty comment before an @ (it keeps GFM from linking an email) is allowed.
        for scalar in ["<", "[", "&"] {
            var index = markdown.startIndex
            while let found = markdown.range(of: scalar, range: index..<markdown.endIndex) {
                let before =
                    found.lowerBound > markdown.startIndex ? markdown[markdown.index(before: found.lowerBound)] : " "
                let after = markdown[found.lowerBound...]
                let allowed = before == "\\" || after.hasPrefix("<br>") || after.hasPrefix("<!-- -->\\@")
                #expect(allowed, "unescaped \(scalar) in Markdown near \(markdown[found.lowerBound...].prefix(30))")
                index = found.upperBound
            }
        }
    }

}
