import DetourCore
import Testing

/// Prices as people type them, read to say what the trip format wants instead.
@Suite struct PriceTextTests {
    @Test(arguments: [
        ("12 EUR", "12", ["EUR"]), ("EUR 12", "12", ["EUR"]), ("€12", "12", ["EUR"]), ("12€", "12", ["EUR"]),
        ("12,50 €", "12.50", ["EUR"]), ("12,50", "12.50", []), ("1.234,50", "1234.50", []),
        ("1,234.50", "1234.50", []), ("1 234,50 eur", "1234.50", ["EUR"]), ("1'234.50 CHF", "1234.50", ["CHF"]),
        ("1,234", "1234", []), ("1.234.567", "1234567", []), ("12 euros", "12", ["EUR"]), ("£3", "3", ["GBP"]),
        ("$5", "5", ["USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"]), ("US$5", "5", ["USD"]),
        ("120 kr", "120", ["SEK", "NOK", "DKK", "ISK"]), ("99 Kč", "99", ["CZK"]),
        ("12 Dollars", "12", ["USD", "CAD", "AUD", "NZD", "HKD", "SGD"]),
    ])
    func readsAPriceAsTyped(_ text: String, _ amount: String, _ currencies: [String]) throws {
        let price = try #require(PriceText(text))
        #expect(price.amount == amount)
        #expect(price.currencies == currencies)
    }

    /// No number, a currency either side, a word that is no currency, two decimal commas, a
    /// sign: none is a price.
    @Test(arguments: ["twelve", "EUR 12 EUR", "12 apples", "1,2,3,4,5,6.7,8", "€", "12,50,30.1,2", "-5 EUR", ""])
    func refusesWhatIsNoPrice(_ text: String) {
        #expect(PriceText(text) == nil)
    }

    @Test func aCurrencyAsTypedIsTheCodeItMeans() {
        #expect(PriceText.currencyHint("eur") == "; did you mean \"EUR\"?")
        #expect(PriceText.currencyHint("€") == "; did you mean \"EUR\"?")
        #expect(PriceText.currencyHint("Euro") == "; did you mean \"EUR\"?")
        #expect(
            PriceText.currencyHint("$")
                == "; \"$\" is used by several currencies: write the code of yours, USD, CAD, AUD, NZD, HKD, SGD or MXN"
        )
        #expect(PriceText.currencyHint("zzz").isEmpty)
        #expect(PriceText.currencyHint("moneys").isEmpty)
    }
}

/// Days written other than `YYYY-MM-DD`, read for the hint.
@Suite struct DayReadingTests {
    @Test(arguments: [
        ("2027-4-1", "; did you mean \"2027-04-01\"?"),
        ("2027/04/01", "; did you mean \"2027-04-01\"?"),
        ("2027-14-04", "; did you mean \"2027-04-14\" (month and day swapped)?"),
        ("10-04-2027", "; write \"2027-04-10\" (day first) or \"2027-10-04\" (month first)"),
        ("10/04/2027", "; write \"2027-04-10\" (day first) or \"2027-10-04\" (month first)"),
        ("25/04/2027", "; did you mean \"2027-04-25\"?"),
        ("04/25/2027", "; did you mean \"2027-04-25\"?"),
        ("04.04.2027", "; did you mean \"2027-04-04\"?"),
        ("2027-14-40", ""), ("31/31/2027", ""), ("soon", ""), ("2027-02-30", ""),
    ])
    func aDayWrittenOtherwiseGetsItsReadings(_ text: String, _ hint: String) {
        #expect(CalendarDay.meantHint(text) == hint)
    }
}
