import DetourRender

/// A trip's name in a URL: the file's name without its extension, one path segment.
///
/// A name is letters, digits, `.`, `_` and `-`, does not start with a dot, does not end in the
/// extension of a format the server serves (`lisbon.html` would be the HTML report of `lisbon`:
/// its preview had no URL of its own, and `lisbon`'s report led to it), and is checked after
/// its segment is percent-decoded exactly once, so `..`, `%2e%2e`, `%252e` (which decodes to
/// `%2e`, no name), a `/` or `\` inside, and dotfiles never reach the file system.
public struct TripName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name's text.
    public let text: String

    /// The longest name: a file name of 255 bytes less the longest trip extension (`.json`), and
    /// room for the temporary file `.NAME.json.XXXXXX` a write makes beside it.
    public static let maxLength = 240

    /// The name in `segment`, a path segment as it came in the request, or `nil` when it is none.
    public init?(segment: Substring) {
        guard let decoded = TripName.percentDecoded(segment) else { return nil }
        self.init(decoded: decoded)
    }

    /// The name `text`, already decoded, or `nil` when it breaks the rule.
    public init?(decoded text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= TripName.maxLength, bytes[0] != UInt8(ascii: "."),
            bytes.allSatisfy(TripName.isAllowed), !TripName.endsInServedExtension(text)
        else { return nil }
        self.text = text
    }

    /// The extensions of what the server serves under `/trips/NAME.EXT`, with their dot.
    static let servedExtensions = OutputFormat.allCases.map { "." + $0.fileExtension }

    /// Whether `text` ends in one of ``servedExtensions``, in any case.
    static func endsInServedExtension(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return servedExtensions.contains { lowered.hasSuffix($0) }
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// `segment` with each `%XX` replaced by its byte, once; `nil` for a `%` not followed by two
    /// hexadecimal digits, or bytes that are not UTF-8.
    static func percentDecoded(_ segment: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = segment.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else {
                return nil
            }
            out.append(high << 4 | low)
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    public var description: String { text }

    public static func < (left: TripName, right: TripName) -> Bool {
        Array(left.text.utf8).lexicographicallyPrecedes(Array(right.text.utf8))
    }
}
