/// The rule for `--token-file`'s token.
public enum TokenRule {
    /// Why `token` cannot be the server's token, or `nil` when it can.
    ///
    /// A token has at least 16 characters, each one a cookie value may hold (RFC 6265 §4.1.1:
    /// printable ASCII but space, `"`, `,`, `;` and `\`), since a read that brings it as
    /// `?token=` is given it back as a cookie.
    public static func problem(_ token: String) -> String? {
        let cookieOctet = { (scalar: Unicode.Scalar) in
            (0x21...0x7E).contains(scalar.value) && !"\",;\\".unicodeScalars.contains(scalar)
        }
        guard token.unicodeScalars.count >= 16, token.unicodeScalars.allSatisfy(cookieOctet) else {
            return "must be one line of at least 16 printable ASCII characters, none of them a space, \", , ; or \\"
        }
        return nil
    }
}
