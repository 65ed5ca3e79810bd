import DetourCore
import DetourIO
import DetourJob
import DetourRender
import DetourTestSupport
import Foundation
import SystemPackage
import Testing

/// The render job: one trip in, its diagnostics, a status and its outputs out, whichever front
/// end asks; and a trip rendered into a folder through a file store that can fail.
@Suite struct RenderJobTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 22) ?? .unixEpoch

    static func job(_ formats: [OutputFormat] = [.html], limits: ReadLimits = .standard) -> RenderJob {
        RenderJob(
            RenderJob.Options(
                formats: formats, today: today, renderer: ReportRenderer(templates: .compiled), limits: limits))
    }

    /// A server's day moves on: a run may be as of another day than the options', and a folder's
    /// plans make one calendar, from the same job.
    @Test func aRunAsOfAnotherDayAndAFoldersCalendar() throws {
        let bytes = try Fixtures.sample("lisbon-city-break.json")
        let later = try #require(CalendarDay(year: 2027, month: 1, day: 5))
        let job = Self.job([.json, .ics])
        let now = job.run(bytes: bytes, name: "lisbon.json")
        let then = job.run(bytes: bytes, name: "lisbon.json", today: later)
        #expect(now.plan?.today == Self.today)
        #expect(then.plan?.today == later)
        #expect(try then.output(.json)?.bytes() != now.output(.json)?.bytes(), "the plan is as of its own day")
        #expect(now.output(.html) == nil, "no output in a format the job was not asked for")
        let invalid = job.run(bytes: Array("{}".utf8), name: "x.json")
        let calendar = String(
            decoding: job.calendar(of: [now, invalid, then], name: "Trips", today: later), as: UTF8.self)
        #expect(calendar.hasPrefix("BEGIN:VCALENDAR"))
        #expect(calendar.components(separatedBy: "BEGIN:VEVENT").count > 1)
    }

    @Test func aValidTripGivesOneOutputPerFormatInOrder() throws {
        let bytes = try Fixtures.sample("lisbon-city-break.json")
        let result = Self.job([.json, .html, .ics, .gpx]).run(bytes: bytes, name: "lisbon.json")
        #expect(result.status == .valid)
        #expect(result.outputs.map(\.format) == [.json, .html, .ics, .gpx])
        let golden = try String(
            contentsOf: Fixtures.repository.appendingPathComponent(
                "Tests/DetourRenderTests/Goldens/lisbon-city-break.json"),
            encoding: .utf8)
        #expect(String(decoding: try result.outputs[0].bytes(), as: UTF8.self) == golden)
        #expect(try result.outputs[3].bytes() == Fixtures.sample("lisbon-city-break.gpx"))
    }

    @Test func anInvalidTripHasItsDiagnosticsAndNoOutput() {
        let result = Self.job().run(bytes: Array(#"{"title": " ", "destinations": []}"#.utf8), name: "t.json")
        #expect(result.status == .invalid)
        #expect(result.outputs.isEmpty)
        #expect(result.firstError?.code == .blankText)
    }

    @Test func aTripThatCannotBeOpenedIsUnreadable() {
        let result = Self.job().run(path: "/nowhere.json", store: FakeFileStore())
        #expect(result.status == .unreadable)
        #expect(result.diagnostics.map(\.message) == ["cannot read the trip: No such file or directory"])
        let store = FakeFileStore()
        store.folder("/trips")
        #expect(
            Self.job().run(path: "/trips", store: store).diagnostics.map(\.message) == [
                "cannot read the trip: it is a folder"
            ])
    }

    /// A name that does not tell the format: the first bytes do, and GPX streams under its own
    /// limit, not JSON's.
    @Test(arguments: ["lisbon-city-break.json", "lisbon-city-break.gpx"])
    func aTripWithoutAnExtensionIsToldByItsFirstBytes(_ sample: String) throws {
        let bytes = try Fixtures.sample(sample)
        let result = Self.job([.json]).run(bytes: bytes, name: "-")
        #expect(result.status == .valid)
        #expect(result.trip?.title == "Lisbon in December")
        // Under a JSON limit smaller than the file, GPX still streams; JSON is refused.
        let small = Self.job([.json], limits: ReadLimits(maxJSONBytes: 100)).run(bytes: bytes, name: "trip")
        #expect(small.status == (sample.hasSuffix(".gpx") ? .valid : .invalid))
    }

    /// A trip shorter than the bytes looked at to tell its format is told all the same.
    @Test func aTripShorterThanTheSniffIsToldByItsBytes() {
        let result = Self.job([.json]).run(bytes: Array(#"{"title": "T", "destinations": []}"#.utf8), name: "-")
        #expect(result.status == .valid)
        #expect(result.trip?.title == "T")
    }

    /// A file that fails part-way cannot be read, in either format (GPX, which streams, meets
    /// the failure in its reader); the message gives the store's reason.
    @Test(arguments: ["t.json", "t.gpx"])
    func aTripThatFailsPartWayIsUnreadable(_ name: String) throws {
        let store = FakeFileStore(faults: FakeFileStore.Faults(read: FileError(.ioError), readFailsAfter: 10))
        let sample = name.hasSuffix(".gpx") ? "lisbon-city-break.gpx" : "lisbon-city-break.json"
        store.put("/" + name, String(decoding: try Fixtures.sample(sample), as: UTF8.self))
        let result = Self.job().run(path: FilePath("/" + name), store: store)
        #expect(result.status == .unreadable)
        #expect(result.diagnostics.map(\.message) == ["cannot read the trip: Input/output error"])
        #expect(result.diagnostics.map(\.code) == [.readFailed])
    }

    /// A trip from a pipe, whose size is not known before, is read up to the JSON limit and no
    /// further.
    @Test func aTripFromAPipeIsReadUpToTheLimit() throws {
        let store = FakeFileStore(faults: FakeFileStore.Faults(sizeUnknown: true))
        let bytes = try Fixtures.sample("lisbon-city-break.json")
        store.put("/t.json", String(decoding: bytes, as: UTF8.self))
        #expect(
            Self.job(limits: ReadLimits(maxJSONBytes: bytes.count)).run(path: "/t.json", store: store).status
                == .valid)
        let refused = Self.job(limits: ReadLimits(maxJSONBytes: bytes.count - 1)).run(path: "/t.json", store: store)
        #expect(refused.status == .invalid)
        #expect(
            refused.diagnostics.map { "\($0.code.rawValue): \($0.message)" } == [
                "file-too-large: the file is larger than the 0 MiB limit for a trip read whole (JSON)"
            ])
    }

    @Test func planWarningsFollowTheTripsDiagnostics() throws {
        let overlapping = """
            {"title": "T", "destinations": [
              {"name": "A", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-01", "departure": "2026-12-05", "x": 1},
              {"name": "B", "location": {"lat": 0, "lon": 0}, "arrival": "2026-12-02", "departure": "2026-12-03"}]}
            """
        let result = Self.job().run(bytes: Array(overlapping.utf8), name: "t.json")
        #expect(result.diagnostics.map(\.code) == [.unknownKey, .overlappingStays])
    }

    // MARK: Into a folder

    func folderStore(_ faults: FakeFileStore.Faults = FakeFileStore.Faults()) throws -> FakeFileStore {
        let store = FakeFileStore(faults: faults)
        store.folder("/trips")
        store.folder("/out")
        store.put("/trips/lisbon.json", String(decoding: try Fixtures.sample("lisbon-city-break.json"), as: UTF8.self))
        return store
    }

    @Test func aTripIsWrittenIntoTheFolderAndListedInTheIndex() throws {
        let store = try folderStore()
        let rendered = Self.job([.html, .json]).render(
            "/trips/lisbon.json", name: "europe/lisbon", into: "/out", store: store)
        #expect(rendered.failure == nil)
        #expect(rendered.entry.status == .written)
        #expect(rendered.entry.reports.map(\.file) == ["europe/lisbon.html", "europe/lisbon.json"])
        #expect(store.state.withLock { $0.folders.contains("/out/europe") })
        #expect(store.text("/out/europe/lisbon.html")?.hasPrefix("<!DOCTYPE html>") == true)
        #expect(rendered.entry.title == "Lisbon in December")
    }

    /// With the folder's listing, a report not in it is written without a look at its target;
    /// one in it is looked at (here, a look that fails).
    @Test func theFoldersListingSparesALookAtANewReport() throws {
        let store = try folderStore(FakeFileStore.Faults(info: .ioError))
        let job = Self.job([.html])
        let new = job.render("/trips/lisbon.json", name: "lisbon", into: "/out", existing: [], store: store)
        #expect(new.failure == nil)
        #expect(store.text("/out/lisbon.html")?.hasPrefix("<!DOCTYPE html>") == true)
        let listed = job.render(
            "/trips/lisbon.json", name: "lisbon", into: "/out", existing: ["lisbon.html"], store: store)
        #expect(listed.entry.status == .failed)
    }

    @Test func aReportThatCannotBeWrittenFailsTheTripAndSaysWhere() throws {
        let store = try folderStore(FakeFileStore.Faults(diskFullAfter: 1000))
        let rendered = Self.job([.html]).render("/trips/lisbon.json", name: "lisbon", into: "/out", store: store)
        #expect(rendered.entry.status == .failed)
        guard case .cutOff = rendered.failure else {
            Issue.record("expected a cut-off write, got \(String(describing: rendered.failure))")
            return
        }
        #expect(rendered.diagnostics.last?.file == "/out/lisbon.html")
        #expect(rendered.diagnostics.last?.diagnostic.code == .writeFailed)
        #expect(
            rendered.entry.firstError?.hasPrefix("/out/lisbon.html: error: writing to the file failed part-way") == true
        )
        #expect(store.paths == ["/trips/lisbon.json"])
    }

    @Test func anInvalidOrUnreadableTripWritesNothingAndListsItsFirstError() throws {
        let store = try folderStore()
        store.put("/trips/bad.json", #"{"title": "T", "destinations": [{"name": ""}]}"#)
        let invalid = Self.job().render("/trips/bad.json", name: "bad", into: "/out", store: store)
        #expect(invalid.entry.status == .invalid)
        #expect(
            invalid.entry.firstError
                == "1:33: error: destinations[0].location: a destination needs a location [missing-field]")
        let missing = Self.job().render("/trips/gone.json", name: "gone", into: "/out", store: store)
        #expect(missing.entry.status == .unreadable)
        #expect(missing.entry.firstError == "error: cannot read the trip: No such file or directory [read-failed]")
        #expect(store.paths == ["/trips/bad.json", "/trips/lisbon.json"])
    }
}

