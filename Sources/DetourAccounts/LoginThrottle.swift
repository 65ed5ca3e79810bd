/// How failed logins slow the next attempts (OWASP Authentication: throttle, never lock out for
/// good).
///
/// Failures count against the address tried and against the client that tried it, each for
/// 15 minutes. While fewer than 10 fall in that window, every attempt is checked. From the 10th
/// on, the next attempt must wait: a minute after the last failure, doubled for each failure past
/// the 10th, at most 15 minutes. An attempt made while waiting is refused unchecked (429 with
/// `Retry-After`) and counts as nothing; once the failures age out of the window, nothing is left
/// of them.
public enum LoginThrottle {
    /// How long a failure counts.
    public static let window: Int64 = 15 * 60
    /// How many failures in the window are let through before attempts must wait.
    public static let allowed = 10
    /// The first wait.
    public static let firstWait: Int64 = 60
    /// The longest wait.
    public static let longestWait: Int64 = 15 * 60

    /// The seconds to wait before another attempt, given the times of the failures of one key,
    /// or `nil` when an attempt may be made now.
    public static func wait(failures: [Int64], now: Int64) -> Int64? {
        let recent = failures.filter { $0 > now - window && $0 <= now }
        guard recent.count >= allowed, let last = recent.max() else { return nil }
        let doublings = min(recent.count - allowed, 10)
        let wait = min(longestWait, firstWait << doublings)
        return last + wait > now ? last + wait - now : nil
    }
}
