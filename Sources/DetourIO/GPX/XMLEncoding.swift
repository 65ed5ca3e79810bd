import DetourCore
import Foundation

/// The encodings a GPX trip may use: UTF-8 (with or without a byte-order mark), UTF-16 with a byte-order mark,
/// ISO-8859-1 and ASCII.
///
/// Anything else is refused by name before parsing.
enum XMLEncoding {
    static let accepted: Set<String> = [
        "UTF-8", "UTF8", "UTF-16", "UTF16", "ISO-8859-1", "ISO8859-1", "LATIN1", "US-ASCII", "ASCII",
    ]

    /// Why the document's encoding is refused (or the file is compressed), or `nil` if it is
    /// accepted.
    static func problem(_ prefix: [UInt8]) -> String? {
        if prefix.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return "the file is UTF-32, which is not supported; save it as UTF-8"
        }
        if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) { return nil }
        if prefix.count >= 2, prefix[0] == 0 || prefix[1] == 0 {
            return "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"
        }
        var bytes = prefix[...]
        if bytes.starts(with: TextEncoding.utf8BOM) { bytes = bytes.dropFirst(3) }
        guard let declared = declaredEncoding(bytes) else { return nil }
        let normalized = declared.uppercased()
        guard accepted.contains(normalized) else {
            return
                "the file's encoding \(Quoting.quoted(declared)) is not supported; use UTF-8 (or ISO-8859-1, ASCII, UTF-16 with a byte-order mark)"
        }
        if normalized.hasPrefix("UTF-16") || normalized == "UTF16" {
            return "the file declares UTF-16 but has no byte-order mark; save it as UTF-8"
        }
        return nil
    }

    /// The `encoding="…"` of an XML declaration at the start of `bytes`, if any.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = bytes.prefix { $0 != UInt8(ascii: ">") }
        let text = String(decoding: declaration, as: UTF8.self)
        guard let range = text.range(of: "encoding") else { return nil }
        var rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
    }
}
