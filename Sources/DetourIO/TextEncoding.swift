import DetourCore
import Foundation

/// What the bytes of a trip file are, whatever its format: UTF-8 (the only encoding trip JSON
/// may use, RFC 8259 §8.1) or another, white space only, or a compressed file given in place of
/// a trip.
public enum TextEncoding {
    /// The UTF-8 byte-order mark.
    public static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `bytes` (after a UTF-8 byte-order mark at the start of a file) are nothing but
    /// spaces, tabs, carriage returns and line feeds: an empty file, in any format.
    public static func isBlank(_ bytes: some Collection<UInt8>) -> Bool {
        let text = bytes.starts(with: utf8BOM) ? bytes.dropFirst(3) : bytes[bytes.startIndex...]
        return text.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The offset where text starts: 3 after a UTF-8 BOM, else 0.
    public static func bomLength(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: utf8BOM) ? 3 : 0
    }

    /// Names another Unicode encoding from a BOM or from NUL bytes in the first character.
    public static func otherEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32BE" }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32LE" }
        if bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        if bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        // Without a BOM, JSON's first character is ASCII, so a NUL beside it gives UTF-16 away.
        if bytes.count >= 2, bytes[0] == 0, bytes[1] != 0 { return "UTF-16BE" }
        if bytes.count >= 2, bytes[0] != 0, bytes[1] == 0 { return "UTF-16LE" }
        return nil
    }

    /// Why a file starting with `prefix` is not a trip but a compressed file or an archive, naming
    /// the command that undoes it; `nil` for anything else.
    ///
    /// Every reader asks this first, so a `trip.json.gz` gets this message rather than one about
    /// its encoding or syntax.
    public static func compressionProblem(_ prefix: [UInt8]) -> String? {
        compressedFormats.first { prefix.starts(with: $0.magic) }?.problem
    }

    /// The magic bytes of the compressed formats people send, with what to say about each.
    private static let compressedFormats: [(magic: [UInt8], problem: String)] =
        [
            ([0x1F, 0x8B], "the file is gzip-compressed; decompress it first (gunzip FILE)"),
            ([0x50, 0x4B, 0x03, 0x04], "the file is a zip archive; extract the trip from it first (unzip FILE)"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "the file is xz-compressed; decompress it first (unxz FILE)"),
            ([0x28, 0xB5, 0x2F, 0xFD], "the file is zstd-compressed; decompress it first (unzstd FILE)"),
        ]
        + (UInt8(ascii: "1")...UInt8(ascii: "9")).map { level in
            // "BZh" and the block size: the three letters alone could start a text.
            ([0x42, 0x5A, 0x68, level], "the file is bzip2-compressed; decompress it first (bunzip2 FILE)")
        }

    /// The offset of the first byte that is not part of valid UTF-8, or `nil` if all is valid.
    ///
    /// Overlong forms, surrogates and code points past U+10FFFF are invalid, as the standard says.
    public static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: (length, low) = (3, 0xA0)
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: (length, high) = (3, 0x9F)
                case 0xF0: (length, low) = (4, 0x90)
                case 0xF1...0xF3: length = 4
                case 0xF4: (length, high) = (4, 0x8F)
                default: return index
                }
                guard index + length <= count else { return index }
                let second = buffer[index + 1]
                guard second >= low, second <= high else { return index }
                for offset in 2..<max(2, length) where buffer[index + offset] & 0xC0 != 0x80 {
                    return index
                }
                index += length
            }
            return nil
        }
    }

    // MARK: - GPX: the encodings an XML document may use: UTF-8 (with or without a byte-order
    // mark), UTF-16 with a byte-order mark, ISO-8859-1 and ASCII; any other is refused by name.

    /// The encodings an XML declaration may name.
    static let xmlEncodings: Set<String> = [
        "UTF-8", "UTF8", "UTF-16", "UTF16", "ISO-8859-1", "ISO8859-1", "LATIN1", "US-ASCII", "ASCII",
    ]

    /// Why the document's encoding is refused (or the file is compressed), or `nil` if it is
    /// accepted.
    static func xmlProblem(_ prefix: [UInt8]) -> String? {
        if prefix.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return "the file is UTF-32, which is not supported; save it as UTF-8"
        }
        if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) { return nil }
        if prefix.count >= 2, prefix[0] == 0 || prefix[1] == 0 {
            return "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"
        }
        var bytes = ArraySlice(prefix)
        if bytes.starts(with: TextEncoding.utf8BOM) { bytes = bytes.dropFirst(3) }
        guard let declared = declaredEncoding(bytes) else { return nil }
        let normalized = declared.uppercased()
        guard xmlEncodings.contains(normalized) else {
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
