import DetourCore
import DetourRender
import SystemPackage

/// A trip rendered into a folder of reports, as a batch run does for each of its trips: every
/// output written as `NAME.EXT`, each replaced all at once, and the trip's line of the index.
public struct FolderRender: Sendable {
    /// What became of the trip.
    public var entry: TripIndex.Entry
    /// Everything to say about it: the job's diagnostics, then a report that could not be
    /// written, with the file each is about.
    public var diagnostics: [(diagnostic: Diagnostic, file: String)]
    /// The failure that stopped the writing, if one did.
    public var failure: Delivery.Failure?
    /// The job's status: `valid`, `invalid` or `unreadable`, as the trip was checked.
    public var status: TripStatus
}

extension RenderJob {
    /// Runs the trip at `source` and writes its outputs into `folder`, which exists, as `name.EXT`,
    /// through `store`; the folders of a `name` with a `/` are made as needed.
    ///
    /// `existing` are the names in `folder` when the caller listed it, if it did: a report whose
    /// name is not among them is new, and its target is not looked at (see
    /// ``Delivery/deliver(to:store:flush:followLinks:isNew:registry:_:)``). The reports are not flushed one
    /// by one.
    public func render(
        _ source: FilePath, name: String, into folder: FilePath, existing: Set<String>? = nil, store: some FileStore
    ) -> FolderRender {
        let shown = source.shown
        let result = run(path: source, store: store)
        var diagnostics = result.diagnostics.map { (diagnostic: $0, file: shown) }
        guard let trip = result.trip else {
            let entry = TripIndex.Entry(
                source: shown, name: name, status: result.status, warnings: result.diagnostics.warnings.count,
                firstError: result.firstError.map(DiagnosticText.lineWithoutFile))
            return FolderRender(entry: entry, diagnostics: diagnostics, failure: nil, status: result.status)
        }
        var entry = TripIndex.Entry(
            source: shown, name: name, trip: trip, warnings: result.diagnostics.warnings.count, reports: [])
        for output in result.outputs {
            let file = name + "." + output.format.fileExtension
            let path = folder.appending(file)
            do throws(Delivery.Failure) {
                // A report of a trip in a subfolder (`europe/oslo`) goes into the same subfolder.
                let parent = path.removingLastComponent()
                var isNew = false
                if parent != folder {
                    try Folders.checkNoLinks(from: folder, to: parent, store: store)
                    try Folders.make(parent, store: store)
                } else if let existing {
                    isNew = !existing.contains(file)
                }
                try Delivery.deliver(to: path, store: store, flush: false, followLinks: false, isNew: isNew) {
                    sink throws(Delivery.Failure) in
                    try output.write(to: sink)
                }
            } catch {
                let diagnostic = error.diagnostic(target: path)
                diagnostics.append((diagnostic, path.string))
                entry.status = .failed
                entry.firstError = DiagnosticText.line(diagnostic, file: path.string)
                return FolderRender(entry: entry, diagnostics: diagnostics, failure: error, status: result.status)
            }
            entry.reports.append(TripIndex.Entry.Report(format: .output(output.format), file: file))
        }
        return FolderRender(entry: entry, diagnostics: diagnostics, failure: nil, status: result.status)
    }
}
