import DetourBase
import DetourCore
import DetourJob
import Foundation
import Testing

/// A browser's PDF made reproducible: its dates become the plan's day, an ID is made from its
/// bytes, and every offset its cross-reference table records still points at its object.
@Suite struct PDFStampTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 24) ?? .unixEpoch

    /// A PDF shaped as Chromium writes one: an Info dictionary with both dates, a classic
    /// cross-reference table, and a trailer without an ID.
    static func pdf(date: String = "D:20990101120000+00'00'", trailer: String = "", page: String = "595 842")
        -> [UInt8]
    {
        let objects = [
            "<</Title (Oslo)\n/CreationDate (\(date))\n/ModDate (\(date))>>", "<</Type /Catalog /Pages 3 0 R>>",
            "<</Type /Pages /Kids [4 0 R] /Count 1>>", "<</Type /Page /Parent 3 0 R /MediaBox [0 0 \(page)]>>",
        ]
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 5\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            let digits = String(offset)
            out += Array((String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n").utf8)
        }
        out += Array("trailer\n<</Size 5\n/Root 2 0 R\n/Info 1 0 R\(trailer)>>\nstartxref\n\(xref)\n%%EOF".utf8)
        return out
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Each `n 0 obj` the table lists starts where the table says, and `startxref` points at it.
    static func offsetsHold(_ bytes: [UInt8]) -> Bool {
        let text = text(bytes)
        guard let start = text.range(of: "startxref\n")?.upperBound,
            let xref = Int(text[start...].prefix { $0.isNumber }),
            text.utf8.dropFirst(xref).starts(with: "xref\n".utf8)
        else { return false }
        let rows = text.utf8.dropFirst(xref).split(separator: UInt8(ascii: "\n")).dropFirst(3).prefix(4)
        return rows.enumerated().allSatisfy { index, row in
            guard let offset = Int(String(decoding: row.prefix(10), as: UTF8.self)) else { return false }
            return text.utf8.dropFirst(offset).starts(with: "\(index + 1) 0 obj".utf8)
        }
    }

    @Test func theDatesBecomeThePlansDayAtMidnightUTCAndTheOffsetsHold() {
        let stamped = PDFStamp.stamped(Self.pdf(), day: Self.day)
        let text = Self.text(stamped)
        #expect(text.contains("/CreationDate (D:20261124000000+00'00')"))
        #expect(text.contains("/ModDate (D:20261124000000+00'00')"))
        #expect(!text.contains("2099"))
        #expect(Self.offsetsHold(Self.pdf()))
        #expect(Self.offsetsHold(stamped))
    }

    /// Skia writes `+00'00'`; the other forms the standard allows are kept in their own length.
    @Test(arguments: [
        ("D:20990101120000Z", "D:20261124000000Z"), ("D:20990101120000", "D:20261124000000"),
        ("D:2099", "D:2099"), ("D:20990101120000-05'00'x", "D:20990101120000-05'00'x"),
    ])
    func aDateOfAnotherFormIsReplacedInItsLengthOrLeft(_ written: String, _ expected: String) {
        let stamped = PDFStamp.stamped(Self.pdf(date: written), day: Self.day)
        #expect(Self.text(stamped).contains("/CreationDate (\(expected))"))
        #expect(Self.offsetsHold(stamped))
    }

    @Test func theIDIsTheDigestOfTheStampedBytesAndTheSameOnEveryRun() {
        let once = PDFStamp.stamped(Self.pdf(), day: Self.day)
        #expect(once == PDFStamp.stamped(Self.pdf(), day: Self.day))
        let dated = Self.text(once).replacingOccurrences(
            of: #"/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]\n"#, with: "", options: .regularExpression)
        let hex = ContentDigest.hex(Array(dated.utf8)).prefix(32)
        #expect(Self.text(once).contains("trailer\n<</ID [<\(hex)> <\(hex)>]\n/Size 5"))
        // Another page gives another ID; another day, too.
        let other = PDFStamp.stamped(Self.pdf(page: "612 792"), day: Self.day)
        let later = PDFStamp.stamped(Self.pdf(), day: CalendarDay(year: 2026, month: 11, day: 25) ?? .unixEpoch)
        #expect(Set([Self.id(once), Self.id(other), Self.id(later)]).count == 3)
    }

    @Test func aTrailerWithAnIDKeepsItAndStampingTwiceChangesNothing() {
        let once = PDFStamp.stamped(Self.pdf(), day: Self.day)
        #expect(PDFStamp.stamped(once, day: Self.day) == once)
        let given = Self.pdf(trailer: "\n/ID [<00> <00>]")
        #expect(Self.text(PDFStamp.stamped(given, day: Self.day)).components(separatedBy: "/ID").count == 2)
    }

    /// No `trailer` (a cross-reference stream), or none followed by a dictionary: only the
    /// dates change.
    @Test(arguments: ["tr\n<<", "trailer x <<", "trailer"])
    func withoutATrailerDictionaryNoIDIsAdded(_ trailer: String) {
        let pdf = Array(Self.text(Self.pdf()).replacingOccurrences(of: "trailer\n<<", with: trailer).utf8)
        let stamped = PDFStamp.stamped(pdf, day: Self.day)
        #expect(!Self.text(stamped).contains("/ID"))
        #expect(stamped.count == pdf.count)
    }

    @Test func bytesThatAreNoPDFComeBackAsTheyWere() {
        for bytes in [[], Array("%PDF".utf8), Array("/CreationDate (".utf8), Array("trailer".utf8)] as [[UInt8]] {
            #expect(PDFStamp.stamped(bytes, day: Self.day) == bytes)
        }
    }

    static func id(_ bytes: [UInt8]) -> String {
        let text = text(bytes)
        guard let range = text.range(of: #"/ID \[<[0-9a-f]+>"#, options: .regularExpression) else { return "" }
        return String(text[range])
    }
}
