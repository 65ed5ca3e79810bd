import Foundation
import Testing

@testable import DetourCore

/// Amounts are printed from their whole number of smallest units; Decimal's own description is
/// the reference that printing must match.
@Suite struct MoneyTextTests {
    @Test func printingFromTheIntegerMatchesDecimalsDescription() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let mantissa =
                Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &generator)
                / [1, 10, 1_000, 1_000_000, 1_000_000_000][Int.random(in: 0...4, using: &generator)]
            let exponent = Int.random(in: -12...6, using: &generator)
            let amount = Decimal(
                sign: mantissa < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa.magnitude))
            let scale = Int.random(in: 0...4, using: &generator)
            let fast = Money.plainFromInteger(amount, scale: scale)
            if let fast {
                #expect(fast == Money.plainFromDescription(amount, scale: scale), "\(amount) at scale \(scale)")
            }
        }
    }

    @Test(arguments: [
        ("3.1", 2, "3.10"), ("0", 2, "0.00"), ("-0.05", 2, "-0.05"), ("1200", 0, "1200"), ("1200", 2, "1200.00"),
        ("0.000123", 2, "0.000123"), ("41.40", 2, "41.40"), ("-7", 3, "-7.000"),
        ("123456789012.345", 2, "123456789012.345"),
    ])
    func amountsPrintInPlainNotation(_ text: String, _ scale: Int, _ expected: String) throws {
        let amount = try #require(Decimal(string: text, locale: nil))
        #expect(Money.plain(amount, scale: scale) == expected)
        #expect(Money.plainFromInteger(amount, scale: scale) == expected)
    }

    @Test func amountsBeyondSixtyFourBitsFallBackToTheDescription() throws {
        let huge = try #require(Decimal(string: "123456789012345678901234567890.5", locale: nil))
        #expect(Money.plainFromInteger(huge, scale: 2) == nil)
        #expect(Money.plain(huge, scale: 2) == "123456789012345678901234567890.50")
    }
}
