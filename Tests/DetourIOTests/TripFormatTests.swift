import Testing

@testable import DetourIO

/// What a trip file is called: one rule for every command and the server.
@Suite struct TripFormatTests {
    @Test(arguments: [
        ("lisbon.json", "lisbon", TripFormat.json),
        ("Lisbon.json", "Lisbon", .json),
        ("OSLO.gpx", "OSLO", .gpx),
        ("europe.2026.gpx", "europe.2026", .gpx),
        ("東京.json", "東京", .json),
        ("café\u{301}.json", "café\u{301}", .json),
        ("x.json", "x", .json),
    ])
    func aTripInAFolderIsJSONOrGPXInLowerCase(_ name: String, _ stem: String, _ format: TripFormat) throws {
        let found = try #require(TripFormat.ofTripInFolder(name))
        #expect(found.stem == stem)
        #expect(found.format == format)
    }

    /// `.xml` is read when named, never picked out of a folder; a byte that folds onto `.` or a
    /// letter by a blind `| 0x20` is not one.
    @Test(arguments: [
        "trip.xml", ".json", "json", "lisbon.json~", "lisbon.json.swp", "lisbon.jsonx", "lisbon", "x\u{0E}json",
        "x\u{0E}GPX", "x.js0n", "",
    ])
    func anyOtherFileIsNotATrip(_ name: String) {
        #expect(TripFormat.ofTripInFolder(name) == nil)
        #expect(TripFormat.misspelledInFolder(name) == nil)
    }

    /// A file that differs from a trip file only in the case of its extension is left out, and
    /// named with the name it would be a trip under; a trip file is not misspelled.
    @Test(arguments: [
        ("Lisbon.JSON", "Lisbon.json"), ("oslo.Gpx", "oslo.gpx"), ("x.jSoN", "x.json"),
        ("café\u{301}.GPX", "café\u{301}.gpx"),
        ("a.json.JSON", "a.json.json"),
    ])
    func anExtensionInAnotherCaseIsNamed(_ name: String, _ renamed: String) {
        #expect(TripFormat.ofTripInFolder(name) == nil)
        #expect(TripFormat.misspelledInFolder(name) == renamed)
        #expect(TripFormat.misspelledInFolder(renamed) == nil)
        #expect(TripFormat.ofTripInFolder(renamed) != nil)
    }

    @Test func aFileNamedOnItsOwnMayBeXML() {
        #expect(TripFormat(fileName: "trip.XML") == .gpx)
        #expect(TripFormat(fileName: "trip.Json") == .json)
        #expect(TripFormat(fileName: "trip.txt") == nil)
    }
}
