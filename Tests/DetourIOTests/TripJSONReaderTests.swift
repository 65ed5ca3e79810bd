import DetourCore
import DetourIO
import DetourJob
import Testing

@Suite struct TripJSONReaderTests {
    func load(_ text: String) -> TripValidator.Outcome {
        TripLoader.load(Array(text.utf8), format: .json)
    }

    func lines(_ outcome: TripValidator.Outcome) -> [String] {
        outcome.diagnostics.map { DiagnosticText.line($0, file: "trip.json") }
    }

    static let minimal = """
        {"title": "T", "destinations": [{"name": "Lisbon", "location": {"lat": 38.7, "lon": -9.1},
          "arrival": "2026-12-01", "departure": "2026-12-05"}]}
        """

    @Test func readsAMinimalTrip() throws {
        let outcome = load(Self.minimal)
        #expect(outcome.diagnostics.isEmpty)
        let trip = try #require(outcome.trip)
        #expect(trip.destinations.map(\.name) == ["Lisbon"])
        #expect(trip.traveler == nil)
    }

    @Test func aTripThatBreaksThreeRulesReportsAllThreeInFileOrder() {
        let outcome = load(
            """
            {
              "title": "T",
              "traveler": "ab@.c",
              "destinations": [
                {"name": "Lisbon", "location": {"lat": 91, "lon": -9.1},
                 "arrival": "2026-12-05", "departure": "2026-12-01"}
              ]
            }
            """)
        #expect(outcome.trip == nil)
        #expect(
            lines(outcome) == [
                "trip.json:3:15: error: traveler: \"ab@.c\" is not an email address: it needs one character either side of an \"@\", and a \".\" between two characters after it [bad-email]",
                "trip.json:5:44: error: destinations[0].location.lat: latitude 91 is outside [-90, 90] [coordinate-out-of-range]",
                "trip.json:6:44: error: destinations[0].departure: departure 2026-12-01 is not after arrival 2026-12-05 [departure-not-after-arrival]",
            ])
    }

    @Test func wrongTypesNameThePathAndWhatWasFound() {
        let outcome = load(
            """
            {"title": "T", "destinations": [{"name": null, "location": {"lat": "47.3", "lon": 8},
              "arrival": "2026-12-01", "departure": "2026-12-05", "detours": [{"tasks": [{"name": "A",
              "duration": 90, "cost": {"amount": "3", "currency": "EUR"}, "pros": ["ok", 3]}]}]}]}
            """)
        let found = outcome.diagnostics.map { "\($0.path ?? ""): \($0.message)" }
        #expect(
            found == [
                "destinations[0].name: must be a string, not null",
                "destinations[0].location.lat: must be a number, not a string; write the number without quotes: 47.3",
                "destinations[0].detours[0]: draft detour: one task, the other side is undecided",
                // A missing field is reported where its object starts.
                "destinations[0].detours[0].tasks[0].location: no location, so its distance is unknown",
                #"destinations[0].detours[0].tasks[0].duration: must be a string, not a number; did you mean "90m"? (write PT1H30M, 1h30m, 90m or 2h)"#,
                "destinations[0].detours[0].tasks[0].cost.amount: must be a number, not a string; write the amount without quotes: 3",
                "destinations[0].detours[0].tasks[0].pros[1]: must be a string, not a number",
            ])
    }

    @Test func unknownKeysAreWarningsNamingThePath() throws {
        let outcome = load(Self.minimal.replacingOccurrences(of: "\"name\"", with: "\"nmae\": 1, \"name\""))
        #expect(outcome.trip != nil)
        #expect(
            lines(outcome) == [
                #"trip.json:1:34: warning: destinations[0].nmae: unknown key "nmae", ignored; did you mean "name"? (allowed here: "name", "budget", "arrival", "location", "departure", "detours", "day_hours") [unknown-key]"#
            ])
    }

    @Test func syntaxErrorsCarryLineAndColumn() {
        let outcome = load("{\n  \"title\": \"T\",\n  \"destinations\": [1, 2,]\n}")
        #expect(
            lines(outcome) == [
                "trip.json:3:25: error: trailing comma before \"]\" (JSON allows no comma after the last element) [json-syntax]"
            ])
    }

    @Test func anEmptyFileSaysSo() {
        #expect(load("").diagnostics.first?.message.hasPrefix("the file is empty") == true)
        #expect(load(" \n").diagnostics.first?.message.hasPrefix("the file is empty") == true)
    }

    @Test func aUTF8ByteOrderMarkIsToleratedAndOtherEncodingsAreNamed() {
        let withBOM = TextEncoding.utf8BOM + Array(Self.minimal.utf8)
        #expect(TripLoader.load(withBOM, format: .json).trip != nil)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in Self.minimal.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let outcome = TripLoader.load(utf16, format: .json)
        #expect(outcome.diagnostics.map(\.message) == ["the file is UTF-16LE; trip JSON must be UTF-8 (RFC 8259 §8.1)"])
    }

    /// UTF-32 and UTF-16 are named by their byte-order mark, and UTF-16 without one by the NUL
    /// beside the first character.
    @Test(
        arguments: [
            ([0x00, 0x00, 0xFE, 0xFF], false, "UTF-32BE"), ([0xFF, 0xFE, 0x00, 0x00], false, "UTF-32LE"),
            ([], true, "UTF-16BE"), ([], false, "UTF-16LE"),
        ] as [([UInt8], Bool, String)])
    func otherUnicodeEncodingsAreNamed(_ mark: [UInt8], _ bigEndian: Bool, _ encoding: String) {
        var bytes = mark
        for unit in Self.minimal.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(
            lines(TripLoader.load(bytes, format: .json)) == [
                "trip.json: error: the file is \(encoding); trip JSON must be UTF-8 (RFC 8259 §8.1) [unsupported-encoding]"
            ])
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() {
        var bytes = Array(Self.minimal.utf8)
        bytes.insert(0xFC, at: 12)
        let outcome = TripLoader.load(bytes, format: .json)
        #expect(
            lines(outcome) == [
                "trip.json:1:13: error: the file is not valid UTF-8 (byte offset 12); trip JSON must be UTF-8 [invalid-utf8]"
            ])
    }

    @Test func nullMeansAbsentForOptionalFields() throws {
        let text = Self.minimal.replacingOccurrences(
            of: "\"title\": \"T\"", with: "\"title\": \"T\", \"traveler\": null"
        )
        .replacingOccurrences(
            of: "\"departure\": \"2026-12-05\"", with: "\"departure\": \"2026-12-05\", \"detours\": null")
        let outcome = load(text)
        #expect(outcome.diagnostics.isEmpty)
        #expect(outcome.trip?.traveler == nil)
    }

    /// Null is absent for the optional numbers, budgets and rates too, at the trip and at a
    /// destination: the trip is the one without them.
    @Test func nullMeansAbsentForOptionalNumbersBudgetsAndRates() throws {
        let text = Self.minimal.replacingOccurrences(
            of: "\"title\": \"T\"", with: "\"title\": \"T\", \"day_hours\": null, \"budget\": null, \"rates\": null"
        )
        .replacingOccurrences(
            of: "\"departure\": \"2026-12-05\"",
            with: "\"departure\": \"2026-12-05\", \"day_hours\": null, \"budget\": null")
        let outcome = load(text)
        #expect(outcome.diagnostics.isEmpty)
        let trip = try #require(outcome.trip)
        #expect(trip == load(Self.minimal).trip)
    }

    /// Day hours of the wrong type, at the trip and at a stay: each named by its own path.
    @Test(arguments: [("true", "a boolean"), ("[4]", "an array"), ("{}", "an object")])
    func dayHoursOfTheWrongTypeNameTheirPath(_ value: String, _ kind: String) {
        let text = Self.minimal.replacingOccurrences(
            of: "\"title\": \"T\"", with: "\"title\": \"T\", \"day_hours\": \(value)"
        )
        .replacingOccurrences(
            of: "\"departure\": \"2026-12-05\"", with: "\"departure\": \"2026-12-05\", \"day_hours\": \(value)")
        let found = load(text).diagnostics.filter { $0.code == .wrongType }.map { $0.path ?? "" }
        #expect(found == ["day_hours", "destinations[0].day_hours"], "\(kind)")
    }

    @Test(arguments: [("5", "a number"), ("[1]", "an array"), ("\"SEK\"", "a string")])
    func ratesThatAreNotAnObjectAreAWrongType(_ value: String, _ kind: String) {
        let text = Self.minimal.replacingOccurrences(
            of: "\"title\": \"T\"", with: "\"title\": \"T\", \"rates\": \(value)")
        #expect(
            lines(load(text)) == [
                "trip.json:1:25: error: rates: must be an object of rates, not \(kind) [wrong-type]"
            ])
    }

    @Test func amountsKeepEveryDigit() throws {
        let text = """
            {"title": "T", "destinations": [{"name": "L", "location": {"lat": 0, "lon": 0},
              "arrival": "2026-12-01", "departure": "2026-12-05", "detours": [{"tasks": [
              {"name": "A", "duration": "1h", "cost": {"amount": 0.30000000000000004, "currency": "EUR"}},
              {"name": "B", "duration": "1h", "cost": {"amount": 0.1, "currency": "EUR"}}]}]}]}
            """
        let outcome = load(text)
        #expect(
            outcome.diagnostics.errors.first?.message
                == "amount 0.30000000000000004 has more than 6 digits after the point")
        let fine = load(text.replacingOccurrences(of: "0.30000000000000004", with: "999999999999.999999"))
        #expect(fine.trip?.destinations[0].detours[0].tasks[0].cost.amountText == "999999999999.999999")
    }
}

