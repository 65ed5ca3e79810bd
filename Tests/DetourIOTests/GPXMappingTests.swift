import DetourCore
import DetourIO
import Testing

/// What the GPX reader makes of each part of the mapping that a trip may leave out or get
/// wrong: attributes missing from GPX's own elements, elements of other vocabularies, and `dr:`
/// elements where the mapping has none.
@Suite struct GPXMappingTests {
    typealias Shape = GPXShapeTests

    /// Each diagnostic as `LINE code: message`; the body is on line 4 of the document.
    func found(_ body: String, metadata: String? = nil, limits: ReadLimits = .standard) -> [String] {
        let text = metadata.map { GPXReaderTests.gpx(body, metadata: $0) } ?? GPXReaderTests.gpx(body)
        return TripLoader.load(Array(text.utf8), format: .gpx, limits: limits).diagnostics.map {
            "\($0.position?.line.map(String.init) ?? "-") \($0.code.rawValue): \($0.fullMessage)"
        }
    }

    /// `GPXShapeTests.stay()` with `children` inside its `dr:stay`.
    static func stay(holding children: String) -> String {
        Shape.stay().replacingOccurrences(of: "\"/></extensions>", with: "\">\(children)</dr:stay></extensions>")
    }

    /// The draft the reader makes of `text`, before any rule is applied.
    func draft(_ text: String) throws -> TripDraft {
        try #require(TripGPXReader.read(BufferSource(Array(text.utf8))).draft)
    }

    /// GPX's `<email id= domain=/>` is the traveler, whichever half is written; neither is none.
    @Test(arguments: [
        ("<email id=\"ana\" domain=\"example.org\"/>", "ana@example.org"),
        ("<email id=\"ana\"/>", "ana@"),
        ("<email domain=\"example.org\"/>", "@example.org"),
        ("<email/>", nil),
    ])
    func theTravelerIsTheEmailsIdAndDomain(_ email: String, _ traveler: String?) throws {
        let metadata =
            "<metadata><name>T</name><author>\(email)</author><extensions><dr:trip/></extensions></metadata>"
        #expect(try draft(GPXReaderTests.gpx("", metadata: metadata)).traveler.value == traveler)
    }

