import DetourJob
import Hummingbird
import SystemPackage

/// One folder of trips as the server serves it: its store, its library (checks and outputs,
/// cached), its watch and its live-reload hub.
///
/// A request finds its workspace in its context (``ServerContext/workspace``), put there by
/// ``AccessPolicy``: the folder's, or on a server with accounts the account's or, through a share,
/// its owner's.
public final class Workspace: Sendable {
    public let library: TripLibrary
    public let reload: LiveReload
    /// The folder's watch, when the workspace has a folder on disk.
    let watch: FolderWatch?

    /// A workspace over `store`, on the server's `resources` as the folder `space` (see
    /// ``TripLibrary``); `folder`, when given, is watched for changes.
    public init(
        store: some TripStore, settings: ServerSettings, folder: FilePath? = nil, resources: ServerResources? = nil,
        space: String = ""
    ) {
        let resources = resources ?? ServerResources(settings: settings)
        let library = TripLibrary(store: store, settings: settings, resources: resources, space: space)
        let reload = LiveReload(streams: resources.streams)
        self.library = library
        self.reload = reload
        watch = folder.map { folder in
            FolderWatch(
                folder: folder, mode: settings.watch, watcher: resources.watcher, freshness: library.freshness
            ) { name in
                // Sends the new version only to pages that listen, and only when it changed.
                guard reload.hasListeners(name) else { return }
                reload.send(library.versionNow(name), to: name)
            }
        }
    }

    var settings: ServerSettings { library.settings }

    /// Starts watching the folder, when there is one.
    func startWatching() {
        let library = library
        watch?.start(signatures: { library.signatures() })
    }

    /// Stops watching, and ends every live-reload stream.
    func stopWatching() {
        watch?.stop()
        reload.closeAll()
    }

    /// The trip file `name` names now, or the problem that says why there is none.
    func current(_ name: TripName) async throws -> TripSnapshot {
        switch try await library.current(name) {
        case .missing: throw Problem.notFound
        case .clash: throw Problem.clash(name)
        case .tooLarge: throw Problem.tooLargeFile
        case .snapshot(let snapshot): return snapshot
        }
    }
}
