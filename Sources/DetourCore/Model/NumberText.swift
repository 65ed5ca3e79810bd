import Foundation

/// The one grammar for numbers written as text in a trip file.
///
/// JSON numbers and GPX attributes (`lat="38.7"`, `cost="3.10"`) both pass through here, so a
/// value means the same thing in either format: an optional sign, digits, an optional fraction
/// (a point with digits on both sides), and an optional exponent. `NaN`, `Infinity`, hex floats,
/// `.5`, `1.` and empty strings are not numbers.
public struct NumberText: Sendable, Hashable {
    /// Whether a minus sign leads.
    public let isNegative: Bool
    /// The significant digits, without leading zeros (empty for zero).
    public let digits: [UInt8]
    /// The power of ten to multiply `digits` by.
    public let exponent: Int

    /// `units` with a point before its last `fractionDigits` digits, then `zeros` zeros, and a
    /// minus sign before when `negative`: `(1234, 2, 0)` is `12.34`, `(5, 0, 2)` is `5.00`; a
    /// point only with a digit after it.
    ///
    /// Written from the last digit back into a buffer on the stack, then made one string, which
    /// for a short one (most are) allocates nothing: a large trip's reports print hundreds of
    /// thousands of amounts, distances and coordinates, and building each from parts was a tenth
    /// of the time of its HTML report.
    public static func written(units: UInt64, fractionDigits: Int, zeros: Int = 0, negative: Bool) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24 + fractionDigits + zeros) { buffer in
            var start = buffer.count
            var units = units
            func put(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            for _ in 0..<zeros { put(UInt8(ascii: "0")) }
            for _ in 0..<fractionDigits {
                put(UInt8(ascii: "0") + UInt8(units % 10))
                units /= 10
            }
            if fractionDigits > 0 || zeros > 0 { put(UInt8(ascii: ".")) }
            repeat {
                put(UInt8(ascii: "0") + UInt8(units % 10))
                units /= 10
            } while units > 0
            if negative { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// `value` with a comma between each group of three digits: `4,327`, `-1,250`, `999`.
    public static func grouped(_ value: Int) -> String {
        grouped(digits: String(value.magnitude), negative: value < 0)
    }

    /// A plain decimal's text (`1250.00`, `-4327`) with its whole part grouped: `1,250.00`.
    public static func grouped(decimal text: String) -> String {
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let point = body.firstIndex(of: ".") ?? body.endIndex
        // Under a thousand there is nothing to group: the text is its own grouping.
        if body.utf8[..<point].count <= 3 { return text }
        return grouped(digits: String(body[..<point]), negative: negative) + body[point...]
    }

    private static func grouped(digits: String, negative: Bool) -> String {
        var bytes: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        let count = digits.utf8.count
        bytes.reserveCapacity(bytes.count + count + count / 3)
        for (index, digit) in digits.utf8.enumerated() {
            if index > 0, (count - index) % 3 == 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(digit)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` written with a decimal comma, as much of Europe writes numbers (`12,50`), with a
    /// point instead (`12.50`); `nil` when it is no such number.
    public static func withDecimalPoint(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.filter({ $0 == "," }).count == 1, !trimmed.contains(".") else { return nil }
        let dotted = trimmed.replacingOccurrences(of: ",", with: ".")
        return NumberText(dotted) == nil ? nil : dotted
    }

    /// Reads `text`, or returns `nil` if it is not a number in this grammar.
    public init?(_ text: String) {
        var bytes = ArraySlice(text.utf8)
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var integerDigits = 0
        var fractionDigits = 0
        var inFraction = false
        while let byte = bytes.first {
            if NumberText.isDigit(byte) {
                if inFraction { fractionDigits += 1 } else { integerDigits += 1 }
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) {
                    guard digits.count < 1000 else { return nil }
                    digits.append(byte - UInt8(ascii: "0"))
                }
                if inFraction { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !inFraction, integerDigits > 0 {
                inFraction = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard integerDigits > 0, !inFraction || fractionDigits > 0 else { return nil }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var value = 0
            var count = 0
            while let byte = bytes.first, NumberText.isDigit(byte) {
                // Cap rather than overflow: anything this large is out of every range we accept.
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                count += 1
                bytes = bytes.dropFirst()
            }
            guard count > 0 else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard bytes.isEmpty else { return nil }
        // Trailing zeros carry no value; fold them into the exponent.
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        isNegative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// The power of ten of the leading digit (`3.1` → 0, `120` → 2), or `nil` for zero.
    public var magnitude: Int? { digits.isEmpty ? nil : digits.count - 1 + exponent }

    /// Digits after the decimal point that the written value needs (`3.10` → 1, `300` → 0).
    public var fractionDigits: Int { max(0, -exponent) }

    /// The value in plain decimal notation: `-0.05`, `1200`.
    public var plain: String {
        if digits.isEmpty { return "0" }
        var text = isNegative ? "-" : ""
        let numerals = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        if exponent >= 0 {
            text += numerals + String(repeating: "0", count: exponent)
        } else {
            let point = numerals.count + exponent
            if point > 0 {
                text += numerals.prefix(point) + "." + numerals.dropFirst(point)
            } else {
                text += "0." + String(repeating: "0", count: -point) + numerals
            }
        }
        return text
    }

    /// The value as a `Decimal`, exactly, when it has at most 19 significant digits.
    public var decimal: Decimal? {
        guard digits.count <= 19, (-128...127).contains(exponent) else { return nil }
        var significand: UInt64 = 0
        for digit in digits { significand = significand * 10 + UInt64(digit) }
        return Decimal(sign: isNegative ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
