import DetourJob
import Foundation
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Headless Chromium, started once per run and driven over the DevTools protocol, printing each
/// report as a page of its own: a batch of PDFs pays for one browser start, not one per trip, and
/// prints as many pages at once as it has workers.
///
/// Each page is a new tab: the report is set as its document (nothing is loaded, so nothing is
/// fetched: the report is self-contained, and the browser is started with every host name
/// unresolvable besides), printed, and closed. The browser gets a new, empty profile in a
/// temporary folder, removed when it ends. ``end()`` ends it; so does the end of this process,
/// however it comes, since the browser quits when its pipe closes, and ``endAll()`` is what the
/// signal handlers call before the program exits.
public final class ChromiumPrinter: PagePrinter {
    /// How long a browser may take to start, and to print one page.
    public static let startTimeout: TimeInterval = 60
    public static let pageTimeout: TimeInterval = 300

    private let pipe: DevToolsPipe
    private let profile: FilePath
    private let ended = Mutex(false)

    /// The printers not yet ended, for ``endAll()``.
    private static let running = Mutex<[ObjectIdentifier: ChromiumPrinter]>([:])

    /// Starts the browser at `path`; throws ``PrintFailure/noBrowser(_:)`` when it does not start
    /// or does not speak the protocol.
    public init(browser path: String) throws(PrintFailure) {
        guard let folder = TemporaryFolder.make("detour-browser") else {
            throw .noBrowser("cannot make a temporary folder for the browser's profile")
        }
        profile = folder
        var arguments = [
            path, "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile.string)", "--no-first-run",
            "--no-default-browser-check", "--disable-gpu", "--disable-extensions", "--disable-sync",
            "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
            "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND", "about:blank",
        ]
        // Chromium's sandbox refuses to run as root (in containers, CI); it has nothing to guard
        // here, where the only page is our own report and nothing is fetched.
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        do {
            pipe = try DevToolsPipe(arguments: arguments, errorLog: profile.appending("stderr.log").string)
        } catch {
            TemporaryFolder.remove(profile)
            throw error
        }
        Self.running.withLock { $0[ObjectIdentifier(self)] = self }
        do {
            _ = try pipe.call("Browser.getVersion", timeout: Self.startTimeout)
        } catch {
            let said = lastLine(ofLog: profile.appending("stderr.log").string)
            end()
            throw .noBrowser(
                "\(path) did not start as a browser (\(error.reason))\(said.map { ": \($0)" } ?? ""); \(BrowserSearch.hint)"
            )
        }
    }

    public func print(_ page: PrintPage) throws(PrintFailure) -> [UInt8] {
        let target = try pipe.call("Target.createTarget", ["url": "about:blank"], timeout: Self.pageTimeout)
        guard let targetID = target["targetId"] as? String else { throw .failed("the browser opened no tab") }
        defer { _ = try? pipe.call("Target.closeTarget", ["targetId": targetID], timeout: Self.pageTimeout) }
        let attached = try pipe.call(
            "Target.attachToTarget", ["targetId": targetID, "flatten": true], timeout: Self.pageTimeout)
        guard let session = attached["sessionId"] as? String else { throw .failed("the browser gave no tab to drive") }
        let tree = try pipe.call("Page.getFrameTree", session: session, timeout: Self.pageTimeout)
        guard let frame = (tree["frameTree"] as? [String: Any])?["frame"] as? [String: Any],
            let frameID = frame["id"] as? String
        else { throw .failed("the tab has no frame") }
        _ = try pipe.call(
            "Page.setDocumentContent", ["frameId": frameID, "html": String(decoding: page.html, as: UTF8.self)],
            session: session, timeout: Self.pageTimeout)
        let paper = page.paper.inches
        let printed = try pipe.call(
            "Page.printToPDF",
            [
                "paperWidth": paper.width, "paperHeight": paper.height, "printBackground": true,
                "displayHeaderFooter": true, "headerTemplate": "<span></span>", "footerTemplate": page.footer,
                "generateTaggedPDF": true,
            ], session: session, timeout: Self.pageTimeout)
        guard let data = printed["data"] as? String, let pdf = Data(base64Encoded: data) else {
            throw .failed("the browser sent no PDF")
        }
        return Array(pdf)
    }

    /// Ends the browser and removes its profile; once, whoever calls it first.
    ///
    /// A browser still running `grace` seconds after its pipe is closed is killed.
    public func end(grace: TimeInterval = 5) {
        guard
            ended.withLock({ ended in
                defer { ended = true }
                return !ended
            })
        else { return }
        pipe.end(grace: grace)
        TemporaryFolder.remove(profile)
        _ = Self.running.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Ends every browser still running: for a signal handler, before the program exits.
    public static func endAll() {
        for printer in running.withLock({ Array($0.values) }) { printer.end() }
    }

    private func lastLine(ofLog path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).last.map { String($0.prefix(200)) }
    }
}

extension PrintFailure {
    /// What went wrong, without the code.
    var reason: String {
        switch self {
        case .noBrowser(let reason), .failed(let reason): return reason
        }
    }
}
