import ArgumentParser
import DetourCore
import DetourFiles
import DetourIO
import DetourJob
import DetourRender
import DetourServer
import Dispatch
import Foundation
import SystemPackage

/// `detour-report serve [DIR]`: a live preview, calendar feeds and a sync API over a folder of
/// trips, the same files `render` reads.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder of trips: live preview, calendar feeds and a sync API.",
        discussion: """
            Serves every *.json and *.gpx trip directly inside DIR (default: the current folder) at \
            http://127.0.0.1:PORT/: the index at /, a live preview at /trips/NAME that reloads when the \
            file is saved, each format at /trips/NAME.html (.md, .json, .ics, .geojson, .gpx) exactly as \
            render writes it, every trip's calendar at /calendar.ics, and the sync API at /api/v1/trips \
            (docs/openapi.yaml). Listens on loopback only unless --host says otherwise, and a \
            non-loopback address needs --token-file. Stops on SIGINT or SIGTERM.
            """)

    @Argument(help: ArgumentHelp("The folder of trips (default: the current folder).", valueName: "dir"))
    var folder: String = "."

    @Option(help: ArgumentHelp("The address to listen on (default 127.0.0.1).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 takes a free one (default 8080).", valueName: "port"))
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "The day every plan is as of (YYYY-MM-DD). Default: the UTC day of SOURCE_DATE_EPOCH when set, else today's local date at each request.",
            valueName: "day"))
    var today: String?

    @Option(
        help: ArgumentHelp(
            "Travel this way to every task (walk, cycle, transit, drive), whatever the trip says.", valueName: "mode"))
    var travel: TravelMode?

    @Option(
        help: ArgumentHelp(
            "Recommend the side with the least total time (default), the lower cost, or the shorter distance.",
            valueName: "rule"))
    var prefer: Preference = .time

    @Option(
        name: .customLong("day-hours"),
        help: ArgumentHelp(
            "Hours a day for detours at every stay (more than 0, at most 24, whole minutes), whatever the trip says.",
            valueName: "hours"))
    var dayHours: String?

    @Option(
        help: ArgumentHelp(
            "Load the report and index templates from this folder instead of the built-in ones.", valueName: "dir"))
    var templates: String?

    @Flag(name: .customLong("read-only"), help: "Refuse every write to the API (405).")
    var readOnly = false

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "Require the token in this file (its first line, at least 16 characters): Authorization: Bearer TOKEN, or ?token=TOKEN for pages and feeds. Needed to listen on an address other than loopback.",
            valueName: "file"))
    var tokenFile: String?

    @Option(
        help: ArgumentHelp(
            "Look for changed trips every this many seconds instead of being told by the system (network drives, containers).",
            valueName: "seconds"))
    var poll: Double?

    @Option(
        help: ArgumentHelp(
            "The largest trip accepted, as a file or a request body, in MiB (default 16).", valueName: "mib"))
    var maxInputMib = 16

    @Flag(help: "Print no request log.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "How problems are written to standard error: text (default), or json (one JSON object per line).",
            valueName: "format"))
    var diagnostics: DiagnosticPrinter.Format = .text

    var printer: DiagnosticPrinter { DiagnosticPrinter(file: "detour-report", format: diagnostics) }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...1024).contains(maxInputMib) else {
            throw ValidationError("--max-input-mib must be between 1 and 1024")
        }
        if let poll, !(poll >= 0.1 && poll <= 3600) {
            throw ValidationError("--poll must be between 0.1 and 3600 seconds")
        }
        if tokenFile == nil, !ServerSettings.isLoopback(host) {
            throw ValidationError(
                "--host \(host) is not a loopback address; anyone who can reach it could read and change the trips. Give --token-file FILE (a secret of 16 characters or more), or serve on 127.0.0.1 behind a reverse proxy"
            )
        }
    }

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        let settings = try settings()
        let store: FolderTripStore
        do {
            store = try FolderTripStore(folder: FilePath(folder), files: fileStore)
        } catch {
            printer.report(.readFailed, "cannot serve '\(folder)': \(Serve.reason(error))", file: folder)
            throw ExitCodes.noInput
        }
        let finished = DispatchSemaphore(value: 0)
        let failure = Failure()
        let folderPath = FilePath(folder)
        Task {
            do {
                try await TripServer.run(
                    store: store, folderPath: folderPath, settings: settings,
                    announce: { url in
                        try? StandardStreams.write(
                            Array("detour-report: serving \(folderPath.shown) at \(url)\n".utf8), to: STDOUT_FILENO)
                    },
                    log: { line in StandardStreams.writeError(line + "\n") })
            } catch {
                failure.set("\(error)")
            }
            finished.signal()
        }
        finished.wait()
        if let message = failure.message {
            printer.report(.readFailed, "cannot serve: \(message)", file: "detour-report")
            throw ExitCodes.cannotCreate
        }
    }

    static func reason(_ failure: StoreFailure) -> String {
        switch failure {
        case .full: return "the disk is full"
        case .failed(let reason): return reason
        case .clash(let name): return "two files for \(name.text)"
        }
    }

    /// The settings the options ask for, each a usage error when it cannot be.
    func settings() throws(ExitCode) -> ServerSettings {
        let day: (@Sendable () -> CalendarDay)
        let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"]
        do {
            if today != nil || epoch != nil {
                let fixed = try Today.resolve(option: today, sourceDateEpoch: epoch, localDay: Render.localDay)
                day = { fixed }
            } else {
                day = { Render.localDay() }
            }
        } catch {
            switch error {
            case .badOption(let text):
                printer.report(.badToday, "--today \(Quoting.quoted(text)) is not a calendar day (YYYY-MM-DD)")
            case .badSourceDateEpoch(let text):
                printer.report(
                    .badSourceDateEpoch,
                    "SOURCE_DATE_EPOCH \(Quoting.quoted(text)) is not a number of seconds since 1970")
            }
            throw ExitCodes.usage
        }
        var hours: DayHours?
        if let dayHours {
            do {
                hours = try DayHours.parse(dayHours)
            } catch {
                printer.report(.badDayHours, "--day-hours: \(DayHours.message(error, text: dayHours))")
                throw ExitCodes.usage
            }
        }
        let loaded = try TemplateFolder.load(
            templates, builtIn: ReportTemplates.requiredNames + ReportTemplates.indexNames,
            required: ReportTemplates.requiredNames, optional: ReportTemplates.indexNames, printer: printer)
        return ServerSettings(
            host: host, port: port, today: day,
            planner: Planner.Options(travel: travel, preference: prefer, dayHours: hours), templates: loaded,
            readOnly: readOnly, token: try token(),
            watch: poll.map { .poll(.milliseconds(Int($0 * 1000))) } ?? .inotify,
            quiet: quiet, maxInputBytes: maxInputMib << 20)
    }

    /// The token in `--token-file`: its first line, at least 16 characters.
    func token() throws(ExitCode) -> String? {
        guard let tokenFile else { return nil }
        guard let bytes = try? fileStore.contents(of: FilePath(tokenFile), limit: 4096) else {
            printer.report(.readFailed, "cannot read the token file '\(tokenFile)'")
            throw ExitCodes.usage
        }
        let token = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let token, token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            printer.report(
                .usage, "the token in '\(tokenFile)' must be one line of at least 16 printable ASCII characters")
            throw ExitCodes.usage
        }
        return token
    }

    /// What the server task ended with.
    final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?

        func set(_ message: String) {
            lock.withLock { text = message }
        }

        var message: String? { lock.withLock { text } }
    }
}
