import DetourBase
import DetourCore

/// Makes a browser's PDF reproducible: the same report gives the same bytes on every run.
///
/// Chromium (Skia's PDF back end) writes the moment of printing as the document's creation and
/// modification dates, and no document ID. Everything else it writes depends on the page alone
/// (checked: two runs differ in those two dates and nothing else). So the dates are replaced by
/// the plan's day, at midnight UTC, and an ID is added that is made from the bytes.
///
/// Both edits keep every byte offset the file's cross-reference table records: a date is
/// replaced by one of the same length, and the ID goes into the trailer, which follows the table
/// and is found through no offset (`startxref` points at the table). A PDF this does not
/// recognise (another writer, a cross-reference stream instead of a table) is returned as it
/// came: still a valid PDF, only not reproducible. This is written here, on bytes, rather than
/// with a PDF library: it edits two fields of a file whose writer is known, and no allowed
/// dependency reads PDF.
public enum PDFStamp {
    /// `pdf` with its dates set to `day` and an ID made from its bytes.
    public static func stamped(_ pdf: [UInt8], day: CalendarDay) -> [UInt8] {
        var bytes = pdf
        for key in ["/CreationDate (", "/ModDate ("] {
            replaceDate(after: Array(key.utf8), in: &bytes, day: day)
        }
        addID(to: &bytes)
        return bytes
    }

    /// Replaces the date string that follows the first `key` with `day`, keeping its length and
    /// form: `D:YYYYMMDDHHmmSS` then `+00'00'`, `Z`, or nothing.
    static func replaceDate(after key: [UInt8], in bytes: inout [UInt8], day: CalendarDay) {
        guard let start = firstIndex(of: key, in: bytes, from: 0).map({ $0 + key.count }),
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ")"))
        else { return }
        // `description` is YYYY-MM-DD, four-digit years being all a CalendarDay holds.
        let digits = day.description.filter { $0 != "-" } + "000000"
        let replacement: String
        switch end - start {
        case 23: replacement = "D:" + digits + "+00'00'"
        case 17: replacement = "D:" + digits + "Z"
        case 16: replacement = "D:" + digits
        default: return
        }
        bytes.replaceSubrange(start..<end, with: replacement.utf8)
    }

    /// Adds `/ID [<digest> <digest>]` to the last trailer dictionary that has none, the digest
    /// being the first 16 bytes of the SHA-256 of the file as it stands.
    static func addID(to bytes: inout [UInt8]) {
        let trailer = Array("trailer".utf8)
        guard let at = lastIndex(of: trailer, in: bytes),
            let open = firstIndex(of: Array("<<".utf8), in: bytes, from: at + trailer.count),
            bytes[(at + trailer.count)..<open].allSatisfy(isWhitespace),
            firstIndex(of: Array("/ID".utf8), in: bytes, from: open) == nil
        else { return }
        let hex = ContentDigest.hex(bytes).prefix(32)
        bytes.insert(contentsOf: "/ID [<\(hex)> <\(hex)>]\n".utf8, at: open + 2)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).reversed().first {
            bytes[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
}
