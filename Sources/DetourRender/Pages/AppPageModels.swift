import DetourCore

/// The models of the app's screens on the server: the destination list and a destination's page.
///
/// They are the original Detour app's screens, made of the same trips as the reports: the
/// sections and their order are the plan's (`Sections`), the dates and titles the report's.

/// A trip whose destinations the list shows.
public struct ListedTrip: Sendable {
    public var trip: Trip
    /// Where the trip's pages are: `/trips/lisbon`, or `/shared/ID/trips/lisbon` for a trip shared
    /// with the person.
    public var href: String
    /// Who shared it, when it is not the person's own.
    public var sharedBy: String?

    public init(trip: Trip, href: String, sharedBy: String? = nil) {
        self.trip = trip
        self.href = href
        self.sharedBy = sharedBy
    }
}

/// A link with its text, to a page of the server's own.
public struct PageLinkModel: Sendable {
    public var text: String
    public var href: String

    public init(text: String, href: String) {
        self.text = text
        self.href = href
    }
}

/// The list of destinations: every destination of the person's trips and of those shared with
/// them, in three sections.
public struct DestinationListModel: Sendable {
    /// Coming up, under way, done: always the three, in that order.
    public var sections: [DestinationSectionModel]
    /// The trips whose destinations cannot be listed (their files have errors), to their pages.
    public var unlisted: [PageLinkModel]
    /// Where **Add destination** leads, or empty when the person may add none.
    public var addHref: String

    /// The destinations of `trips` in their sections as of `today`; a destination's place in a
    /// section ties with another's by the order of `trips`, then of the trip's destinations.
    public init(trips: [ListedTrip], unlisted: [PageLinkModel], today: CalendarDay, addHref: String) {
        var found: [SectionKind: [(trip: Int, index: Int)]] = [:]
        for (tripIndex, listed) in trips.enumerated() {
            for (index, destination) in listed.trip.destinations.enumerated() {
                found[Sections.kind(of: destination, today: today), default: []].append((tripIndex, index))
            }
        }
        sections = SectionKind.allCases.map { kind in
            let sorted = Sections.sorted(found[kind] ?? [], in: kind) { trips[$0.trip].trip.destinations[$0.index] }
            return DestinationSectionModel(
                kind: kind, rows: sorted.map { DestinationRowModel(trips[$0.trip], index: $0.index) })
        }
        self.unlisted = unlisted
        self.addHref = addHref
    }

    public var hasUnlisted: Bool { !unlisted.isEmpty }
    public var canAdd: Bool { !addHref.isEmpty }
}

/// One section of the destination list.
public struct DestinationSectionModel: Sendable {
    /// `future`, `now` or `past`.
    public var name: String
    /// `Coming up`, `Under way`, `Done`: the report's headings.
    public var heading: String
    public var emptyText: String
    public var rows: [DestinationRowModel]

    init(kind: SectionKind, rows: [DestinationRowModel]) {
        name = kind.rawValue
        (heading, emptyText) = SectionModel.words(kind)
        self.rows = rows
    }

    public var isEmpty: Bool { rows.isEmpty }
}

/// A destination in the list: its name, dates and trip, and who shared the trip.
public struct DestinationRowModel: Sendable {
    public var name: String
    /// `Tue 1 Dec – Fri 4 Dec 2026`, as the report's overview writes them.
    public var dates: String
    /// The trip's title.
    public var trip: String
    /// Who shared the trip, or empty for the person's own.
    public var sharedBy: String
    /// The destination's page.
    public var href: String

    init(_ listed: ListedTrip, index: Int) {
        let destination = listed.trip.destinations[index]
        name = destination.name
        dates = Formatting.stay(destination)
        trip = listed.trip.title
        sharedBy = listed.sharedBy ?? ""
        href = AppPaths.destination(listed.href, index)
    }

    public var isShared: Bool { !sharedBy.isEmpty }
}

/// A destination's page: its name as the title, its days, its detours, and its trip's reports.
public struct DestinationPageModel: Sendable {
    public var name: String
    public var dates: String
    /// `3 nights`.
    public var nights: String
    /// The trip's title, and its preview.
    public var trip: PageLinkModel
    /// Its detours by their titles, each to its page.
    public var detours: [PageLinkModel]
    /// The trip's reports: its formats and feed.
    public var reports: [IndexLinkModel]

    /// The page of the destination at `index` of `listed`'s trip, whose reports are `reports`.
    public init(_ listed: ListedTrip, index: Int, reports: [(label: String, href: String)]) {
        let destination = listed.trip.destinations[index]
        name = destination.name
        dates = Formatting.stay(destination)
        nights = Formatting.nights(destination.nights)
        trip = PageLinkModel(text: listed.trip.title, href: listed.href)
        let base = AppPaths.destination(listed.href, index)
        detours = destination.detours.enumerated().map { number, detour in
            PageLinkModel(text: detour.title, href: "\(base)/detours/\(number + 1)")
        }
        self.reports = reports.map { IndexLinkModel(label: $0.label, href: $0.href) }
    }

    public var hasDetours: Bool { !detours.isEmpty }
}

/// The addresses of the app's pages under a trip's.
public enum AppPaths {
    /// The page of the destination at `index` (from 0) of the trip at `trip`: numbered from 1,
    /// in file order.
    public static func destination(_ trip: String, _ index: Int) -> String {
        "\(trip)/destinations/\(index + 1)"
    }
}

/// The form that adds a destination: its fields, the trip it goes in, and what the server found
/// wrong with what was sent.
public struct DestinationFormModel: Sendable {
    /// Where it posts.
    public var action: String
    public var formField: String
    public var formToken: String
    /// `name`, `arrival`, `departure`, `lat`, `lon`.
    public var fields: [FormFieldModel]
    /// The person's trips, and a new one.
    public var trips: [OptionModel]
    /// The new trip's `title`.
    public var title: FormFieldModel
    /// What is wrong with the trip as a whole, not with one field.
    public var problems: [String]

    public init(
        action: String, formField: String, formToken: String, fields: [FormFieldModel], trips: [OptionModel],
        title: FormFieldModel, problems: [String]
    ) {
        self.action = action
        self.formField = formField
        self.formToken = formToken
        self.fields = fields
        self.trips = trips
        self.title = title
        self.problems = problems
    }

    public var hasProblems: Bool { !problems.isEmpty }
}

/// One choice of a `<select>`.
public struct OptionModel: Sendable {
    public var value: String
    public var text: String
    public var selected: Bool

    public init(value: String, text: String, selected: Bool) {
        self.value = value
        self.text = text
        self.selected = selected
    }
}
