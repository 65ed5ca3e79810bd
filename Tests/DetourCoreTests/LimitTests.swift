import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// Every limit on what a trip holds, tested exactly at the limit (accepted) and one past it
/// (refused with its code).
///
/// A limit that is off by one survives a test that uses a value far past it, so each case here
/// builds a trip of exactly `limit` units and one of `limit + 1`. The table is checked against
/// ``TripLimits`` itself: a limit added there without a row here fails
/// ``everyLimitHasARow()``.
@Suite struct TripLimitTests {
    /// One limit: how to build a trip of `n` units of it, and the code past it.
    struct Row: Sendable, CustomTestStringConvertible {
        /// The ``TripLimits`` property.
        var name: String
        var code: DiagnosticCode
        /// Limits with this one set to `n`, for counts too large to build at their standard value.
        var setting: @Sendable (inout TripLimits, Int) -> Void
        var draft: @Sendable (Int) -> TripDraft
        /// Whether a trip at the standard value is cheap enough to build here as well.
        var atStandard: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "maxTextBytes", code: .textTooLong, setting: { $0.maxTextBytes = $1 },
            // Two-byte characters first, so that counting characters instead of bytes goes wrong.
            draft: {
                Draft.trip(title: String(repeating: "é", count: $0 / 2) + String(repeating: "a", count: $0 % 2), [])
            },
            atStandard: true),
        Row(
            name: "maxDestinations", code: .tooManyDestinations, setting: { $0.maxDestinations = $1 },
            draft: { Draft.trip(Array(repeating: Draft.destination(), count: $0)) }, atStandard: true),
        Row(
            name: "maxDetours", code: .tooManyDetours, setting: { $0.maxDetours = $1 },
            // Spread over two stays: the limit is the trip's, not a stay's.
            draft: { count in
                let two = [Draft.task(name: "A"), Draft.task(name: "B")]
                return Draft.trip([
                    Draft.destination(tasks: Array(repeating: two, count: count / 2)),
                    Draft.destination(tasks: Array(repeating: two, count: count - count / 2)),
                ])
            }, atStandard: false),
        Row(
            name: "maxTasks", code: .tooManyTasks, setting: { $0.maxTasks = $1 },
            draft: { count in
                let detours = (0..<(count + 1) / 2).map { index in
                    index * 2 + 1 < count ? [Draft.task(name: "A"), Draft.task(name: "B")] : [Draft.task(name: "A")]
                }
                return Draft.trip([
                    Draft.destination(tasks: Array(detours.prefix(1))),
                    Draft.destination(tasks: Array(detours.dropFirst())),
                ])
            }, atStandard: false),
        Row(
            name: "maxPathPoints", code: .tooManyPathPoints, setting: { $0.maxPathPoints = $1 },
            // A streaming reader keeps two points and counts the rest. Two paths share the limit,
            // the second of one point, so one past the limit crosses it from exactly at it.
            draft: { count in
                var first = Draft.task(name: "A", location: Draft.coordinate("38.7", "-9.1"))
                first.path = .present(
                    PathDraft(points: [Draft.point("38.7", "-9.1"), Draft.point("38.7", "-9.1")], count: count - 1),
                    Draft.here)
                var second = Draft.task(name: "B", location: Draft.coordinate("38.7", "-9.1"))
                second.path = .present(
                    PathDraft(points: [Draft.point("38.7", "-9.1"), Draft.point("38.7", "-9.1")], count: 1), Draft.here)
                return Draft.trip([Draft.destination(tasks: [[first, second]])])
            }, atStandard: true),
        Row(
            name: "maxStayNights", code: .stayTooLong, setting: { $0.maxStayNights = $1 },
            draft: {
                Draft.trip([Draft.destination(arrival: "2026-01-01", departure: Draft.day(after: "2026-01-01", $0))])
            },
            atStandard: true),
        Row(
            name: "maxNights", code: .tooManyNights, setting: { $0.maxNights = $1 },
            // Whole stays of 366 nights, one for the rest, and a last stay of one night: the
            // limit is on the sum, and one past it crosses it from exactly at it.
            draft: { count in
                var stays = Array(
                    repeating: Draft.destination(arrival: "2026-01-01", departure: Draft.day(after: "2026-01-01", 366)),
                    count: (count - 1) / 366)
                if (count - 1) % 366 > 0 {
                    stays.append(
                        Draft.destination(
                            arrival: "2026-01-01", departure: Draft.day(after: "2026-01-01", (count - 1) % 366)))
                }
                stays.append(Draft.destination(arrival: "2026-01-01", departure: "2026-01-02"))
                return Draft.trip(stays)
            }, atStandard: true),
    ]

    @Test func everyLimitHasARow() {
        let properties = Mirror(reflecting: TripLimits.standard).children.compactMap(\.label)
        #expect(Set(properties) == Set(Self.rows.map(\.name)))
        #expect(properties.count == Self.rows.count)
    }

    /// The limit's own number, read from the standard limits by name.
    static func standard(_ name: String) -> Int {
        Mirror(reflecting: TripLimits.standard).children.first { $0.label == name }?.value as? Int ?? -1
    }

    func codes(_ draft: TripDraft, _ limits: TripLimits) -> [DiagnosticCode] {
        TripValidator.validate(draft, limits: limits).diagnostics.filter { $0.severity == .error }.map(\.code)
    }

    @Test(arguments: rows, [1, 2, 7])
    func aTripExactlyAtTheLimitIsAcceptedAndOnePastIsRefusedOnce(_ row: Row, _ limit: Int) {
        var limits = TripLimits.standard
        row.setting(&limits, limit)
        #expect(codes(row.draft(limit), limits) == [], "at \(limit)")
        #expect(codes(row.draft(limit + 1), limits) == [row.code], "at \(limit + 1)")
        // Reported once, however far past.
        #expect(codes(row.draft(limit + 3), limits) == [row.code], "at \(limit + 3)")
    }

    @Test(arguments: rows.filter(\.atStandard))
    func theStandardLimitHoldsAtItsOwnNumber(_ row: Row) {
        let limit = Self.standard(row.name)
        #expect(codes(row.draft(limit), .standard) == [], "at \(limit)")
        #expect(codes(row.draft(limit + 1), .standard) == [row.code], "at \(limit + 1)")
    }

    /// The table of rules in docs/trip-format.md states every limit; the code must say the same.
    @Test func theStandardLimitsAreTheDocumentedOnes() throws {
        let format = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/trip-format.md"), encoding: .utf8)
        let documented: [(String, String)] = [
            ("maxTextBytes", "at most 10,000 bytes"),
            ("maxDestinations", "at most 100,000 destinations"),
            ("maxDetours", "1,000,000 detours"),
            ("maxTasks", "1,000,000 tasks"),
            ("maxPathPoints", "5,000,000 path points in all"),
            ("maxStayNights", "a stay lasts at most 366 nights"),
            ("maxNights", "the stays at most 1,000,000 nights in all"),
        ]
        #expect(Set(documented.map(\.0)) == Set(Self.rows.map(\.name)))
        for (name, phrase) in documented {
            #expect(format.contains(phrase), "docs/trip-format.md lacks \(phrase)")
            let number = phrase.filter(\.isNumber)
            #expect(
                String(Self.standard(name)) == number,
                "\(name) is \(Self.standard(name)), docs/trip-format.md says \(number)")
        }
    }
}

