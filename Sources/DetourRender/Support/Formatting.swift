import DetourCore
import Foundation

/// Every number, date and amount a report shows, formatted the same way on every machine.
///
/// No locale, no time zone: English day and month names and `.` as the decimal point, so a
/// report is byte-for-byte the same wherever it is made.
public enum Formatting {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// `Tue 1 Dec 2026`.
    public static func day(_ day: CalendarDay) -> String {
        let weekday = weekdays[((day.daysSinceEpoch % 7) + 7) % 7]
        return "\(weekday) \(day.day) \(months[day.month - 1]) \(day.year)"
    }

    /// A stay's days: `Tue 1 Dec 2026 – Fri 4 Dec 2026`.
    public static func stay(_ destination: Destination) -> String {
        "\(day(destination.arrival)) – \(day(destination.departure))"
    }

    /// `seconds` since 1970 as HTTP's date (RFC 9110 §5.6.7, IMF-fixdate):
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func httpDate(_ seconds: Int) -> String {
        let dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - dayNumber * 86_400
        guard let day = CalendarDay(daysSinceEpoch: dayNumber) else { return httpDate(0) }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[((dayNumber % 7) + 7) % 7]), \(two(day.day)) \(months[day.month - 1]) \(day.year) "
            + "\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60)) GMT"
    }

    /// `1 night`, `4 nights`.
    public static func nights(_ count: Int) -> String {
        count == 1 ? "1 night" : "\(count) nights"
    }

    /// `1 h 30 min`, `45 min`, `2 d 3 h`.
    public static func duration(_ duration: TaskDuration) -> String {
        minutes(duration.minutes)
    }

    /// `3.10 EUR`, `1,250.00 EUR`: the amount's whole part grouped by thousands.
    public static func money(_ money: Money) -> String {
        "\(NumberText.grouped(decimal: money.amountText)) \(money.currency.code)"
    }

    /// `34 min`, `1 h 34 min`, `2 d 3 h`; `0 min` for nothing.
    ///
    /// Minutes are `min`, never `m`, which a reader takes for metres beside a distance.
    public static func minutes(_ count: Int) -> String {
        guard count > 0 else { return "0 min" }
        let (days, hours, rest) = (count / 1440, count % 1440 / 60, count % 60)
        // Appended in place, not joined from a list: a report shows several durations per task.
        var text = days > 0 ? NumberText.grouped(days) + " d" : ""
        if hours > 0 {
            if !text.isEmpty { text += " " }
            text += String(hours) + " h"
        }
        if rest > 0 {
            if !text.isEmpty { text += " " }
            text += String(rest) + " min"
        }
        return text
    }

    /// `walk, 34m there and back`, or `walk, unknown` when the task has neither location nor path.
    public static func travel(_ task: PlannedTask) -> String {
        guard let minutes = task.travelMinutes else { return "\(task.travelMode.rawValue), time unknown" }
        return "\(task.travelMode.rawValue), \(Formatting.minutes(minutes)) there and back"
    }

    /// The distance figure with what it measures: `850 m straight`, `1.2 km route, 850 m straight`.
    public static func distanceLabel(_ task: PlannedTask) -> String {
        let straight = task.distanceMeters.map { "\(distance($0)) straight" }
        let route = task.routeMeters.map { "\(distance($0)) route" }
        switch (route, straight) {
        case (let route?, let straight?): return "\(route), \(straight)"
        case (let route?, nil): return route
        case (nil, let straight?): return straight
        case (nil, nil): return "unknown"
        }
    }

    /// Why a side was recommended, or why none was: `2h 50m less in all`.
    public static func reason(_ recommendation: Recommendation) -> String {
        switch recommendation.reason {
        case .lessTotalTime(let minutes): return "\(Formatting.minutes(minutes)) less in all, travel included"
        case .cheaper(let money): return "cheaper by \(Formatting.money(money))"
        case .nearer(let metres): return "\(distance(metres)) less to travel each way"
        case .tieThenCheaper(let money): return "same total time, and cheaper by \(Formatting.money(money))"
        case .tieThenLessTotalTime(let minutes):
            let figure = recommendation.preference == .cost ? "same cost" : "same distance"
            return "\(figure), and \(Formatting.minutes(minutes)) less in all"
        case .draft: return "a side is still undecided"
        case .unknownFigure: return "a figure the rule needs is unknown (a task without a location or path)"
        case .differentCurrencies: return "the costs are in different currencies"
        case .tie: return "the two sides are even"
        }
    }

    /// `850 m` under a kilometre, `12.3 km` under a hundred, `1,234 km` beyond.
    public static func distance(_ meters: Double) -> String {
        let rounded = meters.rounded()
        if rounded < 1000 { return "\(Int(rounded)) m" }
        if meters < 99_950 { return "\(fixed(meters / 1000, digits: 1)) km" }
        return "\(NumberText.grouped(Int((meters / 1000).rounded()))) km"
    }

    /// `38.7223° N, 9.1393° W`.
    public static func coordinate(_ point: Coordinate) -> String {
        let lat = "\(fixed(abs(point.latitude), digits: 4))° \(point.latitude < 0 ? "S" : "N")"
        let lon = "\(fixed(abs(point.longitude), digits: 4))° \(point.longitude < 0 ? "W" : "E")"
        return "\(lat), \(lon)"
    }

    /// The point on OpenStreetMap, marked, at street zoom:
    /// `https://www.openstreetmap.org/?mlat=38.7223&mlon=-9.1393#map=16/38.7223/-9.1393`.
    ///
    /// Five decimals (about a metre) and no trailing zeros, so the link is as short as it can be
    /// and the same on every machine. A report links it; it loads nothing until followed.
    public static func mapLink(_ point: Coordinate) -> String {
        var lat = degrees(point.latitude, digits: 5)
        var lon = degrees(point.longitude, digits: 5)
        // Copied into one buffer, not interpolated: a report links every stay and task, and the
        // interpolation's eight appends were most of the cost of a link.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(80)
        func put(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        func put(_ text: inout String) { text.withUTF8 { bytes.append(contentsOf: $0) } }
        put("https://www.openstreetmap.org/?mlat=")
        put(&lat)
        put("&mlon=")
        put(&lon)
        put("#map=16/")
        put(&lat)
        put("/")
        put(&lon)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A coordinate in degrees with at most `digits` decimals and no trailing zeros: `-9.1393`, `0`.
    ///
    /// Plain notation always, never `1e-05`: RFC 5545's FLOAT and GeoJSON readers alike take it, and
    /// the text is the same on every machine.
    public static func degrees(_ value: Double, digits: Int) -> String {
        plain(value, digits: digits, trimmingZeros: true)
    }

    /// `value` rounded half away from zero to `digits` places, in plain notation: `12.30`.
    public static func fixed(_ value: Double, digits: Int) -> String {
        plain(value, digits: digits, trimmingZeros: false)
    }

    /// ``fixed(_:digits:)``, or with `trimmingZeros` ``degrees(_:digits:)``.
    ///
    /// The digits are written straight into the string: made as five strings joined (and, for
    /// degrees, searched for the point through Foundation), they took a tenth of the time of a
    /// large trip's HTML report, whose maps and links hold several numbers for each task.
    private static func plain(_ value: Double, digits: Int, trimmingZeros: Bool) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Past 15 digits a Double has no fraction left to show; Decimal writes it out in full.
        guard scaled < 1e15 else { return "\(Decimal(value.rounded(.toNearestOrAwayFromZero)))" }
        var units = UInt64(scaled)
        let negative = value < 0 && units != 0
        var fractionDigits = max(0, digits)
        if trimmingZeros {
            while fractionDigits > 0, units % 10 == 0 {
                units /= 10
                fractionDigits -= 1
            }
        }
        return NumberText.written(units: units, fractionDigits: fractionDigits, negative: negative)
    }
}
