import DetourCore
import Foundation
// ICU, as the toolchain's Foundation builds and links it into every program: its spoof checker
// is Unicode's own implementation of UTS #39's restriction levels, kept up to date with each
// Unicode version, where a table of scripts written here would not be.
import _FoundationICU

/// The address an account signs in with: the rule it follows, and the one form it is kept in.
///
/// An address is taken as NFKC (so `ａlice@example.org`, in full-width letters, is
/// `alice@example.org`), and then:
/// - follows the original app's rule (``EmailAddress/isValid(_:)``);
/// - has at most 254 bytes in UTF-8, the longest path RFC 5321 (§4.5.3.1.3) lets mail carry;
/// - holds no control, format (bidi controls, zero-width characters), private-use, unassigned or
///   separator character (a space among them): nothing a person cannot see, or that turns the
///   text around it, in a list of accounts or a terminal;
/// - writes each of its parts (the local part and each label of the domain) in one script, as
///   UTS #39's "highly restrictive" level allows (Latin with Han and Japanese or Korean counts
///   as one): `alice@exаmple.org`, with a Cyrillic `а`, is refused.
///
/// Two addresses that are one after NFKC and in lower case are one account
/// (``AccountStore/key(_:)``).
public enum AccountAddress {
    /// The longest address, in UTF-8 bytes.
    public static let maximumBytes = 254

    /// `text` in the form an account keeps: white space around it taken off, then NFKC.
    public static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
    }

    /// Why `text`, normalized, cannot be an account's address, in a form's words; `nil` when it
    /// can.
    public static func problem(_ text: String) -> String? {
        let address = normalized(text)
        guard EmailAddress.isValid(address) else { return rule }
        let bytes = address.utf8.count
        guard bytes <= maximumBytes else {
            return "An address has at most \(maximumBytes) characters; this one has \(bytes)."
        }
        if let hidden = address.unicodeScalars.first(where: isHidden) {
            let code = String(format: "U+%04X", hidden.value)
            return "An address cannot hold a character that does not show or that turns text around "
                + "(\(code) here); type it again."
        }
        let parts = address.split(whereSeparator: { $0 == "@" || $0 == "." })
        if let mixed = parts.first(where: { !SpoofChecker.shared.isOneScript(String($0)) }) {
            return "\u{201C}\(mixed)\u{201D} mixes letters of different alphabets, as look-alikes of other "
                + "addresses do; write each part of the address in one."
        }
        return nil
    }

    /// The original app's rule, in the form's words.
    public static let rule =
        "Enter an e-mail address such as name@example.org: a character either side of the \"@\", "
        + "and a \".\" between two characters after it."

    /// Whether `scalar` is one a person cannot see, or that changes how the text around it shows.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .spaceSeparator, .lineSeparator,
            .paragraphSeparator:
            return true
        default:
            return false
        }
    }
}

/// ICU's spoof checker, set to UTS #39's highly restrictive level: one for the process, made
/// once.
///
/// ICU's checks on a configured checker are safe from any thread ("the test functions are thread
/// safe", `uspoof.h`); it is configured only here, before it is shared, so it is `Sendable`.
private final class SpoofChecker: @unchecked Sendable {
    static let shared = SpoofChecker()

    private let checker: OpaquePointer?

    private init() {
        var status = U_ZERO_ERROR
        let checker = swift_uspoof_open(&status)
        swift_uspoof_setRestrictionLevel(checker, USPOOF_HIGHLY_RESTRICTIVE)
        let checks = USPOOF_RESTRICTION_LEVEL.rawValue | USPOOF_MIXED_NUMBERS.rawValue | USPOOF_INVISIBLE.rawValue
        swift_uspoof_setChecks(checker, Int32(bitPattern: checks), &status)
        self.checker = status.rawValue <= U_ZERO_ERROR.rawValue ? checker : nil
    }

    /// Whether `text` is written in one script as the level counts them.
    ///
    /// Without a checker (ICU could not make one), nothing passes: an address is refused rather
    /// than let through unchecked.
    func isOneScript(_ text: String) -> Bool {
        guard let checker else { return false }
        var status = U_ZERO_ERROR
        let found = text.withCString { swift_uspoof_check2UTF8(checker, $0, -1, nil, &status) }
        return status.rawValue <= U_ZERO_ERROR.rawValue && found == 0
    }
}
