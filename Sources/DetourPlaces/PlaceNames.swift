import Foundation

/// How place names are compared: as a person types them, whatever their case and accents.
enum PlaceName {
    /// `text` as names are compared, whatever its case, accents and punctuation.
    ///
    /// Lower case, accents and other marks dropped (after canonical
    /// decomposition), the Latin letters that do not decompose written as their base letters
    /// (`ø` as `o`, `ł` as `l`, `ß` as `ss`, …), and every run of spaces, punctuation and symbols
    /// one space, none at either end. "Łódź" and "lodz" fold alike, so do "Saint-Étienne" and
    /// "saint etienne".
    ///
    /// It depends on nothing of the machine: Unicode's own mappings, not a locale's.
    static func folded(_ text: String) -> String {
        var scalars: [Unicode.Scalar: Folding] = [:]
        var folded: [UInt8] = []
        fold(text, into: &folded, scalars: &scalars)
        return String(decoding: folded, as: UTF8.self)
    }

    /// What one scalar folds to.
    enum Folding {
        /// Letters and digits, as UTF-8.
        case text([UInt8])
        /// A mark or an invisible format character: nothing.
        case nothing
        /// Space, punctuation or a symbol: a gap between words.
        case gap
    }

    /// ``folded(_:)``'s UTF-8 added to `folded`, with what each scalar outside ASCII folds to
    /// kept in `scalars`.
    ///
    /// Folding 170,391 names, 21 % of them with such scalars, decomposes each of the few thousand
    /// scalars once. Folding scalar by scalar is folding the decomposed text: the canonical
    /// reordering that decomposition also does moves only marks, which are dropped.
    static func fold(_ text: String, into folded: inout [UInt8], scalars: inout [Unicode.Scalar: Folding]) {
        let start = folded.count
        var gap = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39, 0x41...0x5A:
                if gap, folded.count > start { folded.append(0x20) }
                gap = false
                folded.append(UInt8(scalar.value) | (scalar.value < 0x5B && scalar.value > 0x40 ? 0x20 : 0))
            case 0...0x7F:
                gap = true
            default:
                let folding = scalars[scalar] ?? fold(scalar)
                scalars[scalar] = folding
                switch folding {
                case .text(let letters):
                    if gap, folded.count > start { folded.append(0x20) }
                    gap = false
                    folded.append(contentsOf: letters)
                case .nothing: break
                case .gap: gap = true
                }
            }
        }
    }

    /// What `scalar` folds to: its canonical decomposition without marks, in lower case, the
    /// letters of ``baseLetters`` as theirs.
    private static func fold(_ scalar: Unicode.Scalar) -> Folding {
        var letters: [UInt8] = []
        var category = Folding.gap
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = part.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .format:
                if case .gap = category { category = .nothing }
            case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                for lower in properties.lowercaseMapping.unicodeScalars {
                    letters.append(contentsOf: (baseLetters[lower] ?? String(lower)).utf8)
                }
                category = .text(letters)
            default:
                break
            }
        }
        return category
    }

    /// Latin letters with no canonical decomposition, as their base letters.
    private static let baseLetters: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ŧ": "t", "ß": "ss", "æ": "ae", "œ": "oe",
        "þ": "th",
    ]
}

/// Place names folded and sorted, to find those a text starts.
///
/// Every folded name is in one array of bytes, in the order of the places, and the places are
/// sorted by their folded names' bytes: the names a text starts are then one run of that order,
/// found by a binary search.
struct PlaceNames: Sendable {
    /// The folded names' UTF-8 bytes, one after another.
    private let bytes: [UInt8]
    /// Where each place's folded name starts in ``bytes``; one more at the end.
    private let starts: [Int]
    /// The places, by folded name (then as given).
    private let order: [Int]

    init(_ names: [String]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(names.count + 1)
        var scalars: [Unicode.Scalar: PlaceName.Folding] = [:]
        for name in names {
            starts.append(bytes.count)
            PlaceName.fold(name, into: &bytes, scalars: &scalars)
        }
        starts.append(bytes.count)
        // Sorted by each name's first eight bytes, as one number, then by the rest: most
        // comparisons are decided by the number alone.
        let keys = names.indices.map { place in
            (0..<8).reduce(UInt64(0)) { key, offset in
                let at = starts[place] + offset
                return key << 8 | UInt64(at < starts[place + 1] ? bytes[at] : 0)
            }
        }
        var order = Array(names.indices)
        bytes.withUnsafeBufferPointer { bytes in
            order.sort { a, b in
                if keys[a] != keys[b] { return keys[a] < keys[b] }
                let order = Self.compare(bytes[starts[a]..<starts[a + 1]], bytes[starts[b]..<starts[b + 1]])
                return order == 0 ? a < b : order < 0
            }
        }
        self.bytes = bytes
        self.starts = starts
        self.order = order
    }

    /// Up to `limit` places whose folded name starts with `prefix` (folded), those with the most
    /// `weight` first, then as given; none for an empty prefix.
    func starting(with prefix: String, limit: Int, weight: (Int) -> Int) -> [Int] {
        let prefix = Array(prefix.utf8)
        guard !prefix.isEmpty, limit > 0 else { return [] }
        return bytes.withUnsafeBufferPointer { bytes -> [Int] in
            func name(_ rank: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
                bytes[starts[order[rank]]..<starts[order[rank] + 1]]
            }
            // The first name not before the prefix.
            var (low, high) = (0, order.count)
            while low < high {
                let middle = (low + high) / 2
                prefix.withUnsafeBufferPointer { prefix in
                    if Self.compare(name(middle), prefix[...]) < 0 { low = middle + 1 } else { high = middle }
                }
            }
            var best: [(weight: Int, place: Int)] = []
            var rank = low
            while rank < order.count, name(rank).starts(with: prefix) {
                let candidate = (weight: weight(order[rank]), place: order[rank])
                let at =
                    best.firstIndex { ($0.weight, -$0.place) < (candidate.weight, -candidate.place) } ?? best.endIndex
                if at < limit {
                    best.insert(candidate, at: at)
                    if best.count > limit { best.removeLast() }
                }
                rank += 1
            }
            return best.map(\.place)
        }
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b`, byte by byte.
    private static func compare(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        let shared = min(a.count, b.count)
        if shared > 0, let left = a.base.baseAddress, let right = b.base.baseAddress {
            let order = memcmp(left + a.startIndex, right + b.startIndex, shared)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
