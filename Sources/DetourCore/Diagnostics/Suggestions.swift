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
        ranked(name, among: candidates).filter { $0.distance <= limit }.map(\.name)
    }

    /// Every one of `candidates` but `name` itself, nearest to `name` first (as ``nearest(to:among:within:)``
    /// orders them), with its distance.
    public static func ranked(_ name: String, among candidates: [String]) -> [(name: String, distance: Int)] {
        let lowered = name.lowercased()
        return candidates.enumerated()
            .filter { $0.element != name }
            .map { candidate in
                let other = candidate.element.lowercased()
                return (
                    offset: candidate.offset, name: candidate.element, distance: distance(lowered, other),
                    shared: -sharedLetters(lowered, other)
                )
            }
            .sorted { ($0.distance, $0.shared, $0.offset) < ($1.distance, $1.shared, $1.offset) }
            .map { ($0.name, $0.distance) }
    }

    /// The one of `candidates` that `name` is probably a typo of: the nearest, when it is one
    /// edit away, or two with the same first letter (`lng` for `lon`, but not `note` for
    /// `rate`), and fewer edits than `name` has letters.
    public static func likely(_ name: String, among candidates: [String]) -> String? {
        guard let best = ranked(name, among: candidates).first, best.distance < name.count else { return nil }
        let sameStart = name.lowercased().first == best.name.lowercased().first
        return best.distance <= 1 || (best.distance == 2 && sameStart) ? best.name : nil
    }

    /// What to add to "unknown key" and its kin: `; did you mean "lon"?` when `name` is a
    /// likely typo of one of `known` (``likely(_:among:)``), then the names allowed there,
    /// nearest first: ` (allowed here: "lon", "lat")`.
    public static func hint(for name: String, known: [String]) -> String {
        let ranked = ranked(name, among: known)
        guard !ranked.isEmpty else { return "" }
        var text = ""
        if let best = likely(name, among: known) {
            text += "; did you mean \(Quoting.quoted(best))?"
        }
        return text + " (allowed here: " + ranked.map { Quoting.quoted($0.name) }.joined(separator: ", ") + ")"
    }

    /// How many letters `a` and `b` have in common, each counted as often as it occurs in both.
    static func sharedLetters(_ a: String, _ b: String) -> Int {
        var counts: [Unicode.Scalar: Int] = [:]
        for scalar in a.unicodeScalars { counts[scalar, default: 0] += 1 }
        var shared = 0
        for scalar in b.unicodeScalars {
            guard let count = counts[scalar], count > 0 else { continue }
            counts[scalar] = count - 1
            shared += 1
        }
        return shared
    }
}
