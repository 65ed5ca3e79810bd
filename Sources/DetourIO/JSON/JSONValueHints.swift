import DetourCore

/// The messages of the JSON reader that say, from the value found, what to write instead.
///
/// One place for both readers that must agree (the shipped pull reader, and the tree reader its
/// tests compare it with).
enum JSONValueHints {
    /// An unknown key, with the key probably meant and those allowed there.
    static func unknownKey(_ key: String, known: [String]) -> String {
        "unknown key \(Quoting.quoted(key)), ignored" + Suggestions.hint(for: key, known: known)
    }

    /// A number written as a string (`"12.50"`, `"12,50"`), `noun` being what it is (`the amount`).
    static func numberAsString(_ text: String, noun: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var message = "must be a number, not a string"
        if NumberText(trimmed) != nil {
            message += "; write \(noun) without quotes: \(trimmed)"
        } else if let dotted = NumberText.withDecimalPoint(trimmed) {
            message += "; write \(noun) with a dot, without quotes: \(dotted)"
        } else if let price = PriceText(trimmed) {
            if price.currencies.isEmpty {
                message += "; write \(noun) with a point, no thousands separator and no quotes: \(price.amount)"
            } else {
                message +=
                    "; write the number and the currency apart: \"amount\": \(price.amount), "
                    + "\"currency\": \"\(price.currencies[0])\"" + severalCurrencies(price)
            }
        }
        return message
    }

    /// A cost or budget (`key`) written as a string (`"12 EUR"`): the object it should be.
    static func moneyAsString(_ key: String, text: String) -> String {
        let message = "a \(key) must be an object, not a string"
        guard let price = PriceText(text) else {
            return message + "; write {\"amount\": 12.50, \"currency\": \"EUR\"} with its currency's code"
        }
        guard !price.currencies.isEmpty else {
            return message + "; write {\"amount\": \(price.amount), \"currency\": \"EUR\"} with its currency's code"
        }
        return message + "; write {\"amount\": \(price.amount), \"currency\": \"\(price.currencies[0])\"}"
            + severalCurrencies(price)
    }

    /// For a currency sign several currencies use, `; "$" is used by several currencies: …`;
    /// else empty.
    static func severalCurrencies(_ price: PriceText) -> String {
        price.currencies.count > 1 ? PriceText.currencyHint(price.currencyText) : ""
    }

    /// A duration written as a bare number (`90`): the minutes it probably means.
    static func durationAsNumber(_ number: String) -> String {
        "must be a string, not a number\(TaskDuration.meantHint(number)) (write PT1H30M, 1h30m, 90m or 2h)"
    }

    /// A cost or budget (`key`) written as a bare number: the object it should be.
    static func bareMoney(_ key: String, number: String) -> String {
        "a \(key) must be an object, not a number; write {\"amount\": \(number), \"currency\": \"EUR\"} with its currency's code"
    }
}
