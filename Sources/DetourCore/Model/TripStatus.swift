/// What became of a trip that was read: one word for each end, used by every command, the index
/// and the server's API alike.
///
/// A check ends in `valid`, `invalid` or `unreadable`; a run that writes reports turns `valid`
/// into `written`, or `failed` when a report could not be written. The raw value is the word that
/// `validate`, `index.json`, the batch summary and `GET /api/v1/trips` print. The exit code of each
/// lives with the other exit codes, in `DetourCommandLine/ExitCodes.swift`.
public enum TripStatus: String, Sendable, CaseIterable {
    /// The trip was read and checked and has no errors (warnings allowed); nothing was written.
    case valid
    /// The trip is valid and every report asked for was written.
    case written
    /// The trip has errors; no report was written.
    case invalid
    /// The trip file could not be read.
    case unreadable
    /// The trip is valid but a report could not be written.
    case failed

    /// The ends of a run that writes reports, in the order a summary counts them.
    public static let afterWriting: [TripStatus] = [.written, .invalid, .unreadable, .failed]

    /// Whether the trip had no errors, whatever became of its reports.
    public var isValid: Bool {
        switch self {
        case .valid, .written, .failed: true
        case .invalid, .unreadable: false
        }
    }
}
