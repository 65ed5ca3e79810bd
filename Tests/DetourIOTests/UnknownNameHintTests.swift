import DetourCore
import DetourIO
import Testing

/// An unknown key, attribute or element names the one probably meant, and the names allowed
/// at that place, nearest first.
@Suite struct UnknownNameHintTests {
    static func messages(_ text: String, format: TripFormat) -> [String] {
        TripLoader.load(Array(text.utf8), format: format).diagnostics
            .filter { [.unknownKey, .unknownAttribute, .unknownElement].contains($0.code) }.map(\.message)
    }

    @Test func jsonKeysAtEveryLevel() {
        let trip = """
            {"title": "T", "traveller": "a@example.org", "destinations": [{"name": "L",
             "location": {"lat": 1, "lng": 2}, "arrival": "2026-01-01", "departure": "2026-01-02",
             "detours": [{"tasks": [{"name": "x", "duraton": "1h", "cost": {"amount": 1, "curency": "EUR"}},
              {"name": "y", "duration": "1h", "cost": {"amount": 1, "currency": "EUR"}, "zzz": 1}]}]}]}
            """
        let messages = Self.messages(trip, format: .json)
        #expect(messages.count == 5, "\(messages)")
        #expect(
            messages[0].hasPrefix(
                #"unknown key "traveller", ignored; did you mean "traveler"? (allowed here: "traveler", "#))
        #expect(messages[1] == #"unknown key "lng", ignored; did you mean "lon"? (allowed here: "lon", "lat")"#)
        #expect(
            messages[2].hasPrefix(
                #"unknown key "duraton", ignored; did you mean "duration"? (allowed here: "duration", "#))
        #expect(
            messages[3]
                == #"unknown key "curency", ignored; did you mean "currency"? (allowed here: "currency", "amount")"#)
        // Nothing near: no guess, only the list.
        #expect(messages[4].hasPrefix(#"unknown key "zzz", ignored (allowed here: "#), "\(messages[4])")
        for name in ["name", "duration", "cost", "location", "pros", "cons", "travel", "path"] {
            #expect(messages[4].contains("\"\(name)\""))
        }
    }

    @Test func gpxAttributesAndElements() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1">
            <metadata><name>T</name><extensions><dr:trip/></extensions></metadata>
            <wpt lat="1" lon="2"><name>L</name><extensions>
              <dr:stay id="l" arival="2026-01-01" departure="2026-01-02"/><dr:tsak/></extensions></wpt>
            </gpx>
            """
        let messages = Self.messages(gpx, format: .gpx)
        #expect(
            messages.contains {
                $0.hasPrefix(#"unknown attribute "arival" on dr:stay, ignored; did you mean "arrival"?"#)
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasSuffix(
                    #"unknown element dr:tsak in a waypoint's extensions, ignored; did you mean "task"? (allowed here: "task", "stay", "detour")"#
                )
            }, "\(messages)")
    }
}
