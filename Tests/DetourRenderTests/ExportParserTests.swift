import DetourCore
import DetourIO
import DetourRender
import DetourTestSupport
import Foundation
import Testing

/// The exports as other programs read them: every sample's calendar through Python's
/// `icalendar` and every sample's map through Python's `geojson` validator, compared with the plan.
@Suite struct ExportParserTests {
    /// Runs a Python script on `bytes` (passed as a file) and decodes what it prints as JSON.
    static func python(_ script: String, on bytes: [UInt8]) throws -> [String: Any] {
        let python = try #require(Tool.path("python3"), "python3 is not on PATH")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("detour-export-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CommandRunner(executable: URL(fileURLWithPath: python)).run(["-c", script, file.path])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.output)")
    }

    static let readCalendar = """
        import sys, json, icalendar
        # icalendar leaves an unknown X- property as written; X-WR-CALNAME is TEXT by custom.
        icalendar.Calendar.types_factory.types_map["x-wr-calname"] = "text"
        calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
        errors = [str(e) for c in calendar.walk() for e in getattr(c, "errors", [])]
        events = []
        for event in calendar.walk("VEVENT"):
            start, end = event.decoded("dtstart"), event.decoded("dtend")
            geo = event.get("geo")
            events.append({
                "uid": str(event.get("uid")), "summary": str(event.get("summary")),
                "description": str(event.get("description")),
                "location": str(event.get("location")) if event.get("location") is not None else None,
                "start": start.isoformat(), "end": end.isoformat(), "stamp": event.decoded("dtstamp").isoformat(),
                "all_day": type(start).__name__ == "date" and type(end).__name__ == "date",
                "geo": [geo.latitude, geo.longitude] if geo is not None else None,
            })
        print(json.dumps({"prodid": str(calendar.get("prodid")), "version": str(calendar.get("version")),
                          "name": str(calendar.get("x-wr-calname")), "errors": errors, "events": events}))
        """

    static let readMap = """
        import sys, json, geojson
        text = open(sys.argv[1], encoding="utf-8").read()
        collection = geojson.loads(text)
        raw = json.loads(text)
        problems = []
        def check(position):
            if len(position) != 2: problems.append("position %r is not [lon, lat]" % (position,))
            elif not (-180 <= position[0] <= 180 and -90 <= position[1] <= 90):
                problems.append("position %r is out of range" % (position,))
        def check_line(line):
            for position in line: check(position)
            for a, b in zip(line, line[1:]):
                if abs(b[0] - a[0]) > 180: problems.append("a line crosses the antimeridian at %r" % (a,))
        for feature in raw["features"]:
            geometry = feature["geometry"]
            if geometry["type"] == "Point": check(geometry["coordinates"])
            elif geometry["type"] == "LineString": check_line(geometry["coordinates"])
            elif geometry["type"] == "MultiLineString":
                for line in geometry["coordinates"]: check_line(line)
            else: problems.append("unexpected geometry " + geometry["type"])
        print(json.dumps({"type": collection["type"], "valid": collection.is_valid,
                          "errors": str(collection.errors()), "problems": problems, "features": raw["features"]}))
        """

