import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// A byte-order mark moves no diagnostic: every problem of every test trip is reported at the same
/// line and column with one as without, and a byte offset a message names counts the mark, as the
/// file on disk does.
@Suite struct BOMPositionTests {
    /// Every trip the tests judge: the twins, the hostile corpus and the samples, JSON and GPX.
    static let files: [URL] = {
        let folders = [
            Fixtures.repository.appendingPathComponent("Tests/Twins"),
            Fixtures.corpus.appendingPathComponent("hostile"), Fixtures.samples,
        ]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .filter { $0.hasSuffix(".json") || $0.hasSuffix(".gpx") }
                .map { folder.appendingPathComponent($0) }
        }.filter { url in
            // A file that starts with a mark already, or is in UTF-16, is a case of its own.
            let bytes = Array((try? Data(contentsOf: url)) ?? Data())
            return !bytes.starts(with: TextEncoding.utf8BOM) && TextEncoding.otherEncoding(bytes) == nil
        }
    }()

    /// A diagnostic as a line, with the byte offset a message names moved by `shift`.
    static func described(_ diagnostic: Diagnostic, shift: Int = 0) -> String {
        var message = diagnostic.message
        if let range = message.range(of: #"byte offset \d+"#, options: .regularExpression),
            let offset = Int(message[range].dropFirst("byte offset ".count))
        {
            message.replaceSubrange(range, with: "byte offset \(offset + shift)")
        }
        let place = diagnostic.position.map {
            "\($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-")"
        }
        return "\(diagnostic.code.rawValue) \(diagnostic.path ?? "-") \(place ?? "-") \(message)"
    }

    static func diagnostics(_ bytes: [UInt8], _ url: URL) -> [Diagnostic] {
        TripLoader.load(bytes, format: url.pathExtension == "gpx" ? .gpx : .json).diagnostics
    }

    @Test(arguments: files)
    func aByteOrderMarkMovesNoDiagnostic(_ url: URL) throws {
        let bytes = Array(try Data(contentsOf: url))
        let plain = Self.diagnostics(bytes, url).map { Self.described($0, shift: TextEncoding.utf8BOM.count) }
        let marked = Self.diagnostics(TextEncoding.utf8BOM + bytes, url).map { Self.described($0) }
        #expect(plain == marked)
    }

    /// The files above hold problems at places enough for the comparison to mean something.
    @Test func theTripsHaveProblemsAtPlaces() throws {
        let placed = try Self.files.reduce(0) { count, url in
            count + Self.diagnostics(Array(try Data(contentsOf: url)), url).count { $0.position?.line != nil }
        }
        #expect(Self.files.count >= 40)
        #expect(placed >= 40)
    }

    /// A byte that is not UTF-8, at every place of a trip's texts, with and without a mark: the
    /// message names its offset in the file, and the line and column are where it is, counted
    /// in Unicode scalars as an editor counts them.
    @Test(arguments: [false, true])
    func aBadByteIsPlacedWhereItIs(_ withMark: Bool) throws {
        let text = "{\"title\": \"Été à 日本\",\n  \"destinations\": [],\n  \"notes\": \"né ok\"}\n"
        let base = Array(text.utf8)
        let mark = withMark ? TextEncoding.utf8BOM : []
        var checked = 0
        // An ASCII letter, and the first byte of "É", "é", "à" and "日": a bad byte in the middle of
        // a character makes the character bad, which is named at its first byte.
        for offset in base.indices where base[offset] == UInt8(ascii: "o") || base[offset] >= 0xC0 {
            var bytes = base
            bytes[offset] = 0xFF
            let found = TripLoader.load(mark + bytes, format: .json).diagnostics
            let diagnostic = try #require(found.first { $0.code == .invalidUTF8 }, "\(offset)")
            let before = base[..<offset]
            let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = String(decoding: base[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1
            #expect(diagnostic.message.contains("byte offset \(offset + mark.count)"), "\(diagnostic.message)")
            #expect(diagnostic.position?.line == line, "\(offset)")
            #expect(diagnostic.position?.column == column, "\(offset)")
            checked += 1
        }
        #expect(checked >= 8)
    }
}
