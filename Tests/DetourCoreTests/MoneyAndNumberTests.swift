import DetourCore
import Foundation
import Testing

@Suite struct MoneyAndNumberTests {
    @Test func amountsAreExactDecimals() throws {
        let (amount, scale) = try Money.parseAmount("3.10")
        #expect(amount == Decimal(string: "3.1", locale: nil))
        #expect(scale == 1)  // digits the value needs; reports pad to the currency's minor unit
        // 0.1 + 0.2 is 0.3 exactly, which a Double would not give.
        let sum = try Money.parseAmount("0.1").amount + Money.parseAmount("0.2").amount
        #expect(sum == Decimal(string: "0.3", locale: nil))
    }

    @Test(arguments: [
        ("-25", Money.ParseError.negative), ("1e400", .tooLarge), ("1000000000001", .tooLarge),
        ("0x1p3", .notANumber), ("NaN", .notANumber), ("Infinity", .notANumber), ("", .notANumber),
        ("1.", .notANumber), ("0.0000001", .tooPrecise), ("1e-400", .tooPrecise),
    ])
    func refusesAmountsThatAreNotPrices(_ text: String, _ error: Money.ParseError) {
        #expect(throws: error) { try Money.parseAmount(text) }
    }

    @Test func showsAmountsWithTheCurrencysMinorUnits() throws {
        func shown(_ amount: String, _ currency: String) throws -> String {
            let parsed = try Money.parseAmount(amount)
            let code = try #require(CurrencyCode(currency))
            return Money(amount: parsed.amount, currency: code, scale: parsed.scale).description
        }
        #expect(try shown("3.1", "EUR") == "3.10 EUR")
        #expect(try shown("0", "EUR") == "0.00 EUR")
        #expect(try shown("1500", "JPY") == "1500 JPY")
        #expect(try shown("2.5", "KWD") == "2.500 KWD")
        #expect(try shown("3.125", "EUR") == "3.125 EUR")
        #expect(try shown("1e3", "USD") == "1000.00 USD")
        #expect(try shown("999999999999.99", "USD") == "999999999999.99 USD")
    }

    @Test(arguments: ["EUR", "USD", "JPY"])
    func acceptsThreeCapitalLetters(_ code: String) {
        #expect(CurrencyCode(code) != nil)
    }

    @Test(arguments: ["eur", "EU", "EURO", "E1R", "ÉUR", ""])
    func refusesOtherCurrencyCodes(_ code: String) {
        #expect(CurrencyCode(code) == nil)
    }

    @Test func numberTextKeepsTheExactValue() throws {
        let number = try #require(NumberText("-0012.3400e2"))
        #expect(number.plain == "-1234")
        #expect(try #require(NumberText("0.000")).plain == "0")
        #expect(try #require(NumberText("-0")).isNegative == false)
        #expect(NumberText("1e") == nil)
        #expect(NumberText("--1") == nil)
        #expect(NumberText("1 ") == nil)
    }

    @Test(arguments: [
        ("91", Coordinate.Axis.latitude), ("-90.0001", .latitude), ("181", .longitude), ("1e400", .latitude),
    ])
    func refusesCoordinatesOutOfRange(_ text: String, _ axis: Coordinate.Axis) {
        #expect(throws: Coordinate.ParseError.outOfRange) { try Coordinate.parse(text, axis: axis) }
    }

    @Test func acceptsTheEdgesOfTheRanges() throws {
        #expect(try Coordinate.parse("90", axis: .latitude) == 90)
        #expect(try Coordinate.parse("-180", axis: .longitude) == -180)
        #expect(try Coordinate.parse("-0", axis: .longitude).sign == .plus)
        #expect(throws: Coordinate.ParseError.notANumber) { try Coordinate.parse("abc", axis: .latitude) }
    }

    /// Digits written back from the last: the point, the zeros after, the sign, and the largest
    /// number a report prints.
    @Test(
        arguments: [
            (1234, 2, 0, false, "12.34"), (5, 0, 2, false, "5.00"), (5, 0, 0, true, "-5"), (0, 0, 0, false, "0"),
            (7, 3, 0, false, "0.007"), (120, 1, 1, true, "-12.00"), (UInt64.max, 0, 0, false, "18446744073709551615"),
        ] as [(UInt64, Int, Int, Bool, String)])
    func numbersAreWrittenDigitByDigit(_ units: UInt64, _ fraction: Int, _ zeros: Int, _ negative: Bool, _ text: String)
    {
        #expect(NumberText.written(units: units, fractionDigits: fraction, zeros: zeros, negative: negative) == text)
    }
}
