import Testing

@testable import DetourIO

/// What a trip file is called: one rule for every command and the server.
@Suite struct TripFormatTests {
    @Test(arguments: [
        ("lisbon.json", "lisbon", TripFormat.json),
        ("Lisbon.JSON", "Lisbon", .json),
        ("oslo.Gpx", "oslo", .gpx),
        ("europe.2026.gpx", "europe.2026", .gpx),
        ("東京.json", "東京", .json),
        ("café\u{301}.JSON", "café\u{301}", .json),
        ("x.json", "x", .json),
    ])
    func aTripInAFolderIsJSONOrGPXInAnyCase(_ name: String, _ stem: String, _ format: TripFormat) throws {
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
    }

    @Test func aFileNamedOnItsOwnMayBeXML() {
        #expect(TripFormat(fileName: "trip.XML") == .gpx)
        #expect(TripFormat(fileName: "trip.Json") == .json)
        #expect(TripFormat(fileName: "trip.txt") == nil)
    }
}
