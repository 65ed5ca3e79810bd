import DetourBase
import DetourJob

/// What a server has once, however many folders it serves (its own, or one per account): the
/// threads that check and render, the outputs kept, and the watch on every folder.
///
/// Resources belong to the server, state to a folder: with N accounts open, the server still
/// renders on at most as many threads as cores, keeps at most `--cache-mib` of output, keeps at
/// most 64 preview streams open, and watches every folder on one inotify instance and one thread.
public final class ServerResources: Sendable {
    /// The threads every check and render of every folder runs on.
    public let pool: BlockingPool
    /// The threads a request reads a trip file on, when what the folder holds is not known
    /// without asking the file system: apart from ``pool``, so a read never waits behind renders.
    public let files: BlockingPool
    /// Every folder's outputs, bounded in bytes for the whole server.
    let outputs: OutputCache
    /// The watch on every folder.
    public let watcher: FolderWatcher
    /// The live-reload streams every folder's previews hold open, counted together.
    let streams: StreamBudget

    public init(settings: ServerSettings) {
        pool = BlockingPool(width: settings.renderThreads)
        files = BlockingPool(width: settings.renderThreads)
        outputs = OutputCache(limit: settings.cacheBytes)
        watcher = FolderWatcher()
        streams = StreamBudget(limit: settings.maxStreams)
    }
}
