#if canImport(Glibc)
import Glibc
#endif

/// A time in seconds since 1970 as ISO 8601 in UTC, `2026-11-27T19:36:41Z`: the same on every
/// machine, whatever its time zone or locale.
public enum UTCTime {
    public static func text(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Now, from the system's clock.
    public static func now() -> Int64 {
        Int64(time(nil))
    }
}