@Suite struct TravelAndPathReadingTests {
    static let base = """
        {"title": "T", "travel": "cycle", "destinations": [{"name": "Lisbon", "location": {"lat": 38.7223, "lon": -9.1393},
          "arrival": "2026-12-01", "departure": "2026-12-05", "detours": [{"tasks": [
            {"name": "Tram", "duration": "1h", "cost": {"amount": 3, "currency": "EUR"}, "travel": "transit",
             "location": {"lat": 38.7139, "lon": -9.1334},
             "path": [{"lat": 38.7223, "lon": -9.1393}, {"lat": 38.7166, "lon": -9.1357}, {"lat": 38.7139, "lon": -9.1334}]},
            {"name": "Walk", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
             "location": {"lat": 38.7118, "lon": -9.1300}}]}]}]}
        """

    func load(_ text: String) -> TripValidator.Outcome {
        TripLoader.load(Array(text.utf8), format: .json)
    }

    @Test func readsTheTripsModeATasksModeAndItsPath() throws {
        let trip = try #require(load(Self.base).trip)
        #expect(trip.travel == .cycle)
        let tasks = trip.destinations[0].detours[0].tasks
        #expect(tasks[0].travel == .transit)
        #expect(tasks[0].path?.points.count == 3)
        #expect(tasks[1].travel == nil)
        #expect(tasks[1].path == nil)
    }

