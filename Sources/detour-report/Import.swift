import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourPlaces
import DetourRender
import SystemPackage

/// `detour-report import FILE.gpx|FILE.geojson|FILE.kml|FILE.kmz [-o trip.json]`: a draft trip
/// of the places a map app exports.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make a draft trip of the places a map app exports (GPX, GeoJSON, KML or KMZ).",
        discussion: """
            Each place (GPX wpt, GeoJSON Point, KML Placemark with a Point) becomes a draft \
            detour of one task there, its description, address and link as pros; places within \
            10 m of one another are one task. Each route, track or line becomes a task whose path \
            it is. Places are grouped into stays, one for each group of places within \
            --stay-radius of one another, at its centre, named after the town or city there \
            (GeoNames). Points with no position (no geometry, or 0, 0) or coordinates that are \
            not numbers are skipped and named in a warning. Days, durations and costs are \
            placeholders, and the warnings say so: finish the trip by hand, then validate and \
            render it. An existing file is never replaced.
            """)

    @Argument(
        help: ArgumentHelp(
            "The file: GPX, GeoJSON (.geojson or .json; Google Takeout's Saved Places.json, uMap), KML or KMZ.",
            valueName: "file"),
        completion: .file(extensions: ["gpx", "geojson", "json", "kml", "kmz"]))
    var input: String

    @Option(
        help: ArgumentHelp(
            "Places further apart than this, by every chain of places, are separate stays (km, default 50: a day's reach on foot and by transit).",
            valueName: "km"))
    var stayRadius: Double?

    @Option(
        help: ArgumentHelp("The first stay's arrival (YYYY-MM-DD); default: two weeks after --today.", valueName: "day")
    )
    var from: String?

    @Option(
        help: ArgumentHelp(
            "The trip's nights, spread over its stays by their number of places (default: one night a stay).",
            valueName: "n"))
    var days: Int?

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Write the trip to this file.", valueName: "file"), completion: .file())
    var output: String?

    @Option(help: ArgumentHelp("The day the placeholder stays are planned from (YYYY-MM-DD).", valueName: "day"))
    var today: String?

    @OptionGroup var diagnosticsOption: DiagnosticsOption
    /// How problems are written: `--diagnostics`.
    var diagnostics: DiagnosticPrinter.Format { diagnosticsOption.format }

    /// `--from`, or a usage error when it is no day.
    func firstDay() throws -> CalendarDay? {
        guard let from else { return nil }
        guard let day = CalendarDay(iso: from) else {
            throw UsageMistake(
                message:
                    "--from \(Quoting.quoted(from)) is not a calendar day (YYYY-MM-DD)\(CalendarDay.meantHint(from))",
                command: Import.self)
        }
        return day
    }

    func validate() throws {
        if let stayRadius, !(stayRadius > 0 && stayRadius <= 20_000) {
            throw ValidationError("--stay-radius must be more than 0 and at most 20000 km")
        }
        if let days, days < 1 || days > 3_650 {
            throw ValidationError("--days must be from 1 to 3650")
        }
    }

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        var printer = DiagnosticPrinter(file: input, format: diagnostics)
        printer.hasInputLimitOption = false
        let day = try DayOptions.today(today, printer: printer)
        if let output {
            try CommandOutput.refuseExisting(output, printer: printer, remedy: "give another name, or remove it first")
        }
        let bytes: [UInt8]
        do {
            guard let read = try fileStore.contents(of: FilePath(input), limit: ReadLimits.standard.maxJSONBytes) else {
                printer.report(.fileTooLarge, "the file is larger than \(ReadLimits.standard.maxJSONBytes >> 20) MiB")
                throw ExitCodes.noInput
            }
            bytes = read
        } catch let error as FileError {
            printer.report(.readFailed, "cannot read the file: \(error.reason)")
            throw ExitCodes.noInput
        }
        let kind = PlacesReader.Kind(fileName: input)
        let places: TripImport.Places
        switch PlacesReader.read(bytes, kind: kind) {
        case .failure(let diagnostic):
            printer.print([diagnostic])
            throw ExitCodes.invalidTrip
        case .success(let read): places = read
        }
        let skipped = TripImport.skippedNotes(places.skipped)
        guard !places.isEmpty else {
            let kinds =
                switch kind {
                case .geoJSON: "point or line"
                case .kml, .kmz: "placemark with a point or line"
                case .gpx: "waypoint, route or track"
                }
            let message =
                skipped.isEmpty
                ? "the file holds no \(kinds): nothing to import"
                : "every point of the file was skipped, so nothing is imported: \(skipped.joined(separator: "; "))"
            printer.report(.nothingToImport, message)
            throw ExitCodes.invalidTrip
        }
        printer.print(skipped.map { Diagnostic(.importSkipped, $0) })
        let name = FilePath(input).lastComponent?.string ?? input
        let options = TripImport.Options(
            stayRadius: stayRadius.map { $0 * 1_000 } ?? TripImport.clusterMetres,
            firstDay: try firstDay(), nights: days,
            placeName: { GeoNames.cities.name(at: $0) })
        let draft = TripImport.draft(places, from: day, fileName: name, options: options)
        let text = TripJSONWriter.write(draft.trip)
        printer.print(draft.notes.map { Diagnostic(.importDraft, $0) })
        try CommandOutput.write(text, to: output, printer: printer)
        let stays = draft.trip.destinations
        let tasks = stays.reduce(0) { $0 + $1.detours.count }
        let left = places.skipped.count
        StandardStreams.writeError(
            "imported \(tasks) \(tasks == 1 ? "place" : "places") into \(stays.count) \(stays.count == 1 ? "stay" : "stays")"
                + (left > 0 ? ", \(left) \(left == 1 ? "point" : "points") skipped" : "")
                + (output.map { "; check it with 'detour-report validate \($0)'" } ?? "") + "\n")
    }
}
