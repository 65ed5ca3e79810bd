import DetourCore
import Testing

/// The nearest names to a mistyped one.
@Suite struct SuggestionsTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("traveller", "traveler", 1), ("duraton", "duration", 1),
        ("lng", "lon", 2), ("serv", "serve", 1), ("ab", "ba", 1), ("abc", "ca", 3), ("kitten", "sitting", 3),
        ("café", "cafe", 1),
    ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestions.distance(a, b) == expected)
        #expect(Suggestions.distance(b, a) == expected)
    }

    @Test func nearestFirstWithinTheLimitTiesInOrder() {
        let keys = ["lat", "lon", "name", "location"]
        #expect(Suggestions.nearest(to: "lng", among: keys, within: 2) == ["lon", "lat"])
        #expect(Suggestions.nearest(to: "LON", among: keys, within: 2).first == "lon")
        #expect(Suggestions.nearest(to: "zzzzzz", among: keys, within: 2).isEmpty)
        #expect(Suggestions.nearest(to: "name", among: keys, within: 2) == [])
    }
}

extension SuggestionsTests {
    @Test func aHintGuessesOnlyWhatIsNearAndListsEveryName() {
        #expect(
            Suggestions.hint(for: "lng", known: ["lat", "lon"])
                == #"; did you mean "lon"? (allowed here: "lon", "lat")"#)
        #expect(Suggestions.hint(for: "xyz", known: ["lat", "lon"]) == #" (allowed here: "lat", "lon")"#)
        // Two edits are a whole two-letter name: no guess.
        #expect(Suggestions.hint(for: "ab", known: ["id"]) == #" (allowed here: "id")"#)
        #expect(Suggestions.hint(for: "x", known: []).isEmpty)
    }
}

extension SuggestionsTests {
    @Test(arguments: [
        ("lng", "lon"), ("traveller", "traveler"), ("serv", "serve"), ("idnex", "index"), ("arival", "arrival"),
    ])
    func likelyTypos(_ name: String, _ meant: String) {
        #expect(Suggestions.likely(name, among: ["lat", "lon", "traveler", "serve", "index", "arrival"]) == meant)
    }

    @Test(arguments: ["note", "ab", "zzz", "lo"])
    func notTypos(_ name: String) {
        #expect(Suggestions.likely(name, among: ["rate", "id", "lat", "lon"]) == (name == "lo" ? "lon" : nil))
    }
}
