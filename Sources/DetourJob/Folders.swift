import SystemPackage

/// Making folders.
public enum Folders {
    /// Refuses a symbolic link among the folders between `folder` and `path`.
    ///
    /// A link planted inside a batch run's output folder would send its reports outside it.
    /// `folder` itself may be a link: that is the user's choice.
    public static func checkNoLinks(from folder: FilePath, to path: FilePath, store: some FileStore)
        throws(Delivery.Failure)
    {
        var current = folder
        for component in path.components.dropFirst(folder.components.count) {
            current.append(component)
            guard (try? store.info(current, followLinks: false))?.kind == .symbolicLink else { continue }
            throw .cannotCreate(
                FileError(
                    .tooManySymbolicLinkLevels,
                    reason: "\(current.shown) is a symbolic link; a batch run writes only inside its folder"))
        }
    }

    /// Creates `path` and every folder above it that is missing, as `mkdir -p` does.
    public static func make(_ path: FilePath, store: some FileStore) throws(Delivery.Failure) {
        var missing: [FilePath] = []
        var current = path
        while !current.isEmpty, current != "/", current != "." {
            let info: FileInfo
            do {
                info = try store.info(current, followLinks: true)
            } catch {
                guard error.isMissing else { throw .cannotCreate(error) }
                missing.append(current)
                current = current.removingLastComponent()
                continue
            }
            // What mkdir -p says of a file in the way.
            guard info.kind == .directory else { throw .cannotCreate(FileError(.notDirectory)) }
            break
        }
        for folder in missing.reversed() {
            do {
                try store.makeFolder(folder)
            } catch {
                throw .cannotCreate(error)
            }
        }
    }
}
