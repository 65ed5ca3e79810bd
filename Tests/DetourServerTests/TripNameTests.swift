import Testing

@testable import DetourServer

@Suite struct TripNameTests {
    @Test(arguments: ["lisbon", "a.b_c-1", "X", String(repeating: "a", count: TripName.maxLength)])
    func aNameOfAllowedCharactersIsAccepted(_ text: String) {
        #expect(TripName(segment: Substring(text))?.text == text)
    }

    @Test(arguments: [
        "", "..", ".", ".hidden", "%2e%2e", "%2E%2e", "%252e%252e", "a%2fb", "a%5cb", "a/b", "a\\b", "a b", "a%20b",
        "%", "%2", "%zz", "caf%C3%A9", "%00", String(repeating: "a", count: TripName.maxLength + 1),
    ])
    func everyOtherSegmentIsRefused(_ text: String) {
        #expect(TripName(segment: Substring(text)) == nil)
    }

    /// A name that ends like a served format would share its URL with another trip's report.
    @Test(arguments: [
        "lisbon.html", "lisbon.md", "lisbon.json", "lisbon.ics", "lisbon.geojson", "lisbon.gpx", "lisbon.pdf",
        "lisbon.HTML", "a.b.Json",
    ])
    func aNameEndingInAServedExtensionIsRefused(_ text: String) {
        #expect(TripName(decoded: text) == nil)
        #expect(TripFile(fileName: text + ".json") == nil, "its file is not served")
    }

    @Test(arguments: ["lisbon.htm", "lisbon.mdx", "lisbon.html-2", "html", "md", "v1.2"])
    func aNameThatOnlyContainsOneIsAccepted(_ text: String) {
        #expect(TripName(decoded: text)?.text == text)
    }

    @Test func percentEncodedLettersAreDecodedOnce() {
        #expect(TripName(segment: "lis%62on")?.text == "lisbon")
    }
}
