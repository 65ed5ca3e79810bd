import DetourCore
import DetourIO
import Testing

/// A structural mistake in a GPX trip does not hide the value mistakes beside it, and a stay
/// id written almost right names the one meant.
@Suite struct GPXEveryProblemTests {
    static func stay(_ id: String) -> String {
        "<wpt lat=\"38.7\" lon=\"-9.1\"><name>Lisbon</name><extensions><dr:stay id=\"\(id)\" arrival=\"2026-12-01\" departure=\"2026-12-05\"/></extensions></wpt>"
    }

    static func task(_ name: String, stay: String, _ values: String) -> String {
        "<wpt lat=\"38.71\" lon=\"-9.13\"><name>\(name)</name><extensions><dr:task destination=\"\(stay)\" detour=\"d\" \(values)/></extensions></wpt>"
    }

    func found(_ body: String) -> [String] {
        TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx).diagnostics.filter { $0.severity == .error }
            .map { "\($0.code.rawValue): \($0.fullMessage)" }
    }

    @Test func aTaskOfAStayThatDoesNotExistHasItsValuesCheckedToo() {
        let body =
            Self.stay("lisbon")
            + Self.task("Tram", stay: "porto", #"duration="1h30" cost="3,10" currency="eur""#)
            + Self.task("Walk", stay: "lisbon", #"duration="1h" cost="0" currency="EUR""#)
        #expect(
            found(body) == [
                #"gpx-unknown-stay: wpt 2 "Tram": destination "porto" is not the id of any dr:stay"#,
                #"bad-duration: wpt 2 "Tram": duration "1h30" is not a duration; did you mean "1h30m"? (write PT1H30M, 1h30m, 90m or 2h)"#,
                #"bad-amount: wpt 2 "Tram": amount "3,10" is not a decimal number; write the amount with a dot: "3.10""#,
                #"bad-currency: wpt 2 "Tram": currency "eur" is not an ISO 4217 code (three capital letters, like EUR); did you mean "EUR"?"#,
            ])
    }

    @Test(arguments: [
        ("Lisbon", "lisbon"), ("lisbom", "lisbon"), ("lisbn", "lisbon"), ("lisbon-2", nil), ("porto", nil),
    ])
    func aStayIDAlmostRightNamesTheOneMeant(_ written: String, _ meant: String?) {
        let body =
            Self.stay("lisbon") + Self.task("Tram", stay: written, #"duration="1h" cost="0" currency="EUR""#)
            + Self.task("Walk", stay: "lisbon", #"duration="1h" cost="0" currency="EUR""#)
        let hint = meant.map { "; did you mean \"\($0)\"?" } ?? ""
        #expect(
            found(body) == [
                "gpx-unknown-stay: wpt 2 \"Tram\": destination \"\(written)\" is not the id of any dr:stay\(hint)"
            ])
    }
}
