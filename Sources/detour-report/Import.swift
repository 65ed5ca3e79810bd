import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import SystemPackage

/// `detour-report import FILE.gpx|FILE.geojson [-o trip.json]`: a draft trip of the places a
/// map app exports.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make a draft trip of the places a map app exports (GPX or GeoJSON).",
        discussion: """
            Each waypoint (GPX wpt, GeoJSON Point) becomes a draft detour of one task at that \
            place, its description and link as pros; each route or track (GeoJSON LineString) a \
            task whose path it is. Places are grouped into stays, one for each group of places \
            within 50 km of one another, at its centre. Days, durations and costs are \
            placeholders, and the warnings say so: finish the trip by hand, then validate and \
            render it. An existing file is never replaced.
            """)

    @Argument(
        help: ArgumentHelp("The GPX or GeoJSON file (.geojson or .json is read as GeoJSON).", valueName: "file"),
        completion: .file(extensions: ["gpx", "geojson", "json"]))
    var input: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Write the trip to this file.", valueName: "file"), completion: .file())
    var output: String?

    @Option(help: ArgumentHelp("The day the placeholder stays are planned from (YYYY-MM-DD).", valueName: "day"))
    var today: String?

    @OptionGroup var diagnosticsOption: DiagnosticsOption
    /// How problems are written: `--diagnostics`.
    var diagnostics: DiagnosticPrinter.Format { diagnosticsOption.format }

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        let printer = DiagnosticPrinter(file: input, format: diagnostics)
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
        let lowered = input.lowercased()
        let geoJSON = lowered.hasSuffix(".geojson") || lowered.hasSuffix(".json")
        let places: TripImport.Places
        switch PlacesReader.read(bytes, geoJSON: geoJSON) {
        case .failure(let diagnostic):
            printer.print([diagnostic])
            throw ExitCodes.invalidTrip
        case .success(let read): places = read
        }
        guard !places.isEmpty else {
            let kinds = geoJSON ? "point or line" : "waypoint, route or track"
            printer.report(.nothingToImport, "the file holds no \(kinds): nothing to import")
            throw ExitCodes.invalidTrip
        }
        let name = FilePath(input).lastComponent?.string ?? input
        let draft = TripImport.draft(places, from: day, fileName: name)
        let text = TripJSONWriter.write(draft.trip)
        printer.print(draft.notes.map { Diagnostic(.importDraft, $0) })
        try CommandOutput.write(text, to: output, printer: printer)
        let stays = draft.trip.destinations
        let tasks = stays.reduce(0) { $0 + $1.detours.count }
        StandardStreams.writeError(
            "imported \(tasks) \(tasks == 1 ? "place" : "places") into \(stays.count) \(stays.count == 1 ? "stay" : "stays")"
                + (output.map { "; check it with 'detour-report validate \($0)'" } ?? "") + "\n")
    }
}
