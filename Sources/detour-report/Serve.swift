import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourFiles
import DetourIO
import DetourJob
import DetourRender
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

    @OptionGroup var options: ServeOptions

    /// Runs `detour-report-serve`, installed beside this binary, with the same arguments.
    func run() throws {
        let arguments = Array(CommandLine.arguments.drop { $0 != "serve" }.dropFirst())
        let message = Sibling.exec("detour-report-serve", arguments: arguments)
        options.printer.report(
            .usage, "cannot start detour-report-serve, which serves (it belongs beside detour-report): \(message)")
        throw ExitCodes.unavailable
    }
}
