/// The 10,000 most common passwords (`common-passwords.txt`; its source and licence are in
/// `common-passwords.NOTICE`), which no account may choose.
enum CommonPasswords {
    /// The list as a set, read from the embedded file at first use.
    static let all: Set<String> = {
        var words = Set<String>(minimumCapacity: 10_000)
        for line in PackageResources.common_passwords_txt.split(separator: UInt8(ascii: "\n")) {
            words.insert(String(decoding: line, as: UTF8.self))
        }
        return words
    }()

    /// Whether `password`, in any case, is on the list (which is in lower case).
    static func contains(_ password: String) -> Bool {
        all.contains(password.lowercased())
    }
}
