import DetourFiles

/// The file system the commands work on.
public let fileStore = LocalFileStore()