    @Test func anUnknownModeIsAnErrorNamingTheField() {
        let outcome = load(Self.base.replacingOccurrences(of: "\"transit\"", with: "\"teleport\""))
        #expect(
            outcome.diagnostics.map { "\($0.path ?? ""): \($0.message)" }
                == [
                    "destinations[0].detours[0].tasks[0].travel: travel mode \"teleport\" is not one of walk, cycle, transit, drive"
                ])
    }

    @Test func pathPointsFollowTheLocationRules() {
        let outcome = load(
            Self.base.replacingOccurrences(
                of: "{\"lat\": 38.7166, \"lon\": -9.1357}", with: "{\"lat\": 98.7166, \"lon\": -9.1357}"))
        #expect(outcome.diagnostics.map(\.path) == ["destinations[0].detours[0].tasks[0].path[1].lat"])
        let short = load(
            Self.base.replacingOccurrences(
                of: ", {\"lat\": 38.7166, \"lon\": -9.1357}, {\"lat\": 38.7139, \"lon\": -9.1334}]", with: "]"))
        #expect(short.diagnostics.map(\.message) == ["a path needs at least two points, this one has 1"])
    }

    @Test func aPathThatStartsOrEndsFarAwayIsAWarning() throws {
        let far = Self.base.replacingOccurrences(
            of: "[{\"lat\": 38.7223, \"lon\": -9.1393}", with: "[{\"lat\": 38.80, \"lon\": -9.1393}")
        let outcome = load(far)
        #expect(outcome.trip != nil)
        #expect(outcome.diagnostics.map(\.message) == ["the path starts 8626 m from its destination (more than 1 km)"])
    }
}

