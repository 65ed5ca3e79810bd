import DetourCore
import SystemPackage

extension FilePath {
    /// The path as messages and indexes show it: its UTF-8 as text, any byte that is not UTF-8
    /// written `\xFF`, and control characters made visible, so `bad\xFF.json` is told apart from
    /// `bad\u{FFFD}.json`, and a name cannot retitle a terminal or a page.
    ///
    /// Hand-written because `String(decoding:)` replaces such bytes with U+FFFD, losing them, and
    /// `FilePath.description` does the same.
    public var shown: String {
        var bytes: [UInt8] = []
        withPlatformString { start in
            var next = start
            while next.pointee != 0 {
                bytes.append(UInt8(bitPattern: next.pointee))
                next += 1
            }
        }
        var text = ""
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    let digits = String(byte, radix: 16, uppercase: true)
                    text += "\\x" + (digits.count == 1 ? "0" : "") + digits
                }
                offset += length
            case .emptyInput:
                return Quoting.printable(text)
            }
        }
    }
}
