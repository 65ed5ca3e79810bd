import Foundation

/// What one unit of each foreign currency is worth in the trip's own currency, as declared in
/// the trip: rates are never fetched, so a plan is reproducible.
///
/// Rates are `Decimal`s, kept exactly as written like amounts; a converted amount is the exact
/// product, and only totals are rounded (see ``Money/rounded(to:)``).
public struct ExchangeRates: Sendable, Hashable {
    /// The currency amounts are converted into.
    public let currency: CurrencyCode
    /// Each foreign currency's rate.
    public let rates: [CurrencyCode: Decimal]

    /// The most digits a rate may have after the point.
    public static let maximumFractionDigits = 10

    /// Rates into `currency`.
    public init(currency: CurrencyCode, rates: [CurrencyCode: Decimal] = [:]) {
        self.currency = currency
        self.rates = rates
    }

    /// The rate of `code` into ``currency``: 1 for the currency itself, `nil` when undeclared.
    public func rate(of code: CurrencyCode) -> Decimal? {
        code == currency ? 1 : rates[code]
    }

    /// `money` in ``currency``, exactly (not rounded), or `nil` when its rate is not declared.
    public func convert(_ money: Money) -> Decimal? {
        rate(of: money.currency).map { money.amount * $0 }
    }

    /// Why a rate text was refused.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not a number in ``NumberText``'s grammar.
        case notANumber
        /// Zero or below.
        case notPositive
        /// More than ``maximumFractionDigits`` digits after the point.
        case tooPrecise
        /// Larger than a billion: a typo, not a rate.
        case tooLarge
    }

    /// The rule for a rate written as text.
    public enum RateRule: ValueRule {
        public static func parse(_ text: String) throws(ParseError) -> Decimal { try ExchangeRates.parse(text) }

        public static func message(_ problem: ParseError, text: String) -> String {
            ExchangeRates.message(problem, text: text)
        }

        /// Every refusal is `bad-rate`.
        public static func code(_ problem: ParseError) -> DiagnosticCode { .badRate }
    }

    /// Parses a rate written as text.
    public static func parse(_ text: String) throws(ParseError) -> Decimal {
        guard let number = NumberText(text) else { throw .notANumber }
        if number.isNegative || number.digits.isEmpty { throw .notPositive }
        if let magnitude = number.magnitude, magnitude >= 9 { throw .tooLarge }
        guard number.fractionDigits <= maximumFractionDigits else { throw .tooPrecise }
        guard let rate = number.decimal, rate > 0 else { throw .notPositive }
        return rate
    }

    /// The message for a rate written as `text` that `error` refused.
    public static func message(_ error: ParseError, text: String) -> String {
        let shown = "rate \(Quoting.quoted(text))"
        switch error {
        case .notANumber: return "\(shown) is not a decimal number"
        case .notPositive: return "\(shown) is not positive; a rate is what one unit is worth, more than 0"
        case .tooPrecise: return "\(shown) has more than \(maximumFractionDigits) digits after the point"
        case .tooLarge: return "\(shown) is out of range (below 1000000000)"
        }
    }
}
