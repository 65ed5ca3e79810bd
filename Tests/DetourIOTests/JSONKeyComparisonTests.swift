import DetourIO
import Testing

@Suite struct JSONKeyComparisonTests {
    func keys(_ text: String) throws -> [String] {
        guard case .object(let members) = try JSONParser.parse(Array(text.utf8)).value else { return [] }
        return members.map(\.key)
    }

    @Test func keysInDifferentNormalizationFormsAreDifferentKeys() throws {
        let keys = try keys("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}")
        #expect(
            keys.map { Array($0.unicodeScalars) } == [["c", "a", "f", "\u{E9}"], ["c", "a", "f", "e", "\u{301}"]])
    }

    @Test func escapedAndRawFormsOfTheSameCodePointsAreOneKey() {
        #expect(throws: JSONParser.SyntaxError.self) { try keys("{\"caf\u{E9}\": 1, \"caf\\u00e9\": 2}") }
        #expect(throws: JSONParser.SyntaxError.self) { try keys("{\"cafe\u{301}\": 1, \"cafe\\u0301\": 2}") }
    }
}
