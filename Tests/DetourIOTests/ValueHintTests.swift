import DetourCore
import DetourIO
import Testing

/// A value in the wrong form is refused with the form that is accepted, made from the value.
@Suite struct ValueHintTests {
    static func message(task: String, format: TripFormat = .json) -> String {
        let trip = """
            {"title": "T", "destinations": [{"name": "L", "location": {"lat": 1, "lon": 2},
             "arrival": "2026-01-01", "departure": "2026-01-02", "detours": [{"tasks": [\(task)]}]}]}
            """
        let errors = TripLoader.load(Array(trip.utf8), format: format).diagnostics.filter { $0.severity == .error }
        return errors.map(\.message).joined(separator: " | ")
    }

    @Test(arguments: [
        (
            #"{"name": "a", "duration": "1h", "cost": {"amount": "12,50", "currency": "EUR"}}"#,
            "must be a number, not a string; write the amount with a dot, without quotes: 12.50"
        ),
        (
            #"{"name": "a", "duration": "1h", "cost": {"amount": "12.50", "currency": "EUR"}}"#,
            "must be a number, not a string; write the amount without quotes: 12.50"
        ),
        (
            #"{"name": "a", "duration": "1h", "cost": {"amount": "twelve", "currency": "EUR"}}"#,
            "must be a number, not a string"
        ),
        (
            #"{"name": "a", "duration": "1h", "cost": 12}"#,
            #"a cost must be an object, not a number; write {"amount": 12, "currency": "EUR"} with its currency's code"#
        ),
        (
            #"{"name": "a", "duration": 90, "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"must be a string, not a number; did you mean "90m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "1h30", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "1h30" is not a duration; did you mean "1h30m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "90 min", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "90 min" is not a duration; did you mean "90m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "1.5h", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "1.5h" is not a duration; did you mean "1h30m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "1:30", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "1:30" is not a duration; did you mean "1h30m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "0:45", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "0:45" is not a duration; did you mean "45m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "1 hour 30", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "1 hour 30" is not a duration; did you mean "1h30m"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "0.5d", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "0.5d" is not a duration; did you mean "12h"? (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "0.1m", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "0.1m" is not a duration (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
        (
            #"{"name": "a", "duration": "soon", "cost": {"amount": 1, "currency": "EUR"}}"#,
            #"duration "soon" is not a duration (write PT1H30M, 1h30m, 90m or 2h)"#
        ),
    ])
    func jsonValues(_ task: String, _ expected: String) {
        #expect(Self.message(task: task) == expected)
    }

    @Test func aGPXAmountWithADecimalComma() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1">
            <metadata><name>T</name><extensions><dr:trip/></extensions></metadata>
            <wpt lat="1" lon="2"><name>L</name><extensions>
              <dr:stay id="l" arrival="2026-01-01" departure="2026-01-02"/></extensions></wpt>
            <wpt lat="1" lon="2"><name>Tram</name><extensions>
              <dr:task destination="l" detour="d" duration="1h" cost="3,10" currency="EUR"/></extensions></wpt>
            </gpx>
            """
        let errors = TripLoader.load(Array(gpx.utf8), format: .gpx).diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map(\.message) == [
                #"amount "3,10" is not a decimal number; write the amount with a dot: "3.10""#
            ])
    }
}
