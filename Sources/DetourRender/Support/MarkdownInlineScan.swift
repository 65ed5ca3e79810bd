/// cmark-gfm's reading of one inline content (a paragraph, a heading, a table cell), reduced to
/// which markup it makes and from which characters: what ``MarkdownEscapeRules`` compares to tell
/// whether an escape is needed.
///
/// It follows cmark-gfm 0.29's `inlines.c` step by step for what can make markup from text: a
/// backslash before ASCII punctuation, code spans (a backtick run closed by the next run of the
/// same length), entity references, `<` (autolinks and the raw HTML of CommonMark §6.6), the
/// delimiter runs of `*`, `_` and `~` (flanking as in `scan_delims`, where `~` is skipped when
/// looking at a run's neighbours, then `process_emphasis` with its openers-bottom table and the
/// rule of 3; strikethrough only between runs of equal length, one or two), brackets (`[`, `![`,
/// `]` then an inline destination and title; no reference definitions exist in a report), and the
/// autolink extension's `www.` and `scheme://` (not inside brackets, as `autolink.c` does). Email
/// autolinks are left out: they are found in the text after parsing, so escapes cannot change them.
struct MarkdownInlineScan {
    /// A piece of markup: its kind and the origins of the characters that make it.
    struct Mark: Equatable {
        var kind: UInt8
        var first: Int32
        var second: Int32
    }

    private struct Delimiter {
        var byte: UInt8
        var start: Int
        var count: Int
        let length: Int
        let canOpen: Bool
        let canClose: Bool
        var removed = false
    }

    private struct Bracket {
        var position: Int
        var image: Bool
        var active = true
        var delimiters: Int
    }

    private var bytes: [UInt8] = []
    /// Where each byte came from: the template text before (0…), the value (1 << 20 …), an escape
    /// the escaper added (-1), the template text after (1 << 21 …).
    private var origin: [Int32] = []

    init(_ before: [UInt8], _ value: [UInt8], _ escaped: [Bool], _ after: [UInt8]) {
        bytes.reserveCapacity(before.count + value.count * 2 + after.count)
        for (index, byte) in before.enumerated() {
            bytes.append(byte)
            origin.append(Int32(index))
        }
        for (index, byte) in value.enumerated() {
            if escaped[index] {
                bytes.append(0x5C)
                origin.append(-1)
            }
            bytes.append(byte)
            origin.append(Int32(1 << 20 + index))
        }
        for (index, byte) in after.enumerated() {
            bytes.append(byte)
            origin.append(Int32(1 << 21 + index))
        }
    }

    /// The markup cmark-gfm makes of the content, in order.
    func marks() -> [Mark] {
        var marks: [Mark] = []
        var delimiters: [Delimiter] = []
        var brackets: [Bracket] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x5C:
                index += index + 1 < bytes.count && MarkdownEscapeRules.isASCIIPunctuation(bytes[index + 1]) ? 2 : 1
            case UInt8(ascii: "`"):
                let run = runLength(index)
                if let end = codeSpanEnd(index, run) {
                    marks.append(Mark(kind: 1, first: origin[index], second: origin[end - 1]))
                    index = end
                } else {
                    index += run
                }
            case UInt8(ascii: "&"):
                index += max(1, MarkdownEscapeRules.referenceLength(bytes, index))
            case UInt8(ascii: "<"):
                if let length = MarkdownHTMLScan.autolinkOrHTML(bytes, index) {
                    marks.append(Mark(kind: 2, first: origin[index], second: origin[index + length - 1]))
                    index += length
                } else {
                    index += 1
                }
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                let run = runLength(index)
                let (left, right, punctuationBefore, punctuationAfter) = flanking(index, run)
                var canOpen = left
                var canClose = right
                if byte == UInt8(ascii: "_") {
                    canOpen = left && (!right || punctuationBefore)
                    canClose = right && (!left || punctuationAfter)
                }
                if byte != UInt8(ascii: "~") || ((left || right) && run <= 2) {
                    delimiters.append(
                        Delimiter(
                            byte: byte, start: index, count: run, length: run, canOpen: canOpen, canClose: canClose)
                    )
                }
                index += run
            case UInt8(ascii: "!"):
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "[") {
                    brackets.append(Bracket(position: index + 1, image: true, delimiters: delimiters.count))
                    index += 2
                } else {
                    index += 1
                }
            case UInt8(ascii: "["):
                brackets.append(Bracket(position: index, image: false, delimiters: delimiters.count))
                index += 1
            case UInt8(ascii: "]"):
                index = closeBracket(index, &brackets, &delimiters, &marks)
            case UInt8(ascii: "w"), UInt8(ascii: ":"):
                let inBracket = brackets.contains { $0.active }
                let length = inBracket ? 0 : (byte == UInt8(ascii: "w") ? wwwLength(index) : urlLength(index))
                if length > 0 {
                    marks.append(Mark(kind: 3, first: origin[index], second: origin[index + length - 1]))
                    index += length
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
        emphasis(&delimiters, from: 0, &marks)
        return marks
    }

