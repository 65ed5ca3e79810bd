/// A price as people type it, read to say what the trip format wants instead: `12 EUR`,
/// `EUR 12`, `€12`, `12,50 €`, `1.234,50`, `$5`, `12 euros`.
///
/// The trip format keeps an amount (a number, with a point) and a currency (an ISO 4217 code)
/// apart. This reading is only ever a hint: what it finds is shown in a diagnostic, and the
/// person writes it. Nothing here accepts a value the format does not.
public struct PriceText: Sendable, Equatable {
    /// The amount as the format writes it: digits and at most one point (`1234.50`).
    public var amount: String
    /// The codes the currency written may stand for: one (`€` is `EUR`), several (`$`), or
    /// none when no currency was written.
    public var currencies: [String]
    /// The currency as written (`€`, `eur`, `euros`); empty when none was.
    public var currencyText: String

    /// Reads `text` as a number with, before or after it, at most one currency; `nil` when it
    /// is no such price.
    public init?(_ text: String) {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        guard let first = characters.firstIndex(where: \.isASCIIDigit),
            let last = characters.lastIndex(where: \.isASCIIDigit)
        else { return nil }
        let before = String(characters[..<first]).trimmingCharacters(in: .whitespaces)
        let after = String(characters[(last + 1)...]).trimmingCharacters(in: .whitespaces)
        guard before.isEmpty || after.isEmpty,
            let amount = Self.amount(String(characters[first...last]))
        else { return nil }
        let written = before.isEmpty ? after : before
        if written.isEmpty {
            currencies = []
        } else {
            guard let codes = Self.currencies(written) else { return nil }
            currencies = codes
        }
        self.amount = amount
        currencyText = written
    }

    /// The ISO 4217 codes a currency written as `text` may stand for: a code in any case
    /// (`eur`), a sign (`€`, `$`), a name (`Euro`, `dollars`); `nil` when it is none of them.
    public static func currencies(_ text: String) -> [String]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let upper = trimmed.uppercased()
        if upper.count == 3, upper.allSatisfy({ $0.isASCII && $0.isLetter }),
            let code = CurrencyCode(upper), ISO4217.isKnown(code)
        {
            return [upper]
        }
        if let codes = signs[trimmed] { return codes }
        var name = trimmed.lowercased()
        if let codes = names[name] { return codes }
        // Plurals: euros, dollars, pounds, francs.
        if name.hasSuffix("s") {
            name.removeLast()
            if let codes = names[name] { return codes }
        }
        return nil
    }

    /// The code a currency written otherwise means: `; did you mean "EUR"?`.
    ///
    /// For a code in small letters, a sign or a name; for a sign several currencies use, the
    /// codes it may be. Else empty.
    public static func currencyHint(_ text: String) -> String {
        guard let codes = currencies(text), let first = codes.first else { return "" }
        guard codes.count > 1 else { return "; did you mean \(Quoting.quoted(first))?" }
        return "; \(Quoting.quoted(text.trimmingCharacters(in: .whitespaces))) is used by several currencies: "
            + "write the code of yours, \(Quoting.series(codes, "or"))"
    }

    /// The currency signs people type, and the codes each may stand for, the likeliest first.
    static let signs: [String: [String]] = [
        "€": ["EUR"], "£": ["GBP"], "$": ["USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"], "US$": ["USD"],
        "C$": ["CAD"], "CA$": ["CAD"], "A$": ["AUD"], "AU$": ["AUD"], "NZ$": ["NZD"], "HK$": ["HKD"],
        "S$": ["SGD"], "R$": ["BRL"], "¥": ["JPY", "CNY"], "₹": ["INR"], "₩": ["KRW"], "₺": ["TRY"],
        "₽": ["RUB"], "₪": ["ILS"], "₫": ["VND"], "฿": ["THB"], "₱": ["PHP"], "zł": ["PLN"], "Kč": ["CZK"],
        "Ft": ["HUF"], "kr": ["SEK", "NOK", "DKK", "ISK"], "kr.": ["DKK", "ISK"], "Fr.": ["CHF"], "Fr": ["CHF"],
    ]

    /// Currency names people type, lower case, singular.
    static let names: [String: [String]] = [
        "euro": ["EUR"], "dollar": ["USD", "CAD", "AUD", "NZD", "HKD", "SGD"], "pound": ["GBP"],
        "sterling": ["GBP"], "yen": ["JPY"], "yuan": ["CNY"], "renminbi": ["CNY"], "franc": ["CHF"],
        "krona": ["SEK", "ISK"], "kronor": ["SEK"], "krone": ["NOK", "DKK"], "kroner": ["NOK", "DKK"],
        "zloty": ["PLN"], "forint": ["HUF"], "koruna": ["CZK"], "rupee": ["INR"], "peso": ["MXN", "ARS", "CLP", "COP"],
        "real": ["BRL"], "reais": ["BRL"], "lira": ["TRY"], "rand": ["ZAR"], "baht": ["THB"],
    ]

    /// `digits` with its separators read as a person writes them, in the format's form: a point
    /// before the decimals and no thousands separator; `nil` when it is no number.
    ///
    /// With both a point and a comma, the last of them is the decimal separator (`1.234,50`,
    /// `1,234.50`). A comma alone is a decimal comma before one or two digits (`12,50`), and a
    /// thousands separator otherwise (`1,234`, `1,234,567`); several points are thousands
    /// separators (`1.234.567`). Spaces and apostrophes group thousands (`1 234`, `1'234`).
    static func amount(_ digits: String) -> String? {
        var text = digits.filter { !" '\u{00A0}\u{202F}’".contains($0) }
        let points = text.filter { $0 == "." }.count
        let commas = text.filter { $0 == "," }.count
        if points > 0, commas > 0 {
            guard let lastPoint = text.lastIndex(of: "."), let lastComma = text.lastIndex(of: ",") else { return nil }
            let (decimal, thousands): (Character, Character) = lastComma > lastPoint ? (",", ".") : (".", ",")
            guard text.filter({ $0 == decimal }).count == 1 else { return nil }
            text = String(text.filter { $0 != thousands }.map { $0 == decimal ? "." : $0 })
        } else if commas == 1, let comma = text.firstIndex(of: ","), text.distance(from: comma, to: text.endIndex) <= 3
        {
            text = text.replacingOccurrences(of: ",", with: ".")
        } else if commas > 0 {
            text = text.filter { $0 != "," }
        } else if points > 1 {
            text = text.filter { $0 != "." }
        }
        return NumberText(text) == nil ? nil : text
    }
}

extension Character {
    /// `0` to `9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
