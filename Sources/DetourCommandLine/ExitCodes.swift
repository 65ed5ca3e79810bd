import ArgumentParser
import DetourCore

/// The exit codes `detour-report` uses, from BSD's sysexits.h so scripts can tell them apart.
public enum ExitCodes {
    /// The report was written (warnings allowed).
    public static let success = ExitCode(0)
    /// `--check`: a report on disk differs from the one the run makes.
    public static let differs = ExitCode(1)
    /// The command line was wrong (ArgumentParser also uses 64 for its own usage errors).
    public static let usage = ExitCode(64)
    /// The trip file is not a valid trip.
    public static let invalidTrip = ExitCode(65)
    /// The trip file is missing or cannot be read.
    public static let noInput = ExitCode(66)
    /// A PDF was asked for and no browser could print it (EX_UNAVAILABLE).
    public static let unavailable = ExitCode(69)
    /// The output file cannot be created or replaced.
    public static let cannotCreate = ExitCode(73)
    /// Writing the report failed part-way (a full disk, a broken pipe).
    public static let ioError = ExitCode(74)
    /// The templates given with `--templates` cannot be used.
    public static let badTemplates = ExitCode(78)

    /// The codes a run of many trips can end with, least serious first: success, an invalid
    /// trip, an unreadable one, a PDF no browser printed, a report not created, a report cut
    /// off part-way.
    static let seriousness = [success, invalidTrip, noInput, unavailable, cannotCreate, ioError].map(\.rawValue)

    /// The most serious of `codes`, the trips' own and the index's, which a run of many trips
    /// exits with.
    ///
    /// Success when there are none; a code not among those above ranks with success.
    public static func mostSerious(_ codes: [Int32]) -> ExitCode {
        let rank = { (code: Int32) in seriousness.firstIndex(of: code) ?? 0 }
        return ExitCode(codes.max { rank($0) < rank($1) } ?? success.rawValue)
    }
}

extension TripStatus {
    /// The exit code of a trip that ended this way: success when it is valid or written, 65
    /// invalid, 66 unreadable, and 73 for a report not written (a caller that knows why gives
    /// the failure's own code: 69, 73 or 74).
    public var exitCode: ExitCode {
        switch self {
        case .valid, .written: ExitCodes.success
        case .invalid: ExitCodes.invalidTrip
        case .unreadable: ExitCodes.noInput
        case .failed: ExitCodes.cannotCreate
        }
    }
}