    private func runLength(_ index: Int) -> Int {
        var end = index
        while end < bytes.count && bytes[end] == bytes[index] { end += 1 }
        return end - index
    }

    /// The end of the code span opened by the backtick run at `index`, or `nil` when no run of the
    /// same length follows.
    private func codeSpanEnd(_ index: Int, _ run: Int) -> Int? {
        var cursor = index + run
        while cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "`") {
                let length = runLength(cursor)
                if length == run { return cursor + length }
                cursor += length
            } else {
                cursor += 1
            }
        }
        return nil
    }

    /// `scan_delims`: left- and right-flanking, and whether the neighbours are punctuation.
    ///
    /// A neighbour is found by skipping `~` (strikethrough's characters) and UTF-8 continuation
    /// bytes; the content's edges count as a line break.
    private func flanking(_ index: Int, _ run: Int) -> (Bool, Bool, Bool, Bool) {
        var before: Unicode.Scalar = "\n"
        if index > 0 {
            var position = index - 1
            while position > 0 && (bytes[position] >> 6 == 2 || bytes[position] == UInt8(ascii: "~")) {
                position -= 1
            }
            if let scalar = scalar(at: position, limit: index), scalar != "~" { before = scalar }
        }
        var after: Unicode.Scalar = "\n"
        var position = index + run
        while position < bytes.count && bytes[position] == UInt8(ascii: "~") { position += 1 }
        if position < bytes.count, let scalar = scalar(at: position, limit: bytes.count), scalar != "~" {
            after = scalar
        }
        let spaceBefore = MarkdownInlineScan.isSpace(before)
        let spaceAfter = MarkdownInlineScan.isSpace(after)
        let punctuationBefore = MarkdownInlineScan.isPunctuation(before)
        let punctuationAfter = MarkdownInlineScan.isPunctuation(after)
        let left = !spaceAfter && (!punctuationAfter || spaceBefore || punctuationBefore)
        let right = !spaceBefore && (!punctuationBefore || spaceAfter || punctuationAfter)
        return (left, right, punctuationBefore, punctuationAfter)
    }

    private func scalar(at position: Int, limit: Int) -> Unicode.Scalar? {
        var iterator = bytes[position..<limit].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return MarkdownEscapeRules.isASCIIPunctuation(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    // MARK: Emphasis and strikethrough

    /// `process_emphasis` over the delimiters from `bottom`, removing them as cmark does.
    private func emphasis(_ delimiters: inout [Delimiter], from bottom: Int, _ marks: inout [Mark]) {
        var openersBottom: [Int: Int] = [:]
        var closer = bottom
        while closer < delimiters.count {
            let current = delimiters[closer]
            guard !current.removed, current.canClose else {
                closer += 1
                continue
            }
            let key = current.length % 3 * 256 + Int(current.byte)
            let floor = openersBottom[key] ?? bottom - 1
            var opener = closer - 1
            var found = false
            while opener > floor {
                let candidate = delimiters[opener]
                if !candidate.removed && candidate.canOpen && candidate.byte == current.byte
                    && (!(current.canOpen || candidate.canClose) || current.length % 3 == 0
                        || (candidate.length + current.length) % 3 != 0)
                {
                    found = true
                    break
                }
                opener -= 1
            }
            if !found {
                openersBottom[key] = closer - 1
                if !current.canOpen { delimiters[closer].removed = true }
                closer += 1
                continue
            }
            if current.byte == UInt8(ascii: "~") {
                guard delimiters[opener].count == current.count else {
                    closer += 1
                    continue
                }
                marks.append(Mark(kind: 4, first: origin[delimiters[opener].start], second: origin[current.start]))
                for between in opener...closer { delimiters[between].removed = true }
                closer += 1
                continue
            }
            let use = current.count >= 2 && delimiters[opener].count >= 2 ? 2 : 1
            delimiters[opener].count -= use
            let openerFirst = delimiters[opener].start + delimiters[opener].count
            marks.append(
                Mark(kind: UInt8(4 + use), first: origin[openerFirst], second: origin[delimiters[closer].start]))
            delimiters[closer].start += use
            delimiters[closer].count -= use
            for between in (opener + 1)..<closer { delimiters[between].removed = true }
            if delimiters[opener].count == 0 { delimiters[opener].removed = true }
            if delimiters[closer].count == 0 {
                delimiters[closer].removed = true
                closer += 1
            }
        }
        for index in bottom..<delimiters.count { delimiters[index].removed = true }
    }

    // MARK: Links and images

    /// `handle_close_bracket` for the `]` at `index`; the index to go on from.
    private func closeBracket(
        _ index: Int, _ brackets: inout [Bracket], _ delimiters: inout [Delimiter], _ marks: inout [Mark]
    ) -> Int {
        guard let opener = brackets.last else { return index + 1 }
        guard opener.active else {
            brackets.removeLast()
            return index + 1
        }
        guard let end = inlineLinkEnd(index + 1) else {
            brackets.removeLast()
            return index + 1
        }
        marks.append(Mark(kind: opener.image ? 8 : 7, first: origin[opener.position], second: origin[index]))
        emphasis(&delimiters, from: opener.delimiters, &marks)
        brackets.removeLast()
        if !opener.image {
            for position in brackets.indices where !brackets[position].image { brackets[position].active = false }
        }
        return end
    }

    /// The end of `(destination "title")` at `index`, or `nil`.
    private func inlineLinkEnd(_ index: Int) -> Int? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "(") else { return nil }
        let start = spaces(index + 1)
        guard let destinationEnd = destination(start) else { return nil }
        let titleStart = spaces(destinationEnd)
        let titleEnd = titleStart == destinationEnd ? titleStart : titleStart + title(titleStart)
        let end = spaces(titleEnd)
        guard end < bytes.count, bytes[end] == UInt8(ascii: ")") else { return nil }
        return end + 1
    }

    private func spaces(_ index: Int) -> Int {
        var cursor = index
        while cursor < bytes.count && [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[cursor]) { cursor += 1 }
        return cursor
    }

    /// `manual_scan_link_url`: the end of the destination at `index`, or `nil`.
    private func destination(_ index: Int) -> Int? {
        var cursor = index
        if cursor < bytes.count && bytes[cursor] == UInt8(ascii: "<") {
            cursor += 1
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: ">") {
                    cursor += 1
                    break
                } else if byte == 0x5C {
                    cursor += 2
                } else if byte == 0x0A || byte == UInt8(ascii: "<") {
                    return nil
                } else {
                    cursor += 1
                }
            }
            return cursor >= bytes.count ? nil : cursor
        }
        var depth = 0
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == 0x5C && cursor + 1 < bytes.count && MarkdownEscapeRules.isASCIIPunctuation(bytes[cursor + 1]) {
                cursor += 2
            } else if byte == UInt8(ascii: "(") {
                depth += 1
                cursor += 1
                if depth > 32 { return nil }
            } else if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
                cursor += 1
            } else if [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte) {
                if cursor == index { return nil }
                break
            } else {
                cursor += 1
            }
        }
        return cursor >= bytes.count ? nil : cursor
    }

    /// `scan_link_title`: the length of the title at `index`, or 0.
    private func title(_ index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        let open = bytes[index]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return 0
        }
        var cursor = index + 1
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == 0x5C && cursor + 1 < bytes.count && MarkdownEscapeRules.isASCIIPunctuation(bytes[cursor + 1]) {
                cursor += 2
            } else if byte == close {
                return cursor + 1 - index
            } else if byte == 0 || (open == UInt8(ascii: "(") && byte == open) {
                return 0
            } else {
                cursor += 1
            }
        }
        return 0
    }

    // MARK: Extended autolinks

    /// `www_match`: the length of the `www.` link at `index`, or 0.
    private func wwwLength(_ index: Int) -> Int {
        if index > 0 {
            let previous = bytes[index - 1]
            if !"*_~(".utf8.contains(previous) && ![0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(previous) {
                return 0
            }
        }
        guard bytes.count - index >= 4, bytes[index..<(index + 4)].elementsEqual("www.".utf8) else { return 0 }
        let domain = domainLength(index, allowShort: false)
        guard domain > 0 else { return 0 }
        return linkEnd(index, domain)
    }

    /// `url_match`: the length of the `scheme://` link whose `:` is at `index`, counted from `:`, or 0.
    private func urlLength(_ index: Int) -> Int {
        guard bytes.count - index >= 4, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
        else { return 0 }
        var start = index
        while start > 0 && MarkdownEscapeRules.isASCIILetter(bytes[start - 1]) { start -= 1 }
        let scheme = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
        guard ["http", "https", "ftp"].contains(scheme), index + 3 < bytes.count, isHostCharacter(index + 3)
        else { return 0 }
        let domain = domainLength(index + 3, allowShort: true)
        guard domain > 0 else { return 0 }
        return linkEnd(index, 3 + domain)
    }

    private func isHostCharacter(_ index: Int) -> Bool {
        guard let scalar = scalar(at: index, limit: bytes.count) else { return false }
        return !MarkdownInlineScan.isSpace(scalar) && !MarkdownInlineScan.isPunctuation(scalar)
    }

    /// `check_domain` from `index`.
    private func domainLength(_ index: Int, allowShort: Bool) -> Int {
        let size = bytes.count - index
        var dots = 0
        var underscoresBefore = 0
        var underscores = 0
        var offset = 1
        while offset < size - 1 {
            let byte = bytes[index + offset]
            if byte == UInt8(ascii: "_") {
                underscores += 1
            } else if byte == UInt8(ascii: ".") {
                underscoresBefore = underscores
                underscores = 0
                dots += 1
            } else if !isHostCharacter(index + offset) && byte != UInt8(ascii: "-") {
                break
            }
            offset += 1
        }
        if underscoresBefore > 0 || underscores > 0 { return 0 }
        return allowShort || dots > 0 ? offset : 0
    }

    /// The link's length after `autolink_delim`, extended from `length` to the next space.
    private func linkEnd(_ index: Int, _ length: Int) -> Int {
        var end = index + length
        while end < bytes.count && ![0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[end]) { end += 1 }
        if let bracket = bytes[index..<end].firstIndex(of: UInt8(ascii: "<")) { end = bracket }
        while end > index {
            let last = bytes[end - 1]
            if "?!.,:*_~'\"".utf8.contains(last) {
                end -= 1
            } else if last == UInt8(ascii: ";") {
                var start = end - 2
                while start > index && MarkdownEscapeRules.isASCIILetter(bytes[start]) { start -= 1 }
                end = start < end - 2 && bytes[start] == UInt8(ascii: "&") ? start : end - 1
            } else if last == UInt8(ascii: ")") {
                let opening = bytes[index..<end].filter { $0 == UInt8(ascii: "(") }.count
                let closing = bytes[index..<end].filter { $0 == UInt8(ascii: ")") }.count
                if closing <= opening { break }
                end -= 1
            } else {
                break
            }
        }
        return end - index
    }
}