    @Test func anEmailWithHalfMissingIsNotAnEmailAddress() {
        let metadata = "<metadata><name>T</name><author><email domain=\"example.org\"/></author></metadata>"
        #expect(
            found(Shape.stay(), metadata: metadata) == [
                "3 bad-email: \"@example.org\" is not an email address: it needs one character either side of an \"@\", and a \".\" between two characters after it"
            ])
    }

    @Test func aWaypointWithoutALongitudeIsADestinationWithoutOne() {
        let stay = Shape.stay().replacingOccurrences(of: " lon=\"-9.1\"", with: "")
        #expect(found(stay) == ["4 missing-field: wpt 1 \"Lisbon\": a location needs a longitude"])
    }

    @Test func aRoutePointWithoutALatitudeOrALongitudeIsAPathPointWithoutOne() {
        let route =
            "<rte><extensions><dr:path destination=\"l\" task=\"Tram\"/></extensions>"
            + "<rtept lon=\"-9.1\"/>\n<rtept lat=\"38.71\"/></rte>"
        #expect(
            found(Shape.stay() + Shape.task("Tram") + Shape.task("Walk") + "\n" + route) == [
                "5 missing-field: rte 1: a location needs a latitude",
                "6 missing-field: rte 1: a location needs a longitude",
            ])
    }

    /// A stay with neither an id nor a name is known by the empty id, so a second such stay
    /// is one id twice.
    @Test func staysWithNeitherIdNorNameShareTheEmptyId() {
        let nameless = Shape.stay().replacingOccurrences(of: "<name>Lisbon</name>", with: "")
            .replacingOccurrences(of: " id=\"l\"", with: "")
        #expect(
            found(nameless + "\n" + nameless) == [
                "4 missing-field: wpt 1: a destination needs a name",
                "5 gpx-duplicate-stay-id: wpt 2: stay id \"\" is already used by wpt 1",
            ])
    }

    /// Elements of other vocabularies are read past wherever they stand, even when their local
    /// name is one of the mapping's: the trip is the one without them.
    @Test func elementsOfOtherVocabulariesAreReadPastUnopened() throws {
        func trip(_ foreign: (String) -> String) throws -> Trip {
            let metadata =
                "<metadata>\(foreign("<x:name>Other</x:name>"))<name>T</name><extensions><dr:trip currency=\"EUR\">"
                + foreign("<x:rate currency=\"SEK\" value=\"0.1\"/><x:budget amount=\"1\" currency=\"EUR\"/>")
                + "</dr:trip></extensions></metadata>"
            let body =
                Self.stay(holding: foreign("<x:budget amount=\"5\" currency=\"EUR\"/>"))
                .replacingOccurrences(of: "<name>", with: foreign("<x:name>Porto</x:name>") + "<name>")
                + Shape.task("Tram", body: foreign("<x:pro>Other</x:pro>") + "<dr:pro>Fun</dr:pro>")
                + Shape.task("Walk")
            let text = GPXReaderTests.gpx(body, metadata: metadata)
                .replacingOccurrences(of: "xmlns:dr=", with: "xmlns:x=\"urn:x\" xmlns:dr=")
            let outcome = TripLoader.load(Array(text.utf8), format: .gpx)
            #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
            return try #require(outcome.trip)
        }
        let plain = try trip { _ in "" }
        #expect(try trip { $0 } == plain)
        #expect(plain.title == "T")
        #expect(plain.destinations.first?.detours.first?.tasks.first?.pros == ["Fun"])
    }

    /// A `dr:` element where the mapping has none is a warning naming where it stands; what it
    /// holds is read past.
    @Test(arguments: [
        ("metadata", "<dr:trip/><dr:note>x</dr:note>", "metadata extensions"),
        ("trip", "<dr:note/>", "dr:trip"),
        ("waypoint", "<dr:note/>", "a waypoint's extensions"),
        ("stay", "<dr:note/>", "dr:stay"),
        ("route", "<dr:note/>", "route extensions"),
    ])
    func aMappingElementOutOfPlaceIsAWarningNamingThePlace(_ place: String, _ element: String, _ named: String) {
        var metadata = "<metadata><name>T</name><extensions><dr:trip/></extensions></metadata>"
        var body = Shape.stay() + Shape.task("Tram") + Shape.task("Walk")
        switch place {
        case "metadata":
            metadata = metadata.replacingOccurrences(of: "<dr:trip/>", with: element)
        case "trip":
            metadata = metadata.replacingOccurrences(of: "<dr:trip/>", with: "<dr:trip>\(element)</dr:trip>")
        case "waypoint":
            body =
                Shape.stay().replacingOccurrences(of: "</extensions>", with: "\(element)</extensions>")
                + Shape.task("Tram") + Shape.task("Walk")
        case "stay":
            body = Self.stay(holding: element) + Shape.task("Tram") + Shape.task("Walk")
        default:
            body += "<rte><extensions>\(element)</extensions></rte>"
        }
        let label = place == "waypoint" || place == "stay" ? "wpt 1 \"Lisbon\": " : ""
        let line = place == "metadata" || place == "trip" ? 3 : 4
        let allowed = [
            "metadata": #""trip""#, "trip": #""rate", "budget""#, "waypoint": #""stay", "task", "detour""#,
            "stay": #""budget""#, "route": #""path""#,
        ]
        #expect(
            found(body, metadata: metadata) == [
                "\(line) unknown-element: \(label)unknown element dr:note in \(named), ignored (allowed here: \(allowed[place] ?? ""))"
            ])
    }
}

