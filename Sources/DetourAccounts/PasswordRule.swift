import Foundation

/// What a new password must be (NIST SP 800-63B, 3.1.1.2, for a password that is the only
/// factor): at least `minimum` characters, at most 1,024, not among the 10,000 most common
/// passwords, and typed the same twice.
///
/// Characters are counted as NIST asks: each Unicode code point once, after the compatibility
/// normalization (NFKC) that is also applied before hashing, so `ﬁ` and `fi` are one password.
/// Nothing else is asked (no mix of letter kinds, no expiry): NIST advises against both.
public struct PasswordRule: Sendable, Equatable {
    /// The original app's minimum, the lowest `--min-password-length` takes.
    public static let lowestMinimum = 6
    /// NIST's minimum for a password that is the only factor.
    public static let defaultMinimum = 8
    /// The most characters a password may have: enough for any passphrase, few enough that a
    /// hash of one costs what a hash of any other does.
    public static let maximum = 1024

    /// The fewest characters a password may have.
    public let minimum: Int

    /// A rule asking for at least `minimum` characters, or `nil` when `minimum` is below the
    /// original app's 6 or above the maximum.
    public init?(minimum: Int) {
        guard minimum >= PasswordRule.lowestMinimum, minimum <= PasswordRule.maximum else { return nil }
        self.init(unchecked: minimum)
    }

    private init(unchecked minimum: Int) {
        self.minimum = minimum
    }

    /// NIST's rule: at least 8 characters.
    public static let standard = PasswordRule(unchecked: defaultMinimum)

    /// A rule the password breaks, with the field it belongs to and what the form says.
    public enum Problem: Sendable, Equatable {
        case tooShort(minimum: Int)
        case tooLong(maximum: Int)
        case common
        case mismatch

        /// The form field the problem is shown next to.
        public var field: String {
            switch self {
            case .mismatch: return "confirm"
            case .tooShort, .tooLong, .common: return "password"
            }
        }

        /// What the person is told.
        public var message: String {
            switch self {
            case .tooShort(let minimum): return "Password must be at least \(minimum) characters."
            case .tooLong(let maximum): return "Password must be at most \(maximum) characters."
            case .common: return "This password is one of the 10,000 most common; choose another."
            case .mismatch: return "Passwords do not match."
            }
        }
    }

    /// Every rule `password` and its confirmation break, in the form's order; empty when it will do.
    public func problems(password: String, confirm: String) -> [Problem] {
        var problems: [Problem] = []
        let normal = PasswordRule.normalized(password)
        let length = normal.unicodeScalars.count
        if length < minimum {
            problems.append(.tooShort(minimum: minimum))
        } else if length > PasswordRule.maximum {
            problems.append(.tooLong(maximum: PasswordRule.maximum))
        } else if CommonPasswords.contains(normal) {
            problems.append(.common)
        }
        if PasswordRule.normalized(confirm) != normal {
            problems.append(.mismatch)
        }
        return problems
    }

    /// `password` in Unicode's compatibility composition (NFKC): what is counted and hashed.
    public static func normalized(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping
    }
}
