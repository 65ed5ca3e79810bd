import Crypto

/// SHA-256 (FIPS 180-4) of some bytes, as 64 lowercase hex digits: a PDF's document ID, and what
/// the server's entity tags are made from.
///
/// An entity tag must change whenever a trip file's bytes do, whoever changed them (an editor,
/// `git checkout`, another client), and two clients must never see one tag for two contents: a
/// strong validator, as RFC 9110 §8.8.1 says. A 64-bit non-cryptographic hash could be made to
/// collide on purpose; SHA-256 cannot. The hash is swift-crypto's (BoringSSL's on Linux), which
/// the server's dependencies bring already.
public enum ContentDigest {
    /// The SHA-256 digest of `bytes` in hex.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(bytes)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
