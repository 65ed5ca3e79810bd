import ArgumentParser
import DetourIO

/// `--max-input-mib`, declared once for every command that reads trips.
///
/// Unset, each command keeps its own default: JSON up to 64 MiB (it is read whole) and GPX up to
/// 4,096 MiB (it streams) where a trip is read from a file, and 16 MiB for `serve`, which holds a
/// request's body whole.
public struct InputLimitOption: ParsableArguments {
    public init() {}

    @Option(
        help: ArgumentHelp(
            "The largest trip accepted, as a file or a request body, in MiB (default: 64 for JSON, which is read whole, and 4096 for GPX, which streams; serve: 16).",
            valueName: "mib"))
    public var maxInputMib: Int?

    /// The values `--max-input-mib` takes.
    public static let range = 1...1_048_576

    public func validate() throws {
        if let maxInputMib, !Self.range.contains(maxInputMib) {
            throw ValidationError("--max-input-mib must be between 1 and 1048576")
        }
    }

    /// The reading limits, with the input size from `--max-input-mib` when given.
    public var limits: ReadLimits {
        guard let maxInputMib else { return .standard }
        return ReadLimits.standard.withInputLimit(mebibytes: maxInputMib)
    }

    /// The limit in bytes, `defaultMebibytes` unless given.
    public func bytes(defaultMebibytes: Int) -> Int {
        (maxInputMib ?? defaultMebibytes) << 20
    }
}
