/// The names a mistyped name was probably meant to be, nearest first: `traveller` → `traveler`,
/// `serv` → `serve`.
///
/// The distance is Damerau–Levenshtein's (optimal string alignment): an insertion, a deletion,
/// a substitution or two neighbours swapped each count 1, so `lng` is 2 from `lon` and `duraton`
/// 1 from `duration`. Names are short (keys, commands), so the quadratic table is cheap; no
/// library offers it for Swift on Linux without pulling in more than it saves.
public enum Suggestions {
    /// The edit distance between `a` and `b`, compared by Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the table: the one before the last, the last, and the current.
        var before = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(last[j] + 1, current[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, before[j - 2] + 1)
                }
                current[j] = best
            }
            (before, last, current) = (last, current, before)
        }
        return last[b.count]
    }

    /// The names of `candidates` within `limit` of `name` (case ignored), nearest first.
    ///
    /// Of two as near, the one sharing more letters with `name` comes first (`lng` is 2 from both
    /// `lat` and `lon`, and shares two letters with `lon`), then the order given. `name` itself is
    /// never suggested.
    public static func nearest(to name: String, among candidates: [String], within limit: Int) -> [String] {
        let lowered = name.lowercased()
        return candidates.enumerated()
            .map { candidate in
                let other = candidate.element.lowercased()
                return (
                    offset: candidate.offset, name: candidate.element, distance: distance(lowered, other),
                    shared: -sharedLetters(lowered, other)
                )
            }
            .filter { $0.distance <= limit && $0.name != name }
            .sorted { ($0.distance, $0.shared, $0.offset) < ($1.distance, $1.shared, $1.offset) }
            .map(\.name)
    }

    /// How many letters `a` and `b` have in common, each counted as often as it occurs in both.
    static func sharedLetters(_ a: String, _ b: String) -> Int {
        var counts: [Unicode.Scalar: Int] = [:]
        for scalar in a.unicodeScalars { counts[scalar, default: 0] += 1 }
        var shared = 0
        for scalar in b.unicodeScalars where (counts[scalar] ?? 0) > 0 {
            counts[scalar, default: 0] -= 1
            shared += 1
        }
        return shared
    }
}
