import ArgumentParser
import DetourJob
import Foundation

/// How PDFs are printed: `--paper` and `--browser`, declared once for `render` and `serve`.
public struct PrintOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("With PDF, the paper: a4 or letter.", valueName: "paper"))
    public var paper: Paper = .a4

    @Option(
        help: ArgumentHelp(
            "With PDF, the browser that prints it (a path, or a command on PATH). Default: DETOUR_BROWSER, else chromium, chromium-browser or google-chrome on PATH.",
            valueName: "path"), completion: .file())
    public var browser: String?

    /// The browser to print with, found but not started; ``PrintFailure/noBrowser(_:)``, whose
    /// message says how to get one, when there is none.
    public func browserPath() throws(PrintFailure) -> String {
        try BrowserSearch.find(named: browser, environment: ProcessInfo.processInfo.environment)
    }
}

extension Paper: ExpressibleByArgument {
    /// `a4` or `letter`, in any case.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
