#if canImport(Glibc)
import Glibc
#endif

/// Where a served folder keeps what is not a trip: `DIR/.detour/`, made on first use, readable by
/// its owner alone, with the accounts' SQLite database in it.
public enum AccountsFolder {
    /// The database's path for the folder `folder`: `folder/.detour/accounts.sqlite`.
    ///
    /// The `.detour` folder is made (mode 0700) and the database file too (mode 0600, so the hashes
    /// and the audit log are not readable by other users), when missing.
    public static func database(in folder: String) throws(AccountFailure) -> String {
        let hidden = folder + "/.detour"
        if let reason = makeFolder(hidden) { throw .database(reason) }
        let path = hidden + "/accounts.sqlite"
        let descriptor = open(path, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .database("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        return path
    }

    /// The folder of the account `id`'s trips: `folder/accounts/ID`.
    public static func trips(in folder: String, accountID: String) -> String {
        folder + "/accounts/" + accountID
    }

    /// Makes the folder of the account `id`'s trips when missing (mode 0700, as `accounts` is);
    /// returns its path.
    public static func makeTrips(in folder: String, accountID: String) throws(AccountFailure) -> String {
        let path = trips(in: folder, accountID: accountID)
        for made in [folder + "/accounts", path] {
            if let reason = makeFolder(made) { throw .unavailable(reason) }
        }
        return path
    }

    /// Makes the folder `path` (mode 0700) unless it is there; why it could not be, or `nil`.
    private static func makeFolder(_ path: String) -> String? {
        guard mkdir(path, 0o700) != 0, errno != EEXIST else { return nil }
        return "cannot make \(path): \(String(cString: strerror(errno)))"
    }
}
