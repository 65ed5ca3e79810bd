/// The rule for one value written as text: how it is read, and what each refusal is called and
/// says.
///
/// Each value type keeps its rule beside it (``TaskDuration``, ``DayHours``, ``Money/AmountRule``,
/// ``ExchangeRates/RateRule``, ``Coordinate/LatitudeRule``, ``Coordinate/LongitudeRule``), and
/// ``TripValidator`` applies them all the same way.
public protocol ValueRule {
    /// What a text that passes becomes.
    associatedtype Value
    /// Why a text was refused.
    associatedtype Problem: Error

    /// Reads `text`, or throws why not.
    static func parse(_ text: String) throws(Problem) -> Value
    /// The sentence for `text` refused with `problem`.
    static func message(_ problem: Problem, text: String) -> String
    /// The diagnostic code for `problem`.
    static func code(_ problem: Problem) -> DiagnosticCode
}

/// White space around a value that is a token (a day, a code, a duration, a number written as
/// text) is not part of it, in any format: XML Schema collapses it around `xsd:token` and
/// `xsd:decimal` attribute values, and a JSON string `" 2026-12-01"` means the same day.
public enum TokenText {
    /// `text` without spaces, tabs, carriage returns and line feeds at either end.
    public static func trimmed(_ text: String) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        // Nearly every value has no such space: its two ends are read in place (`withUTF8` makes
        // a bridged string contiguous first), without walking the string's index to its end.
        var text = text
        let padded = text.withUTF8 { bytes in bytes.first.map(isSpace) == true || bytes.last.map(isSpace) == true }
        guard padded else { return text }
        let bytes = text.utf8.drop(while: isSpace)
        return String(decoding: bytes.reversed().drop(while: isSpace).reversed(), as: UTF8.self)
    }
}