@Suite struct LimitMessageTests {
    @Test func everyLimitIsAClearErrorNamingItsField() {
        let tight = ReadLimits(
            maxJSONBytes: 1000, maxGPXBytes: 5000, maxDepth: 4, trip: TripLimits(maxTextBytes: 20, maxDestinations: 1))
        let two = """
            {"title": "T", "destinations": [
              {"name": "A", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01", "departure": "2026-12-02"},
              {"name": "B", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01", "departure": "2026-12-02"}]}
            """
        func first(_ text: String, _ format: TripFormat = .json, limits: ReadLimits = tight) -> String {
            guard let diagnostic = TripLoader.load(Array(text.utf8), format: format, limits: limits).diagnostics.first
            else {
                return "no error"
            }
            return "\(diagnostic.path ?? "-"): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
        }
        #expect(
            first(two) == "destinations: the trip has 2 destinations, more than the limit of 1 [too-many-destinations]")
        #expect(
            first(#"{"title": "a very long title indeed, longer than twenty", "destinations": []}"#)
                == "title: the text is longer than 20 bytes, the limit for any text in a trip [text-too-long]")
        #expect(
            first("[[[[[[]]]]]]") == "-: nesting is too deep: more than 4 levels of arrays and objects [json-too-deep]")
        // The library says what the limit is; how to raise it is the command line's to say.
        #expect(
            first(String(repeating: " ", count: 1001) + "{}")
                == "-: the file is larger than the 0 MiB limit for a trip read whole (JSON) [file-too-large]")
        let gpx = GPXReaderTests.lisbon
        #expect(
            first(gpx, .gpx, limits: ReadLimits(trip: TripLimits(maxTextBytes: 10)))
                == "title: the text is longer than 10 bytes, the limit for any text in a trip [text-too-long]")
        let padded = gpx.replacingOccurrences(
            of: "<trk>", with: String(repeating: "<!-- padding -->", count: 400) + "<trk>")
        #expect(first(padded, .gpx, limits: ReadLimits(maxGPXBytes: 5000)).hasSuffix("limit for GPX [file-too-large]"))
    }
}

@Suite struct CompressedTripTests {
    @Test func aGzipCompressedJSONTripSaysSo() {
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]
        let outcome = TripLoader.load(gzip, format: .json)
        #expect(outcome.diagnostics.map(\.code) == [.compressedFile])
        #expect(outcome.diagnostics.first?.message.contains("gzip") == true)
    }
}

@Suite struct JSONShapeTests {
    @Test func aRootThatIsNotAnObjectIsNamedWithItsPosition() {
        let outcome = TripLoader.load(Array(#"  ["Lisbon"]"#.utf8), format: .json)
        #expect(
            outcome.diagnostics.map { DiagnosticText.line($0, file: "trip.json") } == [
                "trip.json:1:3: error: a trip must be an object, not an array [wrong-type]"
            ])
    }

    @Test func aMissingDepartureReadsWell() {
        let text =
            #"{"title": "T", "destinations": [{"name": "L", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01"}]}"#
        #expect(
            TripLoader.load(Array(text.utf8), format: .json).diagnostics.map(\.message) == [
                "a destination needs a departure day"
            ])
    }

    @Test func aTaskWithAPathButNoLocationIsNotWarnedAbout() {
        let text = """
            {"title": "T", "destinations": [{"name": "L", "location": {"lat": 38.7223, "lon": -9.1393},
              "arrival": "2026-12-01", "departure": "2026-12-02", "detours": [{"tasks": [
                {"name": "A", "duration": "1h", "cost": {"amount": 0, "currency": "EUR"},
                 "path": [{"lat": 38.7223, "lon": -9.1393}, {"lat": 38.7139, "lon": -9.1334}]},
                {"name": "B", "duration": "1h", "cost": {"amount": 0, "currency": "EUR"}}]}]}]}
            """
        #expect(
            TripLoader.load(Array(text.utf8), format: .json).diagnostics.map { "\($0.path ?? "") \($0.code.rawValue)" }
                == ["destinations[0].detours[0].tasks[1].location task-without-location"])
    }
}
