import Foundation

/// An amount of money in one currency, kept exactly as written.
///
/// Amounts are `Decimal`: `3.10` EUR is three euros ten, never 3.0999999. Sums and comparisons
/// only ever happen between amounts in the same currency.
public struct Money: Sendable, Hashable {
    /// The amount, zero or more.
    public let amount: Decimal
    /// The currency.
    public let currency: CurrencyCode
    /// Digits after the point that reports show: the currency's minor unit, or more when the
    /// amount needs them (`3.125` EUR keeps three).
    public let scale: Int

    /// The largest amount accepted: anything above is a typo, not a price.
    public static let maximumAmount = 1_000_000_000_000

    /// Creates money from a validated amount.
    public init(amount: Decimal, currency: CurrencyCode, scale: Int? = nil) {
        self.amount = amount
        self.currency = currency
        self.scale = max(scale ?? 0, currency.minorUnits)
    }

    /// Why an amount text was refused.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not a number in ``NumberText``'s grammar.
        case notANumber
        /// Below zero.
        case negative
        /// Above ``Money/maximumAmount``.
        case tooLarge
        /// More digits after the point than a price can have (more than 6).
        case tooPrecise
    }

    /// The message for an amount written as `text` that `error` refused.
    public static func message(_ error: ParseError, text: String) -> String {
        let shown = "amount \(Quoting.printable(text))"
        switch error {
        case .notANumber:
            return "amount \(Quoting.quoted(text)) is not a decimal number"
                + (decimalCommaHint(text) ?? priceHint(text))
        case .negative: return "\(shown) is negative; an amount is zero or more"
        case .tooLarge: return "\(shown) is out of range (at most \(maximumAmount))"
        case .tooPrecise: return "\(shown) has more than 6 digits after the point"
        }
    }

    /// `; write the amount with a dot: "12.50"` for an amount written with a decimal comma
    /// (`12,50`); `nil` when the text is no such number.
    public static func decimalCommaHint(_ text: String) -> String? {
        NumberText.withDecimalPoint(text).map { "; write the amount with a dot: \(Quoting.quoted($0))" }
    }

    /// `; write the amount alone, "12", and the currency apart: "EUR"` for an amount written
    /// as a price (`12 EUR`, `€12`, `1.234,50`); else empty.
    public static func priceHint(_ text: String) -> String {
        guard let price = PriceText(text) else { return "" }
        guard !price.currencies.isEmpty else {
            return "; write the amount with a point and no thousands separator: \(Quoting.quoted(price.amount))"
        }
        return "; write the amount alone, \(Quoting.quoted(price.amount)), and the currency apart: "
            + Quoting.series(price.currencies.map { Quoting.quoted($0) }, "or")
    }

    /// The rule for an amount written as text (a JSON number or a GPX attribute).
    public enum AmountRule: ValueRule {
        public static func parse(_ text: String) throws(ParseError) -> (amount: Decimal, scale: Int) {
            try Money.parseAmount(text)
        }

        public static func message(_ problem: ParseError, text: String) -> String {
            Money.message(problem, text: text)
        }

        /// Every refusal is `bad-amount`.
        public static func code(_ problem: ParseError) -> DiagnosticCode { .badAmount }
    }

    /// Parses an amount written as text (a JSON number or a GPX attribute).
    public static func parseAmount(_ text: String) throws(ParseError) -> (amount: Decimal, scale: Int) {
        guard let number = NumberText(text) else { throw .notANumber }
        if number.isNegative { throw .negative }
        if let magnitude = number.magnitude, magnitude >= 13 { throw .tooLarge }
        guard number.fractionDigits <= 6 else { throw .tooPrecise }
        guard let amount = number.decimal else { throw .notANumber }
        guard amount <= Decimal(maximumAmount) else { throw .tooLarge }
        return (amount, number.fractionDigits)
    }

    /// The amount in plain notation with at least the currency's minor-unit digits: `3.10`.
    public var amountText: String {
        Money.plain(amount, scale: scale)
    }

    /// `3.10 EUR`: the form reports use, free of locale.
    public var description: String { "\(amountText) \(currency.code)" }

    /// `amount` in plain notation with exactly `scale` digits after the point when it has fewer.
    static func plain(_ amount: Decimal, scale: Int) -> String {
        plainFromInteger(amount, scale: scale) ?? plainFromDescription(amount, scale: scale)
    }

    /// ``plain(_:scale:)`` through Decimal's own description: right for every amount, but
    /// Decimal's general conversion took a tenth of the time of a large trip's HTML report.
    static func plainFromDescription(_ amount: Decimal, scale: Int) -> String {
        // Decimal's description is plain notation with "." (no locale, no exponent); pad it.
        guard let number = NumberText(amount.description) else { return amount.description }
        return padded(number.plain, fractionDigits: number.fractionDigits, scale: scale)
    }

    /// ``plain(_:scale:)`` from the amount as a whole number of its smallest written unit, which fits an `Int64` for
    /// every amount a trip allows; `nil` when it does not.
    ///
    /// Written by hand because no formatter among our dependencies prints a Decimal without a locale;
    /// it is a third of the cost of ``plainFromDescription(_:scale:)``, and a test holds the two to the
    /// same text over many amounts. The whole number is the amount's significand (scaled up by its
    /// exponent when that is positive), not the amount multiplied by a power of ten: a Decimal
    /// multiplication was half the cost of printing an amount, which a large trip's report does
    /// hundreds of thousands of times.
    static func plainFromInteger(_ amount: Decimal, scale: Int) -> String? {
        guard amount.isFinite else { return nil }
        let exponent = amount.exponent
        var fraction = max(0, -exponent)
        guard fraction <= maximumPlaces else { return nil }
        let significand = amount.significand
        let whole = NSDecimalNumber(decimal: significand).int64Value
        guard whole >= 0, Decimal(whole) == significand else { return nil }
        var magnitude = UInt64(whole)
        for _ in 0..<max(0, exponent) {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow, product <= UInt64(Int64.max) else { return nil }
            magnitude = product
        }
        // Trailing zeros after the point carry no value, as NumberText folds them.
        while fraction > 0, magnitude % 10 == 0 {
            magnitude /= 10
            fraction -= 1
        }
        let negative = amount.sign == .minus && magnitude != 0
        let padding = max(0, scale - fraction)
        return NumberText.written(units: magnitude, fractionDigits: fraction, zeros: padding, negative: negative)
    }

    /// The most digits after the point ``plainFromInteger(_:scale:)`` prints: an `Int64` holds
    /// every number of 18 digits.
    private static let maximumPlaces = 18

    private static func padded(_ text: String, fractionDigits have: Int, scale: Int) -> String {
        guard have < scale else { return text }
        return text + (have == 0 ? "." : "") + String(repeating: "0", count: scale - have)
    }
}

/// An ISO 4217 currency code: three capital letters.
public struct CurrencyCode: Sendable, Hashable, CustomStringConvertible {
    /// The three letters.
    public let code: String

    /// Creates a code from exactly three ASCII capital letters, or returns `nil`.
    public init?(_ code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else { return nil }
        self.code = code
    }

    /// The euro, for the placeholders of a draft trip.
    static let euro = CurrencyCode(checked: "EUR")

    /// A code known to be three capital letters.
    private init(checked code: String) {
        self.code = code
    }

    /// Digits after the point in this currency's everyday amounts: its ISO 4217 minor unit, or 2
    /// for a code the list gives none for (gold, XXX) or does not hold.
    public var minorUnits: Int {
        ISO4217.minorUnits(self) ?? 2
    }

    /// The three letters, as in reports.
    public var description: String { code }
}
