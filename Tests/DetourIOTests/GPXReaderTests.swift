import DetourCore
import DetourIO
import DetourJob
import Foundation
import Testing

@Suite struct GPXReaderTests {
    static func gpx(
        _ body: String,
        metadata: String =
            "<metadata><name>Lisbon in December</name><author><email id=\"ana\" domain=\"example.org\"/></author></metadata>"
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1">
        \(metadata)
        \(body)
        </gpx>
        """
    }

    static let lisbon = gpx(
        """
        <wpt lat="38.7223" lon="-9.1393"><name>Lisbon</name><type>destination</type>
          <extensions><dr:stay id="lisbon" arrival="2026-12-01" departure="2026-12-05"/></extensions></wpt>
        <wpt lat="38.7139" lon="-9.1334"><name>Ride Tram 28</name><type>task</type>
          <extensions><dr:task destination="lisbon" detour="tram-or-walk" duration="PT1H30M" cost="3.10" currency="EUR">
            <dr:pro>Iconic</dr:pro><dr:con>Crowded</dr:con></dr:task></extensions></wpt>
        <trk><name>ignored</name><trkseg><trkpt lat="1" lon="1"/></trkseg></trk>
        <wpt lat="38.7118" lon="-9.1300"><name>Walk the Alfama</name><type>task</type>
          <extensions><dr:task destination="lisbon" detour="tram-or-walk" duration="2h" cost="0" currency="EUR">
            <dr:pro>Free</dr:pro><dr:con>Steep</dr:con></dr:task></extensions></wpt>
        """)

    func load(_ text: String) -> TripValidator.Outcome {
        TripLoader.load(Array(text.utf8), format: .gpx)
    }

    func lines(_ outcome: TripValidator.Outcome) -> [String] {
        outcome.diagnostics.map { DiagnosticText.line($0, file: "trip.gpx") }
    }

    @Test func readsTheMappingIntoTheSameTripAsJSON() throws {
        let fromGPX = try #require(load(Self.lisbon).trip)
        let json = """
            {"title": "Lisbon in December", "traveler": "ana@example.org", "destinations": [
              {"name": "Lisbon", "location": {"lat": 38.7223, "lon": -9.1393}, "arrival": "2026-12-01",
               "departure": "2026-12-05", "detours": [{"tasks": [
                 {"name": "Ride Tram 28", "duration": "PT1H30M", "cost": {"amount": 3.10, "currency": "EUR"},
                  "location": {"lat": 38.7139, "lon": -9.1334}, "pros": ["Iconic"], "cons": ["Crowded"]},
                 {"name": "Walk the Alfama", "duration": "2h", "cost": {"amount": 0, "currency": "EUR"},
                  "location": {"lat": 38.7118, "lon": -9.1300}, "pros": ["Free"], "cons": ["Steep"]}]}]}]}
            """
        let fromJSON = try #require(TripLoader.load(Array(json.utf8), format: .json).trip)
        #expect(fromGPX == fromJSON)
    }

    @Test func valuesPassTheSameRulesWithTheWaypointAndLineNamed() {
        let text = Self.lisbon.replacingOccurrences(of: "duration=\"PT1H30M\"", with: "duration=\"PT\"")
        #expect(
            lines(load(text)) == [
                "trip.gpx:7: error: destinations[0].detours[0].tasks[0].duration: wpt 2 \"Ride Tram 28\": duration \"PT\" is not a duration (write PT1H30M, 1h30m, 90m or 2h) [bad-duration]"
            ])
    }

    /// A GPX file from another app holds no trip: one clear error that says so (the command
    /// line adds how to import its places), rather than a trip's missing fields and a message
    /// for its waypoints.
    @Test func aGPXFileFromAnotherAppHoldsNoTrip() {
        let cafes = String(repeating: "<wpt lat=\"1\" lon=\"2\"><name>Cafe</name></wpt>\n", count: 3)
        let outcome = load(Self.gpx(cafes))
        #expect(outcome.trip == nil)
        #expect(
            lines(outcome) == [
                "trip.gpx:2: error: the file holds no detour-report trip (no dr:trip, dr:stay or dr:task) [gpx-no-trip]"
            ])
        // A task alone is a trip whose stay is unknown, not a file without a trip.
        let orphan = load(Self.gpx(GPXShapeTests.task("Orphan")))
        #expect(orphan.diagnostics.map(\.code) == [.gpxUnknownStay])
        // With a dr:trip and no stay, it is an empty trip, as `"destinations": []` is.
        let empty = load(
            Self.gpx("", metadata: "<metadata><name>T</name><extensions><dr:trip/></extensions></metadata>"))
        #expect(empty.diagnostics.isEmpty)
        #expect(empty.trip?.destinations.isEmpty == true)
    }

    /// However much white space stands before the root, the file is read (the empty-file check
    /// once looked only at the first 4,096 bytes).
    @Test func whiteSpaceBeforeTheRootIsNotAnEmptyFile() throws {
        let text = String(repeating: " \n", count: 5000) + Self.lisbon.split(separator: "?>", maxSplits: 1)[1]
        #expect(load(text).trip?.title == "Lisbon in December")
        #expect(load(String(repeating: " \n", count: 5000)).diagnostics.map(\.code) == [.emptyFile])
    }

    @Test func namespacesMatchByURINeverByPrefix() throws {
        let renamed = Self.lisbon.replacingOccurrences(of: "dr:", with: "trip:")
            .replacingOccurrences(of: "xmlns:dr=", with: "xmlns:trip=")
        #expect(load(renamed).trip?.destinations.first?.detours.first?.tasks.count == 2)
        let wrongURI = Self.lisbon.replacingOccurrences(of: "urn:detour-report:gpx:1", with: "urn:other")
        #expect(load(wrongURI).trip == nil)
    }

    @Test(arguments: [
        "<!DOCTYPE gpx [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE gpx PUBLIC \"-//x//y\" \"http://127.0.0.1:9/gpx.dtd\">",
        "<!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\"><!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]>",
    ])
    func anyDoctypeIsRefusedBeforeAnEntityIsUsed(_ doctype: String) {
        let text = Self.lisbon.replacingOccurrences(of: "<gpx ", with: "\(doctype)\n<gpx ")
            .replacingOccurrences(of: "<name>Ride Tram 28</name>", with: "<name>&xxe;&ext;&h;</name>")
        let outcome = load(text)
        #expect(outcome.trip == nil)
        #expect(outcome.diagnostics.map(\.message).first?.hasPrefix("a DOCTYPE is not allowed") == true)
        #expect(!outcome.diagnostics.map(\.message).joined().contains("root:"))
    }

    @Test func syntaxErrorsComeWithLineAndColumnAndNothingReachesStandardError() {
        let outcome = load(Self.lisbon.replacingOccurrences(of: "</metadata>", with: "</metadatum>"))
        let line = lines(outcome).first ?? ""
        #expect(line.hasPrefix("trip.gpx:3:"))
        #expect(line.contains("error: XML: "))
    }

    @Test func deepNestingIsRefusedNotRaised() {
        let deep = String(repeating: "<x>", count: 5000) + String(repeating: "</x>", count: 5000)
        let outcome = load(
            Self.lisbon.replacingOccurrences(
                of: "<type>task</type>", with: "<type>task</type><extensions>\(deep)</extensions>"))
        #expect(outcome.diagnostics.first?.message.contains("nested too deeply") == true)
    }

    @Test func encodingsAreAcceptedOrRefusedByName() throws {
        var latin1 = Array(
            Self.lisbon.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
                .replacingOccurrences(of: "<name>Lisbon</name>", with: "<name>Z_rich</name>").utf8)
        let marker = try #require(latin1.firstIndex(of: UInt8(ascii: "_")))
        latin1[marker] = 0xFC  // ü in ISO-8859-1
        #expect(TripLoader.load(latin1, format: .gpx).trip?.destinations.first?.name == "Zürich")

        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in Self.lisbon.replacingOccurrences(of: "UTF-8", with: "UTF-16").utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(TripLoader.load(utf16, format: .gpx).trip != nil)

        let cp1252 = Self.lisbon.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"windows-1252\"")
        #expect(load(cp1252).diagnostics.first?.message.contains("\"windows-1252\" is not supported") == true)

        let bom = TextEncoding.utf8BOM + Array(Self.lisbon.utf8)
        #expect(TripLoader.load(bom, format: .gpx).trip != nil)
    }

    @Test func aWaypointThatIsNeitherIsIgnoredWithAWarning() {
        let text = Self.lisbon.replacingOccurrences(
            of: "<trk>", with: "<wpt lat=\"1\" lon=\"2\"><name>Cafe</name></wpt><trk>")
        let outcome = load(text)
        #expect(outcome.trip != nil)
        #expect(
            lines(outcome) == [
                "trip.gpx:9: warning: 1 waypoint has neither dr:stay nor dr:task and was read past; it is on line 9 [gpx-plain-waypoints]"
            ])
    }

    @Test func anEmptyFileSaysSo() {
        #expect(load("").diagnostics.first?.message.hasPrefix("the file is empty") == true)
    }

    @Test func detoursFollowFirstAppearanceAndTasksDocumentOrder() throws {
        let text = Self.gpx(
            """
            <wpt lat="0" lon="0"><name>Home</name><extensions><dr:stay id="h" arrival="2026-12-01" departure="2026-12-02"/></extensions></wpt>
            <wpt lat="0" lon="0.01"><name>B1</name><extensions><dr:task destination="h" detour="b" duration="1h" cost="1" currency="EUR"/></extensions></wpt>
            <wpt lat="0" lon="0.02"><name>A1</name><extensions><dr:task destination="h" detour="a" duration="1h" cost="1" currency="EUR"/></extensions></wpt>
            <wpt lat="0" lon="0.03"><name>B2</name><extensions><dr:task destination="h" detour="b" duration="1h" cost="1" currency="EUR"/></extensions></wpt>
            """)
        let trip = try #require(load(text).trip)
        #expect(trip.destinations[0].detours.map(\.title) == ["B1 or B2", "A1 or undecided"])
    }

    /// A task may come before its stay's waypoint: it waits for it and then takes its place in
    /// file order, before the tasks that came after the stay; detours keep their first
    /// appearance (a declared one, its declaration's), and a path may name a task that waited.
    @Test func tasksBeforeTheirStayKeepFileOrder() throws {
        func task(_ name: String, _ detour: String, lon: String) -> String {
            "<wpt lat=\"0\" lon=\"\(lon)\"><name>\(name)</name><extensions><dr:task destination=\"h\" detour=\"\(detour)\" duration=\"1h\" cost=\"1\" currency=\"EUR\"/></extensions></wpt>"
        }
        let text = Self.gpx(
            task("C1", "c", lon: "0.01") + task("B1", "b", lon: "0.02") + task("A1", "a", lon: "0.03")
                + "<wpt lat=\"0\" lon=\"0\"><name>Home</name><extensions><dr:stay id=\"h\" arrival=\"2026-12-01\" departure=\"2026-12-02\"/><dr:detour id=\"a\"/><dr:detour id=\"d\"/></extensions></wpt>"
                + task("B2", "b", lon: "0.04") + task("A2", "a", lon: "0.05") + task("E1", "e", lon: "0.06")
                + "<rte><extensions><dr:path destination=\"h\" task=\"B1\"/></extensions><rtept lat=\"0\" lon=\"0\"/><rtept lat=\"0\" lon=\"0.02\"/></rte>"
        )
        let trip = try #require(load(text).trip)
        #expect(
            trip.destinations[0].detours.map(\.title)
                == ["C1 or undecided", "B1 or B2", "A1 or A2", "Undecided detour", "E1 or undecided"])
        #expect(trip.destinations[0].detours[1].tasks[0].path?.points.count == 2)
    }

    /// A `dr:rate` without its currency is named, not dropped (a JSON rate is keyed by it).
    @Test func aRateWithoutItsCurrencyIsAnError() {
        let text = Self.lisbon.replacingOccurrences(
            of: "<metadata>",
            with: "<metadata><extensions><dr:trip currency=\"EUR\"><dr:rate value=\"0.1\"/></dr:trip></extensions>")
        #expect(
            lines(load(text)).contains {
                $0.hasSuffix("error: rates: dr:rate: a rate needs a currency [missing-field]")
            })
        #expect(load(text).trip == nil)
    }

    @Test func aTaskForAnUnknownStayIsAnError() {
        let text = Self.lisbon.replacingOccurrences(
            of: "destination=\"lisbon\" detour=\"tram-or-walk\" duration=\"2h\"",
            with: "destination=\"porto\" detour=\"tram-or-walk\" duration=\"2h\"")
        #expect(
            lines(load(text)).contains(
                "trip.gpx:11: error: wpt 3 \"Walk the Alfama\": destination \"porto\" is not the id of any dr:stay [gpx-unknown-stay]"
            ))
    }
}

@Suite struct GPXPathTests {
    static let trip = GPXReaderTests.gpx(
        """
        <wpt lat="38.7223" lon="-9.1393"><name>Lisbon</name><extensions><dr:stay id="lisbon" arrival="2026-12-01" departure="2026-12-05"/></extensions></wpt>
        <wpt lat="38.7139" lon="-9.1334"><name>Tram</name><extensions><dr:task destination="lisbon" detour="d" duration="1h" cost="3" currency="EUR" travel="transit"/></extensions></wpt>
        <wpt lat="38.7118" lon="-9.1300"><name>Walk</name><extensions><dr:task destination="lisbon" detour="d" duration="2h" cost="0" currency="EUR"/></extensions></wpt>
        <trk><name>Some other track</name><trkseg><trkpt lat="1" lon="1"/><trkpt lat="2" lon="2"/></trkseg></trk>
        <trk><name>Tram line</name><extensions><dr:path destination="lisbon" task="Tram"/></extensions>
          <trkseg><trkpt lat="38.7223" lon="-9.1393"><ele>50</ele></trkpt><trkpt lat="38.7166" lon="-9.1357"/></trkseg>
          <trkseg><trkpt lat="38.7139" lon="-9.1334"/></trkseg></trk>
        """,
        metadata: "<metadata><name>T</name><extensions><dr:trip travel=\"cycle\"/></extensions></metadata>")

    func load(_ text: String) -> TripValidator.Outcome {
        TripLoader.load(Array(text.utf8), format: .gpx)
    }

    @Test func aTrackMarkedWithDrPathIsItsTasksPathAndOthersAreReadPast() throws {
        let outcome = load(Self.trip)
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        let trip = try #require(outcome.trip)
        #expect(trip.travel == .cycle)
        let tasks = trip.destinations[0].detours[0].tasks
        #expect(tasks[0].travel == .transit)
        #expect(tasks[0].path?.points.count == 3)
        #expect(tasks[1].path == nil)
    }

    @Test func aPathForAnUnknownTaskIsAnError() {
        let outcome = load(Self.trip.replacingOccurrences(of: "task=\"Tram\"", with: "task=\"Bus\""))
        #expect(outcome.diagnostics.map(\.message) == ["task \"Bus\" is not a task of \"lisbon\""])
    }

    @Test func pathPointsFollowTheLocationRules() {
        let outcome = load(
            Self.trip.replacingOccurrences(of: "<trkpt lat=\"38.7166\"", with: "<trkpt lat=\"138.7166\""))
        #expect(
            outcome.diagnostics.map { "\($0.path ?? ""): \($0.fullMessage)" }
                == ["destinations[0].detours[0].tasks[0].path[1].lat: trk 2: latitude 138.7166 is outside [-90, 90]"])
    }
}

/// What only the GPX mapping can get wrong: each is reported by the reader, naming the element.
@Suite struct GPXShapeTests {
    static func stay(_ extra: String = "") -> String {
        "<wpt lat=\"38.7\" lon=\"-9.1\"><name>Lisbon</name><extensions><dr:stay id=\"l\" arrival=\"2026-12-01\" departure=\"2026-12-05\"\(extra)/></extensions></wpt>"
    }

    static func task(_ name: String, _ attributes: String = "", body: String = "") -> String {
        "<wpt lat=\"38.71\" lon=\"-9.13\"><name>\(name)</name><extensions><dr:task destination=\"l\" detour=\"d\" duration=\"1h\" cost=\"1\" currency=\"EUR\"\(attributes)>\(body)</dr:task></extensions></wpt>"
    }

    /// Each diagnostic as `LINE code: message`; the body is on line 4 of the document.
    func found(_ body: String) -> [String] {
        TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx).diagnostics.map {
            "\($0.position?.line.map(String.init) ?? "-") \($0.code.rawValue): \($0.fullMessage)"
        }
    }

    @Test func anInvalidSideIsAnErrorNamingTheWaypoint() {
        #expect(
            found(Self.stay() + Self.task("Tram", " side=\"3\"") + Self.task("Walk"))
                == ["4 gpx-bad-side: wpt 2 \"Tram\": side \"3\" is not 1 (the left side) or 2 (the right)"])
    }

    @Test func twoTasksOnOneSideIsAnError() {
        #expect(
            found(Self.stay() + Self.task("Tram", " side=\"1\"") + Self.task("Walk", " side=\"1\""))
                == ["4 gpx-duplicate-side: wpt 3 \"Walk\": another task of this detour is side 1 already"])
    }

    @Test func sidesPlaceTheirTasksAndTheRestFillIn() throws {
        let body = Self.stay() + Self.task("Tram") + Self.task("Walk", " side=\" 1 \"")
        let trip = try #require(TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx).trip)
        #expect(trip.destinations.first?.detours.first?.title == "Walk or Tram")
    }

    @Test func twoStaysInOneWaypointIsAnError() {
        let body = Self.stay().replacingOccurrences(of: "</extensions>", with: "<dr:stay id=\"m\"/></extensions>")
        #expect(
            found(body) == [
                "4 gpx-two-stays: wpt 1 \"Lisbon\": a waypoint is one stay, but this one has a second dr:stay"
            ])
    }

    @Test func twoPathsForOneTaskIsAnError() {
        let route =
            "<rte><extensions><dr:path destination=\"l\" task=\"Tram\"/></extensions><rtept lat=\"38.7\" lon=\"-9.1\"/><rtept lat=\"38.71\" lon=\"-9.13\"/></rte>"
        #expect(
            found(Self.stay() + Self.task("Tram") + Self.task("Walk") + "\n" + route + "\n" + route)
                == ["6 gpx-two-paths: rte 2: task \"Tram\" has a path already; a task has one path"])
    }

    @Test func unknownAttributesAndElementsAreWarningsNamingThem() {
        let body =
            Self.stay(" colour=\"red\"")
            + Self.task("Tram", " dr:speed=\"3\" durration=\"2h\"", body: "<dr:tip>x</dr:tip>")
            + Self.task("Walk")
        #expect(
            found(body) == [
                "4 unknown-attribute: wpt 1 \"Lisbon\": unknown attribute \"colour\" on dr:stay, ignored (allowed here: \"day-hours\", \"id\", \"arrival\", \"departure\")",
                "4 unknown-attribute: wpt 2 \"Tram\": unknown attribute \"dr:speed\" on dr:task, ignored (allowed here: \"side\", \"travel\", \"detour\", \"duration\", \"id\", \"name\", \"cost\", \"currency\", \"destination\")",
                "4 unknown-attribute: wpt 2 \"Tram\": unknown attribute \"durration\" on dr:task, ignored; did you mean \"duration\"? (allowed here: \"duration\", \"destination\", \"currency\", \"detour\", \"travel\", \"id\", \"name\", \"side\", \"cost\")",
                "4 unknown-element: wpt 2 \"Tram\": unknown element dr:tip in dr:task, ignored (allowed here: \"pro\", \"con\")",
            ])
    }

    @Test func anElementInsideATextElementIsAnErrorNotLostText() {
        #expect(
            found(Self.stay() + Self.task("Tram", body: "<dr:pro>Fun <b>really</b></dr:pro>") + Self.task("Walk"))
                == [
                    "4 gpx-element-in-text: wpt 2 \"Tram\": <b> inside <dr:pro>: it takes text only, so its text would be lost"
                ])
    }

    /// One warning however many there are, with the count grouped by thousands from 1,000 on
    /// (999 has no comma, 1,000 has one) and the singular for one.
    @Test(arguments: [
        (1, "1 waypoint has neither dr:stay nor dr:task and was read past; it is on line 5"),
        (999, "999 waypoints have neither dr:stay nor dr:task and were read past; the first is on line 5"),
        (1000, "1,000 waypoints have neither dr:stay nor dr:task and were read past; the first is on line 5"),
        (1204, "1,204 waypoints have neither dr:stay nor dr:task and were read past; the first is on line 5"),
    ])
    func plainWaypointsAreOneWarningWithTheirCountAndTheFirstLine(count: Int, message: String) {
        let plain = (1...count).map { "<wpt lat=\"1\" lon=\"\($0 % 180)\"><name>P\($0)</name></wpt>" }.joined(
            separator: "\n")
        #expect(
            found(Self.stay() + Self.task("Tram") + Self.task("Walk") + "\n" + plain) == [
                "5 gpx-plain-waypoints: " + message
            ])
    }

    @Test func numbersFollowXMLSchemaWhiteSpace() throws {
        let body =
            Self.stay().replacingOccurrences(of: "lat=\"38.7\"", with: "lat=\" 38.7\n\"")
            + Self.task("Tram", "")
            .replacingOccurrences(of: "cost=\"1\"", with: "cost=\"\t1.50 \"") + Self.task("Walk")
        let trip = try #require(TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx).trip)
        #expect(trip.destinations.first?.location.latitude == 38.7)
        #expect(trip.destinations.first?.detours.first?.tasks.first?.cost.amountText == "1.50")
    }

    @Test func aRootInTheWrongNamespaceNamesBothNamespaces() {
        let text = GPXReaderTests.lisbon.replacingOccurrences(
            of: "xmlns=\"http://www.topografix.com/GPX/1/1\"", with: "xmlns=\"http://example.org/gpx\"")
        let messages = TripLoader.load(Array(text.utf8), format: .gpx).diagnostics.map(\.message)
        #expect(
            messages == [
                "this is not a GPX file: its root <gpx> is in the namespace \"http://example.org/gpx\", not GPX 1.1's "
                    + "\"http://www.topografix.com/GPX/1/1\" or 1.0's \"http://www.topografix.com/GPX/1/0\""
            ])
    }

    @Test func anElementWithTensOfThousandsOfAttributesIsRefusedAtOnce() {
        let attributes = (0..<50_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let text = GPXReaderTests.lisbon.replacingOccurrences(
            of: "<trk>", with: "<wpt lat=\"1\" lon=\"2\"\n \(attributes)/><trk>")
        let diagnostics = TripLoader.load(Array(text.utf8), format: .gpx).diagnostics
        // libxml2 takes quadratic time over one tag's attributes (about five seconds on this one).
        // The code is the guard's, which scans the bytes before libxml2 is handed them: had
        // libxml2 parsed the tag, its own error or a trip would have come back instead.
        #expect(diagnostics.map(\.code) == [.xmlTooManyAttributes])
        #expect(diagnostics.first?.position?.line == 9)
    }

    @Test func attributesInsideCommentsCDATAAndValuesAreNotCounted() throws {
        let many = (0..<300).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let text = GPXReaderTests.lisbon.replacingOccurrences(
            of: "<trk>",
            with:
                "<!-- <x \(many)> --><wpt lat=\"1\" lon=\"2\"><desc><![CDATA[<x \(many)>]]></desc><cmt>\(many.replacingOccurrences(of: "\"", with: ""))</cmt></wpt><trk>"
        )
        #expect(TripLoader.load(Array(text.utf8), format: .gpx).trip != nil)
    }

    /// Reading a path of 4n points takes about four times as long as one of n, not sixteen: the
    /// fastest of three runs each, with a margin wide enough for a busy machine (copying the
    /// path at every point once made 100,000 points take 50 s, a ratio of 16).
    @Test func aLongPathIsReadInLinearTime() throws {
        func document(points count: Int) -> [UInt8] {
            let points = (0..<count).map { "<rtept lat=\"38.7\" lon=\"\(-9.1 + Double($0) * 1e-7)\"/>" }.joined()
            let route = "<rte><extensions><dr:path destination=\"l\" task=\"Tram\"/></extensions>\(points)</rte>"
            return Array(GPXReaderTests.gpx(Self.stay() + Self.task("Tram") + Self.task("Walk") + route).utf8)
        }
        func fastest(points count: Int) throws -> Duration {
            let (bytes, clock) = (document(points: count), ContinuousClock())
            var times: [Duration] = []
            for _ in 0..<3 {
                var trip: Trip?
                times.append(clock.measure { trip = TripLoader.load(bytes, format: .gpx).trip })
                #expect(try #require(trip).destinations.first?.detours.first?.tasks.first?.path?.points.count == count)
            }
            return times.min() ?? .zero
        }
        let (small, large) = (try fastest(points: 25_000), try fastest(points: 100_000))
        #expect(large / small < 9, "25,000 points: \(small); 100,000 points: \(large)")
    }

    @Test func thePathPointLimitIsTheTripsAsInJSON() {
        let limits = ReadLimits(trip: TripLimits(maxPathPoints: 3))
        let route = { (task: String) in
            "<rte><extensions><dr:path destination=\"l\" task=\"\(task)\"/></extensions><rtept lat=\"38.7\" lon=\"-9.1\"/><rtept lat=\"38.71\" lon=\"-9.13\"/></rte>"
        }
        let body = Self.stay() + Self.task("Tram") + Self.task("Walk") + route("Tram") + route("Walk")
        let outcome = TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx, limits: limits)
        #expect(
            outcome.diagnostics.map { "\($0.path ?? "-") \($0.code.rawValue)" }
                == ["destinations[0].detours[0].tasks[1].path too-many-path-points"])
    }

    @Test func routesAndTracksAreCountedApart() {
        let track = "<trk><name>t</name></trk>"
        let route = "<rte><extensions><dr:path destination=\"l\" task=\"Nope\"/></extensions></rte>"
        #expect(
            found(Self.stay() + Self.task("Tram") + Self.task("Walk") + track + route)
                == ["4 gpx-unknown-path-task: rte 1: task \"Nope\" is not a task of \"l\""])
    }

    @Test func aDetourWithoutAnIDIsAnError() {
        let body = Self.stay().replacingOccurrences(of: "</extensions>", with: "<dr:detour/></extensions>")
        #expect(
            found(body) == [
                "4 gpx-missing-attribute: wpt 1 \"Lisbon\": dr:detour needs an id attribute: the detour key its tasks name"
            ])
    }

    @Test func bytesThatAreNotUTF8AreNamedSo() {
        var bytes = Array(GPXReaderTests.lisbon.utf8)
        if let index = bytes.firstIndex(of: UInt8(ascii: "L")) { bytes[index] = 0xE3 }
        let outcome = TripLoader.load(bytes, format: .gpx)
        #expect(outcome.diagnostics.map(\.code) == [.invalidUTF8])
        #expect(outcome.diagnostics.first?.position?.line == 3)
    }
}
