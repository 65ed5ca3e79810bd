import DetourCore
import Testing

@Suite struct ISO4217Tests {
    @Test(arguments: [
        ("EUR", 2), ("USD", 2), ("JPY", 0), ("KWD", 3), ("BHD", 3), ("TND", 3), ("CLP", 0), ("ISK", 0),
        ("UGX", 0), ("VND", 0), ("KRW", 0), ("CLF", 4), ("UYW", 4), ("UYI", 0), ("XOF", 0), ("IQD", 3),
    ])
    func knownCurrenciesHaveTheirMinorUnits(_ code: String, _ digits: Int) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == digits)
        #expect(currency.minorUnits == digits)
    }

    @Test(arguments: ["XAU", "XAG", "XDR", "XTS", "XXX"])
    func codesWithoutMinorUnitsAreKnownWithNone(_ code: String) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == nil)
        #expect(currency.minorUnits == 2)
    }

    @Test(arguments: ["QQQ", "EUD", "HRK", "VEF", "ABC"])
    func codesOutsideTheListAreUnknown(_ code: String) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(!ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == nil)
        #expect(currency.minorUnits == 2)
    }
}
