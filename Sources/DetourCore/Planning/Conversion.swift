import Foundation

/// Money across currencies: exact conversion with declared rates, one rounding at the end.
///
/// A converted amount is the exact product of the amount and its rate (`Decimal` keeps 38
/// significant digits, more than any amount times any rate here). Sums add exact values; only a
/// total shown in a currency is rounded, once, half to even, to that currency's ISO 4217 minor
/// units (JPY 0, EUR 2, BHD 3), so rounding never piles up.
public enum Conversion {
    /// `amount` rounded half to even to `currency`'s minor units.
    public static func rounded(_ amount: Decimal, in currency: CurrencyCode) -> Money {
        var exact = amount
        var result = Decimal()
        NSDecimalRound(&result, &exact, currency.minorUnits, .bankers)
        return Money(amount: result, currency: currency, scale: currency.minorUnits)
    }

    /// The exact amounts of two costs in one currency for comparing them: as they are when they
    /// share a currency, else converted with `rates` when both rates are declared, else `nil`.
    public static func comparable(_ left: Money, _ right: Money, rates: ExchangeRates?) -> (
        Decimal, Decimal, CurrencyCode
    )? {
        if left.currency == right.currency { return (left.amount, right.amount, left.currency) }
        guard let rates, let a = rates.convert(left), let b = rates.convert(right) else { return nil }
        return (a, b, rates.currency)
    }
}