/// The limits on single values: each at its edge and one step past it, through the validator,
/// so the code is checked too.
@Suite struct ValueLimitTests {
    enum Place: Sendable {
        case amount, rate, duration, dayHours, arrival, departure, latitude, longitude
    }

    struct Edge: Sendable, CustomTestStringConvertible {
        var place: Place
        var text: String
        /// The code when refused, `nil` when accepted.
        var code: DiagnosticCode?
        var testDescription: String { "\(place) \(text)" }
    }

    static let edges: [Edge] = [
        // Amounts: zero or more, at most 10^12, at most 6 digits after the point.
        Edge(place: .amount, text: "1000000000000", code: nil),
        Edge(place: .amount, text: "1000000000000.000001", code: .badAmount),
        Edge(place: .amount, text: "999999999999.999999", code: nil),
        Edge(place: .amount, text: "1e12", code: nil),
        Edge(place: .amount, text: "1.000001e12", code: .badAmount),
        Edge(place: .amount, text: "1e13", code: .badAmount),
        Edge(place: .amount, text: "0.000001", code: nil),
        Edge(place: .amount, text: "0.0000001", code: .badAmount),
        Edge(place: .amount, text: "1e-6", code: nil),
        Edge(place: .amount, text: "1e-7", code: .badAmount),
        Edge(place: .amount, text: "0.10000000", code: nil),
        Edge(place: .amount, text: "0", code: nil),
        Edge(place: .amount, text: "-0", code: nil),
        Edge(place: .amount, text: "-0.000001", code: .badAmount),
        // Rates: more than 0, below 10^9, at most 10 digits after the point.
        Edge(place: .rate, text: "0.0000000001", code: nil),
        Edge(place: .rate, text: "0.00000000001", code: .badRate),
        Edge(place: .rate, text: "1e-10", code: nil),
        Edge(place: .rate, text: "1e-11", code: .badRate),
        Edge(place: .rate, text: "999999999.9999999999", code: nil),
        Edge(place: .rate, text: "999999999", code: nil),
        Edge(place: .rate, text: "1000000000", code: .badRate),
        Edge(place: .rate, text: "1e9", code: .badRate),
        Edge(place: .rate, text: "0", code: .badRate),
        Edge(place: .rate, text: "0.0", code: .badRate),
        Edge(place: .rate, text: "-1", code: .badRate),
        // Durations: a whole number of minutes, more than 0, at most 30 days.
        Edge(place: .duration, text: "P30D", code: nil),
        Edge(place: .duration, text: "43200m", code: nil),
        Edge(place: .duration, text: "43201m", code: .badDuration),
        Edge(place: .duration, text: "PT720H", code: nil),
        Edge(place: .duration, text: "PT720H1M", code: .badDuration),
        Edge(place: .duration, text: "P30DT60S", code: .badDuration),
        Edge(place: .duration, text: "PT2592000S", code: nil),
        Edge(place: .duration, text: "PT2592060S", code: .badDuration),
        Edge(place: .duration, text: "P4W2D", code: nil),
        Edge(place: .duration, text: "P4W2DT1M", code: .badDuration),
        Edge(place: .duration, text: "1m", code: nil),
        Edge(place: .duration, text: "PT60S", code: nil),
        Edge(place: .duration, text: "PT59S", code: .badDuration),
        Edge(place: .duration, text: "PT61S", code: .badDuration),
        Edge(place: .duration, text: "0m", code: .badDuration),
        // Nine digits are read; a tenth makes the text unreadable, not a longer duration.
        Edge(place: .duration, text: "000000090m", code: nil),
        Edge(place: .duration, text: "0000000090m", code: .badDuration),
        Edge(place: .duration, text: "PT000000090M", code: nil),
        Edge(place: .duration, text: "PT0000000090M", code: .badDuration),
        // Day hours: more than 0, at most 24, whole minutes.
        Edge(place: .dayHours, text: "24", code: nil),
        Edge(place: .dayHours, text: "24.00", code: nil),
        Edge(place: .dayHours, text: "24.05", code: .badDayHours),
        Edge(place: .dayHours, text: "23.95", code: nil),
        Edge(place: .dayHours, text: "0.05", code: nil),
        Edge(place: .dayHours, text: "0", code: .badDayHours),
        Edge(place: .dayHours, text: "-0.05", code: .badDayHours),
        Edge(place: .dayHours, text: "0.01", code: .badDayHours),
        Edge(place: .dayHours, text: "100", code: .badDayHours),
        Edge(place: .dayHours, text: "2.4e1", code: nil),
        // Days: years 1 to 9999, and a departure with a day after it, for the calendar.
        Edge(place: .arrival, text: "0001-01-01", code: nil),
        Edge(place: .arrival, text: "0000-12-31", code: .badDay),
        Edge(place: .arrival, text: "9999-12-29", code: nil),
        Edge(place: .arrival, text: "10000-01-01", code: .badDay),
        Edge(place: .departure, text: "9999-12-30", code: nil),
        Edge(place: .departure, text: "9999-12-31", code: .badDay),
        // Coordinates: their closed ranges.
        Edge(place: .latitude, text: "90", code: nil),
        Edge(place: .latitude, text: "-90", code: nil),
        Edge(place: .latitude, text: "90.0000000001", code: .coordinateOutOfRange),
        Edge(place: .latitude, text: "-90.0000000001", code: .coordinateOutOfRange),
        Edge(place: .latitude, text: "9e1", code: nil),
        Edge(place: .latitude, text: "1e3", code: .coordinateOutOfRange),
        Edge(place: .longitude, text: "180", code: nil),
        Edge(place: .longitude, text: "-180", code: nil),
        Edge(place: .longitude, text: "180.0000000001", code: .coordinateOutOfRange),
        Edge(place: .longitude, text: "-180.0000000001", code: .coordinateOutOfRange),
        Edge(place: .longitude, text: "999.9", code: .coordinateOutOfRange),
        Edge(place: .longitude, text: "1e4", code: .coordinateOutOfRange),
    ]

