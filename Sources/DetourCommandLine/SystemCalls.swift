import DetourCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's calls the command makes itself, under names its own methods do not hide, so
/// no call has to name a platform's module.
public enum SystemCalls {
    /// Today's date in the local time zone (`TZ`, else `/etc/localtime`), from `localtime_r(3)`.
    ///
    /// The C library's own zone lookup, not Foundation's `TimeZone.current`: that one starts ICU,
    /// which cost about a millisecond of every run for one date.
    public static func localDate() -> (year: Int, month: Int, day: Int)? {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// The width of the terminal `descriptor` is, from `ioctl(TIOCGWINSZ)`; `nil` when it is not
    /// a terminal or does not say.
    public static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// `write(2)`.
    public static func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        write(descriptor, buffer, count)
    }
}

extension SystemCalls {
    /// Today's date on the local calendar: the one place detour-report reads the clock.
    public static func localDay() -> CalendarDay {
        guard let today = localDate() else { return .unixEpoch }
        guard let day = CalendarDay(year: today.year, month: today.month, day: today.day) else { return .unixEpoch }
        return day
    }
}
