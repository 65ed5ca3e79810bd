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
        }
        return message
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