/// Diagnostics as lines and as JSON objects, as every front end writes them.
@Suite struct DiagnosticTextTests {
    @Test func aLineHasTheFileItsPlaceTheSeverityThePathAndTheCode() {
        let diagnostic = Diagnostic(
            .blankText, path: "destinations[0].name", at: SourcePosition(line: 3, column: 14),
            "the name must not be blank")
        #expect(
            DiagnosticText.line(diagnostic, file: "trip.json")
                == "trip.json:3:14: error: destinations[0].name: the name must not be blank [blank-text]")
        #expect(DiagnosticText.line(diagnostic, file: "-").hasPrefix("<stdin>:3:14: error:"))
        #expect(
            DiagnosticText.lineWithoutFile(diagnostic)
                == "3:14: error: destinations[0].name: the name must not be blank [blank-text]")
        let bare = Diagnostic(.readFailed, "cannot read the trip: gone")
        #expect(
            DiagnosticText.line(bare, file: "a\u{1B}b.json")
                == "a\\u{1B}b.json: error: cannot read the trip: gone [read-failed]")
        // Without a place, the line starts at its severity (it once started with a space).
        #expect(DiagnosticText.lineWithoutFile(bare) == "error: cannot read the trip: gone [read-failed]")
        let element = Diagnostic(.badDuration, at: SourcePosition(line: 7, element: "wpt 2"), "bad")
        #expect(
            DiagnosticText.line(element, file: "t.gpx")
                == "t.gpx:7: warning: wpt 2: bad [bad-duration]".replacingOccurrences(of: "warning", with: "error"))
    }

    @Test func theJSONFormCarriesTheSameWithNullWhereUnknown() {
        let diagnostic = Diagnostic(.unknownKey, path: "x", at: SourcePosition(line: 2), "unknown key")
        #expect(
            DiagnosticText.json(diagnostic, file: "-").serializedLine()
                == #"{"severity":"warning","code":"unknown-key","path":"x","file":"<stdin>","line":2,"column":null,"message":"unknown key"}"#
        )
        // An empty path is no path; control characters in one are made visible.
        let pathless = Diagnostic(.readFailed, path: "", at: SourcePosition(line: 1, column: 1), "gone")
        #expect(
            DiagnosticText.json(pathless, file: "t.json").serializedLine()
                == #"{"severity":"error","code":"read-failed","path":null,"file":"t.json","line":1,"column":1,"message":"gone"}"#
        )
        let escaped = Diagnostic(.unknownKey, path: "a\u{7}b", "x")
        #expect(DiagnosticText.json(escaped, file: "t.json").serializedLine().contains(#""path":"a\\u{7}b""#))
    }
}

