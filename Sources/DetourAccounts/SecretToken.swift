import CSodium
import DetourBase

/// A secret made of 32 random bytes (libsodium's `randombytes_buf`, the kernel's `getrandom`),
/// written as unpadded base64url: a session id, an API token (`dtr_…`), a feed token.
///
/// Only its SHA-256 (``digest``) is stored: whoever reads the database cannot use what is in it.
public struct SecretToken: Sendable, Equatable {
    /// The secret as it is given out (cookie, header, address).
    public let text: String

    /// A new random secret after `prefix`.
    public static func random(prefix: String = "") -> SecretToken {
        var bytes = [UInt8](repeating: 0, count: 32)
        randombytes_buf(&bytes, bytes.count)
        return SecretToken(text: prefix + base64URL(bytes))
    }

    /// The secret as a client sent it back.
    public init(text: String) {
        self.text = text
    }

    /// SHA-256 of the text, in hex: what the database keeps and looks up.
    public var digest: String { ContentDigest.hex(Array(text.utf8)) }

    /// `count` random bytes in hex: an account's id, which names its folder.
    public static func randomHex(count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, bytes.count)
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// RFC 4648's base64url alphabet, without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count {
                out.append(alphabet[(value >> (18 - 6 * position)) & 63])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
