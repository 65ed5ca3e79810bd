/// What CommonMark 0.29 reads after a `<` in inline content.
///
/// An autolink (§6.5: `<scheme:…>`, `<user@host>`) or raw HTML (§6.6: an open or closing tag, a
/// comment, a processing instruction, a declaration, a CDATA section). ``MarkdownInlineScan`` asks it whether a `<` in
/// user text would start markup, so the `<` is escaped only then.
enum MarkdownHTMLScan {
    /// The length of the autolink or raw HTML starting at `index` (a `<`), or `nil`.
    static func autolinkOrHTML(_ bytes: [UInt8], _ index: Int) -> Int? {
        var uri = Cursor(bytes: bytes, position: index + 1)
        var email = uri
        var html = uri
        guard let end = uri.uriAutolink() ?? email.emailAutolink() ?? html.html() else { return nil }
        return end - index
    }

    /// The length of the open or closing tag starting at `index` (a `<`), or `nil`.
    static func tagLength(_ bytes: [UInt8], _ index: Int) -> Int? {
        var tag = Cursor(bytes: bytes, position: index + 1)
        if tag.take(UInt8(ascii: "/")) {
            guard tag.tagName() else { return nil }
            tag.skip(while: Cursor.isWhitespace)
            return tag.take(UInt8(ascii: ">")) ? tag.position - index : nil
        }
        return tag.openTag().map { $0 - index }
    }

    private struct Cursor {
        let bytes: [UInt8]
        var position: Int

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        mutating func take(_ text: String) -> Bool {
            let utf8 = Array(text.utf8)
            guard bytes.count - position >= utf8.count, bytes[position..<(position + utf8.count)].elementsEqual(utf8)
            else { return false }
            position += utf8.count
            return true
        }

        @discardableResult
        mutating func skip(while test: (UInt8) -> Bool) -> Int {
            let start = position
            while let byte = current, test(byte) { position += 1 }
            return position - start
        }

        static func isLetter(_ byte: UInt8) -> Bool { MarkdownEscapeRules.isASCIILetter(byte) }
        static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || MarkdownEscapeRules.isDigit(byte) }
        static func isWhitespace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte) }

        /// `scheme:` then no space, control character, `<` or `>`, then `>`.
        mutating func uriAutolink() -> Int? {
            guard let first = current, Cursor.isLetter(first) else { return nil }
            let length = skip { Cursor.isAlphanumeric($0) || $0 == 0x2B || $0 == 0x2E || $0 == 0x2D }
            guard (2...32).contains(length), take(UInt8(ascii: ":")) else { return nil }
            skip { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
            return take(UInt8(ascii: ">")) ? position : nil
        }

        mutating func emailAutolink() -> Int? {
            let local = skip { Cursor.isAlphanumeric($0) || ".!#$%&'*+/=?^_`{|}~-".utf8.contains($0) }
            guard local > 0, take(UInt8(ascii: "@")) else { return nil }
            while true {
                let label = skip { Cursor.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
                let start = position - label
                guard (1...63).contains(label), Cursor.isAlphanumeric(bytes[start]),
                    Cursor.isAlphanumeric(bytes[position - 1])
                else { return nil }
                if take(UInt8(ascii: ">")) { return position }
                guard take(UInt8(ascii: ".")) else { return nil }
            }
        }

        mutating func html() -> Int? {
            if take("!--") { return comment() }
            if take("![CDATA[") { return until("]]>") }
            if take(UInt8(ascii: "?")) { return until("?>") }
            if take(UInt8(ascii: "!")) {
                guard skip(while: { $0 >= 0x41 && $0 <= 0x5A }) > 0, skip(while: Cursor.isWhitespace) > 0 else {
                    return nil
                }
                skip { $0 != UInt8(ascii: ">") }
                return take(UInt8(ascii: ">")) ? position : nil
            }
            if take(UInt8(ascii: "/")) {
                guard tagName() else { return nil }
                skip(while: Cursor.isWhitespace)
                return take(UInt8(ascii: ">")) ? position : nil
            }
            return openTag()
        }

        mutating func tagName() -> Bool {
            guard let first = current, Cursor.isLetter(first) else { return false }
            skip { Cursor.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            return true
        }

        mutating func openTag() -> Int? {
            guard tagName() else { return nil }
            while true {
                let mark = position
                guard skip(while: Cursor.isWhitespace) > 0, attribute() else {
                    position = mark
                    break
                }
            }
            skip(while: Cursor.isWhitespace)
            _ = take(UInt8(ascii: "/"))
            return take(UInt8(ascii: ">")) ? position : nil
        }

        mutating func attribute() -> Bool {
            guard let first = current, Cursor.isLetter(first) || first == UInt8(ascii: "_") || first == 0x3A else {
                return false
            }
            skip { Cursor.isAlphanumeric($0) || "_.:-".utf8.contains($0) }
            let mark = position
            skip(while: Cursor.isWhitespace)
            guard take(UInt8(ascii: "=")) else {
                position = mark
                return true
            }
            skip(while: Cursor.isWhitespace)
            guard let quote = current else { return false }
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                position += 1
                skip { $0 != quote }
                return take(quote)
            }
            return skip { !Cursor.isWhitespace($0) && !"\"'=<>`".utf8.contains($0) } > 0
        }

        /// After `<!--`: text not starting with `>` or `->`, without `--`, not ending in `-`, then `-->`.
        mutating func comment() -> Int? {
            if current == UInt8(ascii: ">") { return nil }
            if take("->") { return nil }
            let start = position
            while position + 1 < bytes.count {
                if bytes[position] == UInt8(ascii: "-") && bytes[position + 1] == UInt8(ascii: "-") {
                    guard position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: ">"),
                        position == start || bytes[position - 1] != UInt8(ascii: "-")
                    else { return nil }
                    return position + 3
                }
                position += 1
            }
            return nil
        }

        mutating func until(_ end: String) -> Int? {
            while position < bytes.count {
                if take(end) { return position }
                position += 1
            }
            return nil
        }
    }
}
