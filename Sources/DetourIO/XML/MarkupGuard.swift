/// Counts the attributes of each start tag, and how deeply elements nest, in the raw input
/// before libxml2 parses it.
///
/// libxml2 2.9 checks a start tag's attributes for duplicates pair by pair, so one element with
/// 50,000 attributes takes it five seconds, and it offers no option to cap them; its own depth
/// limit is its own (257 levels), not the trip's. This scanner refuses a start tag past either
/// of ``ReadLimits``' limits before libxml2 sees it, so nesting is bounded alike for JSON and GPX.
/// It is hand-written because it must run on the bytes as they stream in, chunk by chunk, in one
/// pass: it knows just enough XML to count `=` signs inside start tags, to tell start, end and
/// empty-element tags apart, and to step over quoted values, comments, CDATA sections,
/// declarations and processing instructions, where `<`, `>` and `=` mean nothing. It never
/// decides well-formedness; libxml2 does that.
///
/// It also keeps the line where each start tag ends until libxml2 reads its element: libxml2
/// numbers elements by that line, but keeps no line past 65,535.
struct MarkupGuard {
    /// How code units are read: one byte each (UTF-8, ISO-8859-1, ASCII) or UTF-16 with a
    /// byte-order mark; the markup characters are ASCII in every one of them.
    enum Width {
        case byte
        case utf16(bigEndian: Bool)
    }

    /// Where the scan is: in text, in a tag (a start tag's quoted value), or in markup where `<`,
    /// `>` and `=` mean nothing; `skipToClose` is a declaration, and `bang` counts the `-` or `[`
    /// seen after `<!`.
    private enum State {
        case text, tagOpen, startTag, endTag, skipToClose, comment, cdata, instruction
        case quoted(UInt16)
        case bang(Int)
    }

    /// Which limit a start tag went past.
    enum Overflow: Equatable { case attributes, depth }

    let limit: Int
    let maxDepth: Int
    let width: Width
    private var state = State.text
    private var attributes = 0
    private var depth = 0
    private var line = 1
    private var tagLine = 1
    private var recent: (UInt16, UInt16) = (0, 0)
    private var carry: UInt8?
    /// The line of the first start tag over a limit, and which.
    private(set) var overflow: (line: Int, kind: Overflow)?
    /// The line where each start tag scanned ends, and how deep it is, in document order from
    /// the first whose element libxml2 has not read yet.
    private var tags: [(line: Int, depth: Int)] = []
    private var tagsTaken = 0
    /// The depth of an element whose subtree is read past, `Int.max` when none is.
    ///
    /// The start tags deeper than it, to its end, are not kept.
    private var skipDeeperThan = Int.max

    /// A guard for a document whose first bytes are `prefix` (its byte-order mark sets the width).
    init(limit: Int, maxDepth: Int, prefix: [UInt8]) {
        self.limit = limit
        self.maxDepth = maxDepth
        if prefix.starts(with: [0xFE, 0xFF]) {
            width = .utf16(bigEndian: true)
        } else if prefix.starts(with: [0xFF, 0xFE]) {
            width = .utf16(bigEndian: false)
        } else {
            width = .byte
        }
    }

    /// Scans the next bytes of the input; `false` once a start tag has too many attributes.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard overflow == nil else { return false }
        switch width {
        case .byte:
            for byte in bytes where !step(UInt16(byte)) { return false }
        case .utf16(let bigEndian):
            for byte in bytes {
                guard let first = carry else {
                    carry = byte
                    continue
                }
                carry = nil
                let unit = bigEndian ? UInt16(first) << 8 | UInt16(byte) : UInt16(byte) << 8 | UInt16(first)
                if !step(unit) { return false }
            }
        }
        return true
    }

    /// The line where the next start tag kept ends, for the element libxml2 has just read.
    ///
    /// libxml2 reads no byte the guard has not scanned, so the tag is always there; were it
    /// not, the line the scan is on would be the nearest answer.
    mutating func takeTagLine() -> Int {
        guard tagsTaken < tags.count else { return line }
        let taken = tags[tagsTaken].line
        tagsTaken += 1
        dropTaken()
        return taken
    }

    /// Forgets the start tags inside the element at `depth` whose line was taken last.
    ///
    /// Its subtree is read past: the tags in it scanned already go now, and those still to come
    /// are not kept.
    mutating func skipSubtree(depth: Int) {
        while tagsTaken < tags.count, tags[tagsTaken].depth > depth { tagsTaken += 1 }
        // Had the scan gone past the subtree, a tag after it would be next.
        if tagsTaken == tags.count { skipDeeperThan = depth }
        dropTaken()
    }

    /// Drops the tags taken, now and then: those not taken yet are few (what libxml2 reads
    /// ahead), so a long document is read in little memory.
    private mutating func dropTaken() {
        guard tagsTaken >= 4096 else { return }
        tags.removeFirst(tagsTaken)
        tagsTaken = 0
    }

    private mutating func step(_ unit: UInt16) -> Bool {
        if unit == 0x0A { line += 1 }
        defer { recent = (recent.1, unit) }
        switch state {
        case .text:
            if unit == 0x3C {  // <
                state = .tagOpen
                tagLine = line
            }
        case .tagOpen:
            switch unit {
            case 0x21: state = .bang(0)  // !
            case 0x3F: state = .instruction  // ?
            case 0x2F: state = .endTag  // /
            default:
                state = .startTag
                attributes = 0
            }
        case .startTag:
            switch unit {
            case 0x22, 0x27: state = .quoted(unit)
            case 0x3E:  // >, after a / for an empty element
                state = .text
                // The first tag after a subtree read past is never deeper than its element.
                if depth <= skipDeeperThan {
                    skipDeeperThan = .max
                    tags.append((line, depth))
                }
                guard recent.1 != 0x2F else { break }
                depth += 1
                if depth > maxDepth {
                    overflow = (tagLine, .depth)
                    return false
                }
            case 0x3D:  // =
                attributes += 1
                if attributes > limit {
                    overflow = (tagLine, .attributes)
                    return false
                }
            default: break
            }
        case .quoted(let quote):
            if unit == quote { state = .startTag }
        case .endTag:
            if unit == 0x3E {
                state = .text
                depth -= 1
            }
        case .skipToClose:
            if unit == 0x3E { state = .text }
        case .bang(let seen):
            if seen == 0, unit == 0x2D {  // <!-
                state = .bang(1)
            } else if seen == 1, unit == 0x2D {  // <!--
                state = .comment
                recent = (0, 0)
                return true
            } else if seen == 0, unit == 0x5B {  // <![ (CDATA)
                state = .cdata
            } else {
                state = unit == 0x3E ? .text : .skipToClose
            }
        case .comment:
            if unit == 0x3E, recent == (0x2D, 0x2D) { state = .text }  // -->
        case .cdata:
            if unit == 0x3E, recent == (0x5D, 0x5D) { state = .text }  // ]]>
        case .instruction:
            if unit == 0x3E, recent.1 == 0x3F { state = .text }  // ?>
        }
        return true
    }
}
