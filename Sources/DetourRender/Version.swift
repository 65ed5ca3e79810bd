/// The name and version of detour-report: the one place they are written.
///
/// `--version` prints them, and the calendar export names them in its `PRODID`. Bumping the
/// version changes the calendar golden files, which is why they live here and not in the
/// executable.
public enum ProgramVersion {
    /// `detour-report`.
    public static let name = "detour-report"
    /// The release, as `MAJOR.MINOR.PATCH`.
    public static let number = "0.1.0"
    /// `detour-report 0.1.0`.
    public static var nameAndNumber: String { "\(name) \(number)" }
}
