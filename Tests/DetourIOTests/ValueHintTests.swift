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

    /// What people type for a price, in JSON: the accepted form, worked out from it.
    @Test(arguments: [
        (
            #""cost": {"amount": "12 EUR", "currency": "EUR"}"#,
            #"must be a number, not a string; write the number and the currency apart: "amount": 12, "currency": "EUR""#
        ),
        (
            #""cost": {"amount": "€12", "currency": "EUR"}"#,
            #"must be a number, not a string; write the number and the currency apart: "amount": 12, "currency": "EUR""#
        ),
        (
            #""cost": {"amount": "1.234,50", "currency": "EUR"}"#,
            "must be a number, not a string; write the amount with a point, no thousands separator and no quotes: 1234.50"
        ),
        (
            #""cost": "12 EUR""#,
            #"a cost must be an object, not a string; write {"amount": 12, "currency": "EUR"}"#
        ),
        (
            #""cost": "$5""#,
            #"a cost must be an object, not a string; write {"amount": 5, "currency": "USD"}; "$" is used by several currencies: write the code of yours, USD, CAD, AUD, NZD, HKD, SGD or MXN"#
        ),
        (
            #""cost": "cheap""#,
            #"a cost must be an object, not a string; write {"amount": 12.50, "currency": "EUR"} with its currency's code"#
        ),
        (
            #""cost": {"amount": 1, "currency": "eur"}"#,
            #"currency "eur" is not an ISO 4217 code (three capital letters, like EUR); did you mean "EUR"?"#
        ),
        (
            #""cost": {"amount": 1, "currency": "€"}"#,
            #"currency "€" is not an ISO 4217 code (three capital letters, like EUR); did you mean "EUR"?"#
        ),
        (
            #""cost": {"amount": 1, "currency": "Euro"}"#,
            #"currency "Euro" is not an ISO 4217 code (three capital letters, like EUR); did you mean "EUR"?"#
        ),
        (
            #""cost": {"amount": 1, "currency": "$"}"#,
            #"currency "$" is not an ISO 4217 code (three capital letters, like EUR); "$" is used by several currencies: write the code of yours, USD, CAD, AUD, NZD, HKD, SGD or MXN"#
        ),
        (
            #""cost": {"amount": 12,50, "currency": "EUR"}"#,
            #"unexpected "5", a key in double quotes was expected (a JSON number has no decimal comma: write 12.50)"#
        ),
    ])
    func pricesAsTyped(_ cost: String, _ expected: String) {
        #expect(Self.message(task: #"{"name": "a", "duration": "1h", \#(cost)}"#) == expected)
    }

    /// Days as people type them, and a traveler that is a phone number.
    @Test(arguments: [
        (
            "2027-14-04", "ana@example.org",
            #"arrival "2027-14-04" is not a calendar day (YYYY-MM-DD); did you mean "2027-04-14" (month and day swapped)?"#
        ),
        (
            "10-04-2027", "ana@example.org",
            #"arrival "10-04-2027" is not a calendar day (YYYY-MM-DD); write "2027-04-10" (day first) or "2027-10-04" (month first)"#
        ),
        (
            "10/04/2027", "ana@example.org",
            #"arrival "10/04/2027" is not a calendar day (YYYY-MM-DD); write "2027-04-10" (day first) or "2027-10-04" (month first)"#
        ),
        (
            "2027-4-1", "ana@example.org",
            #"arrival "2027-4-1" is not a calendar day (YYYY-MM-DD); did you mean "2027-04-01"?"#
        ),
        (
            "2027-04-01", "+351 912 345 678",
            #""+351 912 345 678" is a phone number, not an email address; write the traveler's address, with the name before it if you like: "Ana Silva <ana@example.org>""#
        ),
    ])
    func daysAndTravelersAsTyped(_ arrival: String, _ traveler: String, _ expected: String) {
        let trip = """
            {"title": "T", "traveler": "\(traveler)", "destinations": [{"name": "L",
             "location": {"lat": 1, "lon": 2}, "arrival": "\(arrival)", "departure": "2027-06-02"}]}
            """
        let errors = TripLoader.load(Array(trip.utf8), format: .json).diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.message) == [expected])
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
        let price = gpx.replacingOccurrences(of: "cost=\"3,10\"", with: "cost=\"€3,10\"")
        let refused = TripLoader.load(Array(price.utf8), format: .gpx).diagnostics.filter { $0.severity == .error }
        #expect(
            refused.map(\.message) == [
                #"amount "€3,10" is not a decimal number; write the amount alone, "3.10", and the currency apart: "EUR""#
            ])
    }
}
