import ArgumentParser
import CMalloc
import DetourAccounts
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import DetourServer
import Foundation
import SystemPackage

/// `detour-report-serve`, what `detour-report serve` runs (see ``ServeOptions``).
///
/// It takes the same arguments, so it can be run by itself as well.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detour-report serve",
        abstract: "Serve a folder of trips: live preview, calendar feeds and a sync API.")

    @OptionGroup var options: ServeOptions

    /// The options' own checks are ``ServeOptions``'; which address needs a token is the server's.
    func validate() throws {
        // With accounts, every request but a login is signed in: the accounts guard the trips.
        let guarded = options.tokenFile != nil || options.accounts
        if let refusal = ListenAddress.refusal(host: options.host, hasToken: guarded) {
            throw ValidationError(refusal)
        }
        _ = try publicURL()
        _ = try tiles()
    }

    /// `--tiles` and `--tiles-attribution`, when given; a usage error when they cannot be.
    func tiles() throws(ValidationError) -> TileLayer? {
        guard let template = options.tiles else {
            if options.tilesAttribution != nil { throw ValidationError("--tiles-attribution needs --tiles") }
            return nil
        }
        var problem = ""
        guard let layer = TileLayer(template: template, attribution: options.tilesAttribution ?? "", problem: &problem)
        else { throw ValidationError("--tiles \(template) \(problem)") }
        return layer
    }

    /// `--public-url`, when given; a usage error when it is no such address.
    func publicURL() throws(ValidationError) -> PublicURL? {
        guard let text = options.publicURL else { return nil }
        var problem = ""
        guard let url = PublicURL(text, problem: &problem) else {
            throw ValidationError("--public-url \(text) \(problem)")
        }
        return url
    }

    func run() async throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        ServeCommand.keepFreedMemory()
        var settings = try settings()
        settings.maxConnections = ServerSettings.connectionCap(openFiles: ServeCommand.raiseOpenFileLimit())
        let store: FolderTripStore
        do {
            store = try FolderTripStore(folder: FilePath(options.folder), files: fileStore)
        } catch {
            options.printer.report(
                .readFailed, "cannot serve '\(options.folder)': \(ServeCommand.reason(error))", file: options.folder)
            throw ExitCodes.noInput
        }
        let folderPath = FilePath(options.folder)
        if !options.accounts {
            for (name, renamed) in store.misspelled() {
                options.printer.print(
                    [.tripExtensionCase("served", renamed: renamed)], file: folderPath.appending(name).shown)
            }
        }
        // The browser a PDF request starts ends with the server, however it stops.
        defer { ChromiumPrinter.endAll() }
        let opened = try await accountService(settings: settings)
        let accounts = opened?.service
        // The request log is written by a thread of its own: a reader of standard error that
        // stops reading holds up no request.
        let log = LogWriter.standardError()
        let served: Result<Void, any Error>
        do {
            try await TripServer.run(
                store: store, folderPath: folderPath, settings: settings, accounts: accounts,
                announce: { url in
                    try? StandardStreams.write(
                        Array("detour-report: serving \(folderPath.shown) at \(url)\n".utf8), to: STDOUT_FILENO)
                },
                log: { line in log.write(line) })
            served = .success(())
        } catch {
            served = .failure(error)
        }
        // The database is closed however the server ended, and the log's last lines written.
        await opened?.database.close()
        await log.finish(within: .seconds(2))
        do {
            try served.get()
        } catch ServeFailure.portInUse(let port) {
            options.printer.report(
                .portInUse, "port \(port) is in use; choose another with --port, or --port 0 for any free port",
                file: "detour-report")
            throw ExitCodes.unavailable
        } catch {
            options.printer.report(.readFailed, "cannot serve: \(error)", file: "detour-report")
            throw ExitCodes.cannotCreate
        }
    }

    /// Raises the limit on open files to its hard limit (a server's connections each take one),
    /// and returns the limit then in force.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Keeps up to 4 MiB of freed memory at the top of each of glibc's heaps instead of handing
    /// it back to the kernel.
    ///
    /// glibc trims a heap once more than 128 KiB at its top is free, until the process frees a
    /// large mapped block (which raises the threshold, up to 64 MiB). A server copying a cached
    /// report into each response, on several threads, then faults the same pages back in on the
    /// next request: with accounts, 1.2 to 3.3 minor faults a request against 0.00 to 0.04 with
    /// this threshold, and 4 to 8 µs of CPU a request more (bench/bench_accounts.py, /proc).
    static func keepFreedMemory() {
        _ = mallopt(M_TRIM_THRESHOLD, 4 << 20)
    }

    /// With `--accounts`, the accounts and their database, which the caller closes; `nil`
    /// without.
    ///
    /// The database is opened (made and migrated when new), and the hasher has as many threads as
    /// there are cores.
    func accountService(settings: ServerSettings) async throws -> (service: AccountService, database: AccountStore)? {
        guard options.accounts else { return nil }
        let store: AccountStore
        let hasher: PasswordHasher
        do throws(AccountFailure) {
            store = try await AccountStore.open(
                options.database.flatMap(DatabaseURL.init), folder: options.folder,
                password: DatabasePassword.take(), now: UTCTime.now, runner: .serviceGroup)
            hasher = try PasswordHasher(width: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            options.printer.report(error.code, error.message, file: "detour-report")
            throw ExitCodes.ioError
        }
        let files = fileStore
        let service = AccountService(
            store: store, services: store.services, hasher: hasher,
            registration: options.registration ?? .open,
            rule: PasswordRule(minimum: options.minPasswordLength ?? PasswordRule.defaultMinimum) ?? .standard,
            folder: FilePath(options.folder), settings: settings,
            makeStore: { path throws(StoreFailure) in try FolderTripStore(folder: path, files: files) })
        return (service, store)
    }

    static func reason(_ failure: StoreFailure) -> String {
        switch failure {
        case .full: return "the disk is full"
        case .failed(let reason): return reason
        }
    }

    /// The settings the options ask for, each a usage error when it cannot be.
    func settings() throws(ExitCode) -> ServerSettings {
        let day: (@Sendable () -> CalendarDay)
        if options.today != nil || DayOptions.sourceDateEpoch != nil {
            let fixed = try DayOptions.today(options.today, printer: options.printer)
            day = { fixed }
        } else {
            // Read at each request, so a server left running crosses midnight.
            day = { SystemCalls.localDay() }
        }
        let loaded = try TemplateFolder.load(
            options.templates, builtIn: ReportTemplates.requiredNames + ReportTemplates.indexNames,
            required: ReportTemplates.requiredNames, optional: ReportTemplates.indexNames, printer: options.printer)
        var settings = ServerSettings(
            host: options.host, port: options.port, today: day,
            planner: try options.plan.planner(printer: options.printer),
            templates: loaded,
            readOnly: options.readOnly, token: try token(),
            watch: options.poll.map { .poll(.milliseconds(Int($0 * 1000))) } ?? .inotify,
            quiet: options.quiet, maxInputBytes: options.inputLimit.bytes(defaultMebibytes: 16),
            cacheBytes: options.cacheMib << 20,
            // Checked by validate(), before run().
            publicURL: try? publicURL())
        settings.trustedProxy = options.trustedProxy
        // Checked by validate(), before run().
        settings.tiles = try? tiles()
        settings.unixSeconds = UTCTime.now
        settings.maxConnectionsPerClient = options.maxConnectionsPerClient
        // Loaded on a thread of its own from now on, so no request waits for it.
        settings.places = GazetteerPlaces()
        do throws(PrintFailure) {
            // Found now, started at the first PDF asked for.
            let browser = try options.print.browserPath()
            settings.printing = RenderJob.Printing(
                printer: TripServer.printer { () throws(PrintFailure) in try ChromiumPrinter(browser: browser) },
                paper: options.print.paper)
        } catch {
            settings.noPrinting = error.diagnostic.message
        }
        return settings
    }

    /// The token in `--token-file`: its first line, at least 16 characters.
    func token() throws(ExitCode) -> String? {
        guard let tokenFile = options.tokenFile else { return nil }
        guard let bytes = try? fileStore.contents(of: FilePath(tokenFile), limit: 4096) else {
            options.printer.report(.readFailed, "cannot read the token file '\(tokenFile)'")
            throw ExitCodes.usage
        }
        let token = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if let problem = token.map(TokenRule.problem) ?? "must not be empty" {
            options.printer.report(.usage, "the token in '\(tokenFile)' \(problem)")
            throw ExitCodes.usage
        }
        return token
    }
}
