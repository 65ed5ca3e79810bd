/// Where the plan's "today" comes from.
///
/// In order: an explicit day (`--today`), else the UTC day of `SOURCE_DATE_EPOCH` (so builds and
/// golden files are reproducible), else the local calendar day. The caller passes each source
/// in; nothing here reads a clock or the environment.
public enum Today {
    /// Why no day could be settled on.
    public enum ResolveError: Error, Sendable, Equatable {
        /// The explicit day is not `YYYY-MM-DD`.
        case badOption(String)
        /// `SOURCE_DATE_EPOCH` is not a whole number of seconds in range.
        case badSourceDateEpoch(String)
    }

    /// Settles on today.
    ///
    /// - Parameters:
    ///   - option: the day given on the command line, if any.
    ///   - sourceDateEpoch: the value of `SOURCE_DATE_EPOCH`, if set.
    ///   - localDay: the local calendar day, asked for only when nothing else decides.
    /// - Returns: the option's day, else `SOURCE_DATE_EPOCH`'s UTC day, else the local day.
    /// - Throws: ``ResolveError`` for an option or a `SOURCE_DATE_EPOCH` that is not a day.
    public static func resolve(
        option: String?, sourceDateEpoch: String?, localDay: () -> CalendarDay
    ) throws(ResolveError) -> CalendarDay {
        if let option {
            guard let day = CalendarDay(iso: option) else { throw .badOption(option) }
            return day
        }
        if let epoch = sourceDateEpoch, !epoch.isEmpty {
            guard epoch.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let seconds = Int64(epoch),
                let day = CalendarDay(unixSeconds: seconds)
            else { throw .badSourceDateEpoch(epoch) }
            return day
        }
        return localDay()
    }
}