/// How stays, detours, tasks and paths name each other, and each way the names can fail to meet.
@Suite struct GPXReferenceTests {
    typealias Shape = GPXShapeTests

    func found(_ body: String, metadata: String? = nil, limits: ReadLimits = .standard) -> [String] {
        GPXMappingTests().found(body, metadata: metadata, limits: limits)
    }

    func trip(_ body: String) throws -> Trip {
        try #require(TripLoader.load(Array(GPXReaderTests.gpx(body).utf8), format: .gpx).trip)
    }

    static func route(_ path: String, points: Int = 2) -> String {
        let points = (0..<points).map { "<rtept lat=\"38.7\" lon=\"-9.1\($0)\"/>" }.joined()
        return "<rte><extensions>\(path)</extensions>\(points)</rte>"
    }

    @Test func twoStaysWithOneIdIsAnErrorAndTheSecondIsLeftOut() throws {
        let porto = Shape.stay().replacingOccurrences(of: "Lisbon", with: "Porto")
        #expect(
            found(Shape.stay() + "\n" + porto) == [
                "5 gpx-duplicate-stay-id: wpt 2 \"Porto\": stay id \"l\" is already used by wpt 1 \"Lisbon\""
            ])
    }

    /// A detour declared twice (its key as a token, so white space around it is no difference)
    /// is one detour.
    @Test func aDetourDeclaredTwiceIsOneDetour() throws {
        let stay = Shape.stay().replacingOccurrences(
            of: "</extensions>", with: "<dr:detour id=\"a\"/><dr:detour id=\" a \"/><dr:detour id=\"b\"/></extensions>")
        let trip = try trip(stay)
        #expect(trip.destinations.first?.detours.map(\.tasks.count) == [0, 0])
    }

    @Test(arguments: [
        (" destination=\"l\"", "a detour attribute: tasks with the same detour key are its two sides"),
        (" detour=\"d\"", "a destination attribute naming the id of a dr:stay"),
        ("", "a destination attribute naming the id of a dr:stay"),
    ])
    func aTaskMustNameItsStayAndItsDetour(_ kept: String, _ needs: String) {
        let task = Shape.task("Tram").replacingOccurrences(of: " destination=\"l\" detour=\"d\"", with: kept)
        #expect(
            found(Shape.stay() + "\n" + task).contains(
                "5 gpx-missing-attribute: wpt 2 \"Tram\": dr:task needs \(needs)"))
    }

    @Test(arguments: [
        (
            "<dr:path task=\"Tram\"/>",
            "gpx-missing-attribute: rte 1: dr:path needs destination and task attributes naming a stay and one of its tasks"
        ),
        (
            "<dr:path destination=\"l\"/>",
            "gpx-missing-attribute: rte 1: dr:path needs destination and task attributes naming a stay and one of its tasks"
        ),
        (
            "<dr:path destination=\" x \" task=\"Tram\"/>",
            "gpx-unknown-stay: rte 1: destination \"x\" is not the id of any dr:stay"
        ),
        (
            "<dr:path destination=\"l\" task=\"Walk\"/>",
            "gpx-ambiguous-path-task: rte 1: task \"Walk\" names 2 tasks; give the dr:task an id attribute"
        ),
    ])
    func aPathMustNameAStayAndExactlyOneOfItsTasks(_ path: String, _ expected: String) {
        let body =
            Shape.stay() + Shape.task("Tram") + Shape.task("Walk")
            + Shape.task("Walk").replacingOccurrences(of: "detour=\"d\"", with: "detour=\"e\"")
            + Shape.task("Bus").replacingOccurrences(of: "detour=\"d\"", with: "detour=\"e\"")
        #expect(found(body + "\n" + Self.route(path)) == ["5 " + expected])
    }

    /// An id names a path's task even where names repeat.
    @Test func aPathNamesItsTaskByIdBeforeName() throws {
        let body =
            Shape.stay() + Shape.task("Walk", " id=\"w1\"") + Shape.task("Walk")
            + Self.route("<dr:path destination=\"l\" task=\"w1\"/>")
        let tasks = try trip(body).destinations.first?.detours.first?.tasks
        #expect(tasks?.map { $0.path?.points.count } == [2, nil])
    }

    @Test(arguments: ["rte", "trk"])
    func twoPathElementsInOneRouteOrTrackIsAnError(_ kind: String) throws {
        let paths = "<dr:path destination=\"l\" task=\"Tram\"/><dr:path destination=\"l\" task=\"Walk\"/>"
        let point = kind == "rte" ? "rtept" : "trkpt"
        let ends = "<\(point) lat=\"38.7\" lon=\"-9.1\"/><\(point) lat=\"38.71\" lon=\"-9.13\"/>"
        let points = kind == "rte" ? ends : "<trkseg>\(ends)</trkseg>"
        let body =
            Shape.stay() + Shape.task("Tram") + Shape.task("Walk") + "\n"
            + "<\(kind)><extensions>\(paths)</extensions>\(points)</\(kind)>"
        #expect(
            found(body) == [
                "5 gpx-two-paths: \(kind) 1 has two dr:path elements; a route or track is the path of one task"
            ])
    }

    @Test func aSecondBudgetIsAnErrorAndTheFirstIsKept() {
        let metadata =
            "<metadata><name>T</name><extensions><dr:trip><dr:budget amount=\"100\" currency=\"EUR\"/>"
            + "<dr:budget amount=\"200\" currency=\"EUR\"/></dr:trip></extensions></metadata>"
        let stay = GPXMappingTests.stay(
            holding: "<dr:budget amount=\"10\" currency=\"EUR\"/><dr:budget amount=\"20\" currency=\"EUR\"/>")
        let text = GPXReaderTests.gpx(stay + Shape.task("Tram") + Shape.task("Walk"), metadata: metadata)
        let outcome = TripLoader.load(Array(text.utf8), format: .gpx)
        #expect(
            outcome.diagnostics.map { "\($0.position?.line ?? 0) \($0.code.rawValue): \($0.fullMessage)" } == [
                "3 gpx-duplicate-element: dr:trip holds one dr:budget, and this is a second",
                "4 gpx-duplicate-element: wpt 1 \"Lisbon\": dr:stay holds one dr:budget, and this is a second",
            ])
        // An error in the reader withholds the trip; the draft shows which budgets were kept.
        let draft = TripGPXReader.read(BufferSource(Array(text.utf8))).draft
        #expect(draft?.budget.value?.amount.value == "100")
        #expect(draft?.destinations.value?.first?.budget.value?.amount.value == "10")
    }

    /// A task that comes before its stay keeps its place before the later tasks, and a later
    /// task's side still points at that task, not at the one now before it.
    @Test func aSideNamedAfterTheStayStillPointsAtItsTask() throws {
        let early = Shape.task("Tram")
        let late = Shape.task("Walk", " side=\"1\"")
        #expect(try trip(early + Shape.stay() + late).destinations.first?.detours.first?.title == "Walk or Tram")
        #expect(try trip(Shape.stay() + early + late).destinations.first?.detours.first?.title == "Walk or Tram")
    }

    /// Past the trip's limit a path's points are counted, not kept: the count refuses it.
    @Test func aPathPastThePointLimitIsRefusedByItsCount() throws {
        let limits = ReadLimits(trip: TripLimits(maxPathPoints: 3))
        let body =
            Shape.stay() + Shape.task("Tram") + Shape.task("Walk")
            + Self.route("<dr:path destination=\"l\" task=\"Tram\"/>", points: 6)
        #expect(
            found(body, limits: limits) == [
                "4 too-many-path-points: rte 1: paths hold more than 3 points in all, the limit"
            ])
    }
}
