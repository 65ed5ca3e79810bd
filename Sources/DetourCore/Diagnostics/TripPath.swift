/// How diagnostics name a field of a trip: the path trip JSON would give it, whatever the format.
///
/// `destinations[0].detours[1].tasks[0].duration`: members joined with `.`, list items in `[…]`.
/// A key that is not a plain name (an unknown key can be anything, control characters included)
/// is written in brackets and quoted, `destinations[0]["bad key"]`, so a path never carries raw
/// user text into a terminal or a report.
public enum TripPath {
    /// The path of member `key` of the object at `parent` (`""` for the trip itself).
    public static func member(_ parent: String, _ key: String) -> String {
        guard isPlainName(key) else { return parent + "[" + Quoting.quoted(key) + "]" }
        return parent.isEmpty ? key : parent + "." + key
    }

    /// Whether `key` can stand after a `.`: ASCII letters, digits, `_` and `$`, not starting
    /// with a digit.
    static func isPlainName(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
                return true
            default:
                return false
            }
        }
    }
}