    /// A trip with no stays has no event, and RFC 5545 (§3.6) wants a calendar to hold at least
    /// one component: it holds a journal entry, which icalendar reads and calendars do not show.
    @Test(
        .enabled(
            if: Tool.pythonModuleUsable("icalendar"), "needs Python's icalendar (python3 -m pip install icalendar)"))
    func aTripWithNoStaysIsStillAValidCalendar() throws {
        let (plan, _) = try RenderFixture.plan(Array(#"{"title": "Someday", "destinations": []}"#.utf8))
        let bytes = ICSExport.bytes(plan: plan)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\r\nBEGIN:VJOURNAL\r\n"))
        #expect(text.contains("\r\nSUMMARY:Someday: no stays yet\r\n"))
        let parsed = try Self.python(Self.readCalendar, on: bytes)
        #expect(parsed["errors"] as? [String] == [])
        #expect((parsed["events"] as? [Any])?.isEmpty == true)
    }

    /// Every stay and every scheduled side, as the parser reads them, says what the plan says.
    @Test(
        .enabled(
            if: Tool.pythonModuleUsable("icalendar"), "needs Python's icalendar (python3 -m pip install icalendar)"),
        arguments: Fixtures.sampleTrips())
    func icalendarReadsEveryStayAndScheduledSide(_ sample: String) throws {
        let (plan, _) = try RenderFixture.plan(Fixtures.sample(sample))
        let parsed = try Self.python(Self.readCalendar, on: ICSExport.bytes(plan: plan))
        #expect(parsed["errors"] as? [String] == [])
        #expect(parsed["version"] as? String == "2.0")
        #expect(parsed["prodid"] as? String == "-//detour-report//detour-report \(ProgramVersion.number)//EN")
        #expect(parsed["name"] as? String == plan.title)
        var events = parsed["events"] as? [[String: Any]] ?? []
        #expect(events.allSatisfy { $0["all_day"] as? Bool == true })
        #expect(events.allSatisfy { $0["stamp"] as? String == "2026-11-22T00:00:00+00:00" })
        let destinations = plan.sections.flatMap(\.destinations).sorted { $0.index < $1.index }
        for planned in destinations {
            let destination = planned.destination
            let stay = try #require(events.first, "no event for \(destination.name)")
            events.removeFirst()
            #expect(stay["summary"] as? String == destination.name)
            #expect(stay["location"] as? String == destination.name)
            #expect(stay["start"] as? String == destination.arrival.description)
            #expect(stay["end"] as? String == destination.departure.adding(days: 1)?.description)
            let geo = stay["geo"] as? [Double] ?? []
            #expect(geo.count == 2 && abs(geo[0] - destination.location.latitude) < 1e-6)
            #expect(geo.count == 2 && abs(geo[1] - destination.location.longitude) < 1e-6)
            for detour in planned.detours {
                #expect((stay["description"] as? String)?.contains(detour.title + ": ") == true)
            }
            for day in planned.schedule {
                for item in day.items {
                    let event = try #require(events.first, "no event for a side of \(destination.name)")
                    events.removeFirst()
                    let detour = planned.detours[item.detour]
                    let side = detour.tasks[item.task]
                    // A plan reads as what is done; the detour it was chosen in is in the description.
                    #expect(event["summary"] as? String == side.task.name)
                    #expect(event["start"] as? String == day.day.description)
                    #expect(event["end"] as? String == day.day.adding(days: item.days)?.description)
                    let description = event["description"] as? String ?? ""
                    #expect(description.contains("Cost: \(Formatting.money(side.task.cost))"))
                    #expect(description.contains("Duration: \(Formatting.duration(side.task.duration))"))
                    #expect(description.hasPrefix("Detour: \(detour.title)\n"))
                    #expect(description.contains("Travel: \(side.travelMode.rawValue)"))
                    if let location = side.task.location {
                        let geo = event["geo"] as? [Double] ?? []
                        #expect(geo.count == 2 && abs(geo[0] - location.latitude) < 1e-6)
                        #expect(geo.count == 2 && abs(geo[1] - location.longitude) < 1e-6)
                        #expect(event["location"] as? String == side.task.name)
                    } else {
                        #expect(event["geo"] is NSNull)
                        #expect(event["location"] as? String == destination.name)
                    }
                }
            }
        }
        #expect(events.isEmpty, "events the plan does not have")
    }

    /// Names full of what TEXT escapes, long enough to fold, with characters of every UTF-8
    /// width: the parser reads each back exactly.
    @Test(
        .enabled(
            if: Tool.pythonModuleUsable("icalendar"), "needs Python's icalendar (python3 -m pip install icalendar)"))
    func icalendarReadsEscapedAndFoldedNamesBackExactly() throws {
        let title =
            #"Back\slash; semi, comma: "quoted" — éß€ 中文 😀🇵🇹 and a title long enough to be folded twice over, at least"#
        let stay = String(repeating: "Ørsted; Æblegade, nr. 7 \\ 😀 ", count: 4) + "end"
        let trip = """
            {"title": \(Self.jsonString(title)), "destinations": [{"name": \(Self.jsonString(stay)),
              "location": {"lat": -33.8688, "lon": 151.2093}, "arrival": "2026-12-01", "departure": "2026-12-03",
              "detours": [{"tasks": [
                {"name": "A, B; C\\\\D", "duration": "1h", "cost": {"amount": 1, "currency": "AUD"}, "location": {"lat": -33.86, "lon": 151.21}},
                {"name": "Plain", "duration": "2h", "cost": {"amount": 2, "currency": "AUD"}, "location": {"lat": -33.87, "lon": 151.2}}]}]}]}
            """
        let (plan, _) = try RenderFixture.plan(Array(trip.utf8))
        let bytes = ICSExport.bytes(plan: plan)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\r\n "), "nothing was folded")
        let parsed = try Self.python(Self.readCalendar, on: bytes)
        #expect(parsed["name"] as? String == title)
        let events = parsed["events"] as? [[String: Any]] ?? []
        #expect(events.first?["summary"] as? String == stay)
        #expect(events.last?["summary"] as? String == #"A, B; C\D"#)
        #expect(events.last?["location"] as? String == #"A, B; C\D"#)
        #expect((events.last?["description"] as? String)?.hasPrefix(#"Detour: A, B; C\D or Plain"#) == true)
        #expect((events.first?["description"] as? String)?.contains("\n") == true)
    }

    static func jsonString(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
    }

    /// The map is valid GeoJSON to a validator, within RFC 7946's ranges, and has the features
    /// the plan has, each stay at `[lon, lat]`.
    @Test(
        .enabled(if: Tool.pythonModuleUsable("geojson"), "needs Python's geojson (python3 -m pip install geojson)"),
        arguments: Fixtures.sampleTrips())
    func aGeoJSONValidatorAcceptsEveryMap(_ sample: String) throws {
        let (plan, _) = try RenderFixture.plan(Fixtures.sample(sample))
        let parsed = try Self.python(Self.readMap, on: GeoJSONExport.bytes(plan: plan))
        #expect(parsed["type"] as? String == "FeatureCollection")
        #expect(parsed["valid"] as? Bool == true, "\(parsed["errors"] ?? "")")
        #expect(parsed["problems"] as? [String] == [])
        let features = parsed["features"] as? [[String: Any]] ?? []
        let destinations = plan.sections.flatMap(\.destinations).sorted { $0.index < $1.index }
        let tasks = destinations.flatMap(\.detours).flatMap(\.tasks)
        let expected =
            destinations.count + tasks.filter { $0.task.location != nil }.count
            + tasks.filter { $0.task.path != nil }.count
        #expect(features.count == expected)
        let stays = features.filter { ($0["properties"] as? [String: Any])?["kind"] as? String == "destination" }
        #expect(stays.count == destinations.count)
        for (feature, planned) in zip(stays, destinations) {
            let position = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double]
            #expect(position == [planned.destination.location.longitude, planned.destination.location.latitude])
        }
    }
}
