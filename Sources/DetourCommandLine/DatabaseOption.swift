import ArgumentParser
import DetourCore

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL password of `--database postgres://…`, from the environment.
public enum DatabasePassword {
    /// `PGPASSWORD`, taken out of the environment; `nil` when it is not set.
    ///
    /// It is read once, and inherited by no process the command starts later (the server's
    /// Chromium for PDFs, say).
    public static func take() -> String? {
        guard let value = getenv(DatabaseURL.passwordVariable) else { return nil }
        let password = String(cString: value)
        unsetenv(DatabaseURL.passwordVariable)
        return password
    }
}

extension DatabaseURL {
    /// `--database`'s value, checked for `serve` and `user` alike: a usage error unless it has
    /// one of the two forms.
    public static func validate(option value: String?) throws(ValidationError) {
        if let value, DatabaseURL(value) == nil {
            throw ValidationError("--database takes \(forms)")
        }
    }
}