/// What a file name or a user's word makes of an output format.
@Suite struct OutputFormatTests {
    @Test(arguments: [
        ("plan.html", OutputFormat.html), ("plan.HTM", .html), ("plan.md", .markdown), ("plan.markdown", .markdown),
        ("plan.json", .json), ("plan.ics", .ics), ("plan.geojson", .geojson), ("trip.GPX", .gpx),
        ("Plan.PDF", .pdf),
    ])
    func aFileNameTellsItsFormat(_ name: String, _ format: OutputFormat) {
        #expect(OutputFormat(fileName: name) == format)
    }

    @Test(arguments: ["plan.txt", "plan", "html", "plan.html.bak"])
    func aFileNameThatTellsNoFormatHasNone(_ name: String) {
        #expect(OutputFormat(fileName: name) == nil)
    }

    @Test func aUserNamesAFormatInAnyCaseAndMarkdownAsMd() {
        #expect(OutputFormat(name: "MD") == .markdown)
        #expect(OutputFormat(name: "GeoJSON") == .geojson)
        #expect(OutputFormat(name: "PDF") == .pdf)
        #expect(OutputFormat(name: "docx") == nil)
        #expect(OutputFormat.allCases.map(\.fileExtension) == ["html", "md", "json", "pdf", "gpx", "ics", "geojson"])
    }
}
