import DetourCore

/// The plan as an iCalendar file (RFC 5545) for any calendar program.
///
/// One all-day event per stay, from the arrival day to the departure day included, and one
/// all-day event per chosen side that the plan's schedule places on a day (over several days for
/// a side longer than a day); a trip with no stays has a journal entry that says so instead. The bytes depend on the plan alone: `DTSTAMP` is the plan's day
/// and each `UID` is made from the trip's content, so exporting again, anywhere, gives the same
/// file, and a calendar that imports it again updates its events instead of doubling them.
public enum ICSExport {
    /// The `PRODID`: who made the calendar (RFC 5545 §3.7.3).
    public static let productIdentifier = "-//\(ProgramVersion.name)//\(ProgramVersion.nameAndNumber)//EN"

    /// The calendar of `plan` as UTF-8 bytes, lines ended by CRLF and folded at 75 octets.
    public static func bytes(plan: Plan) -> [UInt8] {
        bytes(plans: [plan], name: plan.title, today: plan.today)
    }

    /// One calendar of every plan in `plans`, named `name`, as of `today`.
    ///
    /// It is what the server's `/calendar.ics` feed is. Each plan's events are those of its own calendar, in the order given.
    public static func bytes(plans: [Plan], name: String, today: CalendarDay) -> [UInt8] {
        var lines = ContentLines()
        lines.property("BEGIN", "VCALENDAR")
        lines.property("VERSION", "2.0")
        lines.property("PRODID", productIdentifier)
        lines.property("CALSCALE", "GREGORIAN")
        lines.property("METHOD", "PUBLISH")
        // Not in RFC 5545, but the name most calendar programs give a subscribed calendar.
        lines.text("X-WR-CALNAME", name)
        // How often a calendar that subscribes to the file should fetch it again: RFC 7986's
        // property, and the older one Outlook and Google read.
        lines.property("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
        lines.property("X-PUBLISHED-TTL", "PT1H")
        for plan in plans { events(of: plan, into: &lines) }
        if plans.isEmpty { note(title: name, stamp: stamp(today), into: &lines) }
        lines.property("END", "VCALENDAR")
        return lines.bytes
    }

    /// `DTSTAMP`: the plan's day at midnight UTC.
    static func stamp(_ day: CalendarDay) -> String { dateText(day) + "T000000Z" }

    /// The events of `plan`'s stays and chosen sides, or its note when it has no stays.
    static func events(of plan: Plan, into lines: inout ContentLines) {
        let stamp = stamp(plan.today)
        // In the trip file's order: calendar programs sort by date themselves.
        for planned in plan.destinationsInFileOrder {
            stay(planned, title: plan.title, stamp: stamp, into: &lines)
            for day in planned.schedule {
                for item in day.items {
                    side(item, on: day.day, of: planned, title: plan.title, stamp: stamp, into: &lines)
                }
            }
        }
        if plan.destinationsInFileOrder.isEmpty { note(title: plan.title, stamp: stamp, into: &lines) }
    }

    /// The stay: arrival to departure, both days spent there, so `DTEND` (exclusive) is the day
    /// after departure.
    static func stay(_ planned: PlannedDestination, title: String, stamp: String, into lines: inout ContentLines) {
        let destination = planned.destination
        // The validator refuses a departure with no day after it.
        guard let end = destination.departure.adding(days: 1) else { return }
        lines.property("BEGIN", "VEVENT")
        lines.property("UID", uid("stay", [title, String(planned.index), destination.name]))
        lines.property("DTSTAMP", stamp)
        lines.property("DTSTART;VALUE=DATE", dateText(destination.arrival))
        lines.property("DTEND;VALUE=DATE", dateText(end))
        lines.text("SUMMARY", destination.name)
        lines.text("LOCATION", destination.name)
        lines.property("GEO", geo(destination.location))
        var description = [Formatting.nights(destination.nights)]
        for detour in planned.detours {
            let chosen = detour.chosen.flatMap { detour.tasks.indices.contains($0) ? detour.tasks[$0].task.name : nil }
            description.append("\(detour.title): \(chosen ?? "undecided")")
        }
        lines.text("DESCRIPTION", description.joined(separator: "\n"))
        // A stay does not make the traveller busy: the detours inside it do.
        lines.property("TRANSP", "TRANSPARENT")
        lines.property("END", "VEVENT")
    }

    /// A chosen side on the day the schedule gives it, over as many days as it covers.
    static func side(
        _ item: ScheduleItem, on day: CalendarDay, of planned: PlannedDestination, title: String, stamp: String,
        into lines: inout ContentLines
    ) {
        // A side lies within its stay, which ends by 9999-12-30: its end is a day there is.
        guard planned.detours.indices.contains(item.detour),
            planned.detours[item.detour].tasks.indices.contains(item.task),
            let end = day.adding(days: max(1, item.days))
        else { return }
        let detour = planned.detours[item.detour]
        let side = detour.tasks[item.task]
        let task = side.task
        lines.property("BEGIN", "VEVENT")
        let identity = [
            title, String(planned.index), planned.destination.name, String(item.detour), String(item.task), task.name,
        ]
        lines.property("UID", uid("side", identity))
        lines.property("DTSTAMP", stamp)
        lines.property("DTSTART;VALUE=DATE", dateText(day))
        lines.property("DTEND;VALUE=DATE", dateText(end))
        // A plan reads as what is done: the chosen task; the choice it was made in is below.
        lines.text("SUMMARY", task.name)
        // The place by its name, as a calendar shows it (the stay's for a task with no place of
        // its own); GEO (RFC 5545 §3.8.1.6) has its point when it has one.
        lines.text("LOCATION", task.location == nil ? planned.destination.name : task.name)
        if let location = task.location { lines.property("GEO", geo(location)) }
        let description = [
            "Detour: \(detour.title)",
            "Duration: \(Formatting.duration(task.duration))",
            "Cost: \(Formatting.money(task.cost))",
            "Travel: \(Formatting.travel(side))",
            "Stay: \(planned.destination.name)",
        ]
        lines.text("DESCRIPTION", description.joined(separator: "\n"))
        lines.property("END", "VEVENT")
    }

    /// A journal entry saying the trip has no stays yet.
    ///
    /// RFC 5545 (§3.6) wants a calendar to hold at least one component, and a trip with no stays
    /// has no event: a journal entry keeps the file valid while calendar programs, which show
    /// events, show nothing.
    static func note(title: String, stamp: String, into lines: inout ContentLines) {
        lines.property("BEGIN", "VJOURNAL")
        lines.property("UID", uid("note", [title]))
        lines.property("DTSTAMP", stamp)
        lines.text("SUMMARY", "\(title): no stays yet")
        lines.property("END", "VJOURNAL")
    }

    /// `20261201`: a DATE value (RFC 5545 §3.3.4).
    static func dateText(_ day: CalendarDay) -> String {
        day.description.filter { $0 != "-" }
    }

    /// `38.7223;-9.1393`: latitude first (RFC 5545 §3.8.1.6), at most six decimals, which the RFC
    /// says every reader must accept.
    static func geo(_ point: Coordinate) -> String {
        Formatting.degrees(point.latitude, digits: 6) + ";" + Formatting.degrees(point.longitude, digits: 6)
    }

    /// A UID made from what identifies the event, the same on every run and machine: `stay-1a2b3c4d5e6f7a8b@detour-
    /// report`.
    ///
    /// The trip's title is part of it, so two trips' events do not share UIDs in one calendar; dates
    /// are not, so moving a stay updates its event.
    static func uid(_ kind: String, _ parts: [String]) -> String {
        "\(kind)-\(ContentHash.hex(parts))@\(ProgramVersion.name)"
    }
}

/// A 64-bit FNV-1a hash of some texts, as 16 hex digits.
///
/// It names events; it protects nothing, so it need not be cryptographic, only the same on every
/// run (Swift's `Hasher` is seeded per process). It stays FNV-1a, a few lines, and not SHA-256
/// (`ContentDigest` in `DetourBase`, for entity tags), because a calendar knows an event by its
/// UID: a different hash would give every event of every exported file and subscribed feed a new
/// UID, and each calendar that refreshes would show every event twice.
enum ContentHash {
    static func hex(_ parts: [String]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (index, part) in parts.enumerated() {
            // A unit separator between parts, so ["ab", "c"] and ["a", "bc"] differ.
            let bytes = index == 0 ? Array(part.utf8) : [0x1F] + Array(part.utf8)
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