    static func draft(_ edge: Edge) -> TripDraft {
        var stay = Draft.destination(arrival: "2026-12-01", departure: "2026-12-02")
        var task = Draft.task(name: "A")
        switch edge.place {
        case .amount: task = Draft.task(name: "A", amount: edge.text)
        case .duration: task = Draft.task(name: "A", duration: edge.text)
        case .dayHours: stay.dayHours = Draft.text(edge.text)
        case .arrival:
            stay = Draft.destination(
                arrival: edge.text, departure: edge.text == "9999-12-29" ? "9999-12-30" : "0001-01-02")
        case .departure: stay = Draft.destination(arrival: "9999-12-29", departure: edge.text)
        case .latitude: stay = Draft.destination(lat: edge.text)
        case .longitude: stay = Draft.destination(lon: edge.text)
        case .rate: break
        }
        stay.detours = [DetourDraft(position: Draft.here, tasks: [task, Draft.task(name: "B")])]
        var trip = Draft.trip([stay])
        if edge.place == .rate {
            trip.currency = Draft.text("EUR")
            trip.rates = [RateDraft(currency: Draft.text("SEK"), value: Draft.text(edge.text))]
        }
        return trip
    }

    @Test(arguments: edges)
    func eachValueIsAcceptedAtItsEdgeAndRefusedPastIt(_ edge: Edge) {
        let errors = TripValidator.validate(Self.draft(edge)).diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == (edge.code.map { [$0] } ?? []), "\(errors.map(\.message))")
    }
}

extension ValueLimitTests {
    /// docs/trip-format.md and docs/diagnostics.md state the limits on amounts and rates; the
    /// numbers they give are the code's.
    @Test func theDocumentedLimitsOnAmountsAndRatesAreTheCodes() throws {
        let format = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/trip-format.md"), encoding: .utf8)
        let guide = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        #expect(Money.maximumAmount == 1_000_000_000_000)
        #expect(format.contains("at most 1,000,000,000,000") && guide.contains("at most 1,000,000,000,000"))
        #expect(ExchangeRates.maximumFractionDigits == 10)
        #expect(format.contains("below 1,000,000,000, at most 10 decimals"))
        #expect(guide.contains("at most 10 digits after the point, is 1,000,000,000 (a billion)"))
        // The edges themselves are in the table above: 10^12 passes, a millionth more does not.
        #expect(
            Self.edges.contains { $0.place == .amount && $0.text == "1000000000000.000001" && $0.code == .badAmount })
    }
}
