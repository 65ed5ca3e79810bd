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
    /// The destination's own page.
    public var href: String
    /// Its detours by their titles, each to its page.
    public var detours: [PageLinkModel]
    /// The trip's reports: its formats and feed.
    public var reports: [IndexLinkModel]
    /// Whether the person may change the trip: only then are **Add detour** and delete shown.
    public var canEdit = false
    public var formField = ""
    public var formToken = ""
    /// The trip file's entity tag as the page was made.
    public var version = ""
    /// Why the page is shown again: a change posted from it was not made.
    public var notice = ""
    /// The destination and its tasks that have a place, for its map: a JSON array of
    /// `{"lat", "lon", "label"}`, the destination first.
    public var points: String

    /// The page of the destination at `index` of `listed`'s trip, whose reports are `reports`.
    public init(_ listed: ListedTrip, index: Int, reports: [(label: String, href: String)]) {
        let destination = listed.trip.destinations[index]
        name = destination.name
        dates = Formatting.stay(destination)
        nights = Formatting.nights(destination.nights)
        trip = PageLinkModel(text: listed.trip.title, href: listed.href)
        let base = AppPaths.destination(listed.href, index)
        href = base
        detours = destination.detours.enumerated().map { number, detour in
            PageLinkModel(text: detour.title, href: "\(base)/detours/\(number + 1)")
        }
        self.reports = reports.map { IndexLinkModel(label: $0.label, href: $0.href) }
        points = Self.points(of: destination).serializedLine()
    }

    /// The destination's place and those of its detours' tasks, each once.
    static func points(of destination: Destination) -> JSONOutput {
        var points: [JSONOutput] = []
        var seen: Set<Coordinate> = []
        func add(_ coordinate: Coordinate, _ label: String) {
            guard seen.insert(coordinate).inserted else { return }
            points.append(
                .object([
                    ("lat", .number(String(coordinate.latitude))), ("lon", .number(String(coordinate.longitude))),
                    ("label", .string(label)),
                ]))
        }
        add(destination.location, destination.name)
        for detour in destination.detours {
            for task in detour.tasks {
                if let location = task.location { add(location, task.name) }
            }
        }
        return .array(points)
    }

    public var hasDetours: Bool { !detours.isEmpty }
    public var hasNotice: Bool { !notice.isEmpty }
    /// Where **Add detour** posts.
    public var addDetourAction: String { href + "/detours" }
    /// The page that asks whether to delete the destination.
    public var deleteHref: String { href + "/delete" }
}

/// The addresses of the app's pages under a trip's.
public enum AppPaths {
    /// The page of the destination at `index` (from 0) of the trip at `trip`: numbered from 1,
    /// in file order.
    public static func destination(_ trip: String, _ index: Int) -> String {
        "\(trip)/destinations/\(index + 1)"
    }
}

/// The form that makes a new, empty trip: its title.
public struct NewTripFormModel: Sendable {
    /// Where it posts.
    public var action: String
    public var formField: String
    public var formToken: String
    /// The new trip's `title`.
    public var title: FormFieldModel

    public init(action: String, formField: String, formToken: String, title: FormFieldModel) {
        self.action = action
        self.formField = formField
        self.formToken = formToken
        self.title = title
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

/// A detour's page: its title made of its tasks' names, and its two sides side by side.
///
/// A side with no task is a form that adds one (for whoever may edit); a side with a task shows
/// it, with its pros and cons, each deleted by a button, and added by a form of its own.
public struct DetourPageModel: Sendable {
    /// `Honor the Past or Embrace the Future`, as the reports title it.
    public var title: String
    public var destination: PageLinkModel
    public var trip: PageLinkModel
    /// Always two: the left side and the right.
    public var panes: [TaskPaneModel]
    /// Whether the person may change the trip: a viewer sees no form.
    public var canEdit: Bool
    public var formField: String
    public var formToken: String
    /// The trip file's entity tag as the page was made: a post made to another version is refused.
    public var version: String
    /// The page that asks whether to delete the detour.
    public var deleteHref: String
    /// Why the page is shown again: the trip changed elsewhere, or something is wrong.
    public var notice: String

    public init(
        title: String, destination: PageLinkModel, trip: PageLinkModel, panes: [TaskPaneModel], canEdit: Bool,
        formField: String, formToken: String, version: String, deleteHref: String, notice: String = ""
    ) {
        self.title = title
        self.destination = destination
        self.trip = trip
        self.panes = panes
        self.canEdit = canEdit
        self.formField = formField
        self.formToken = formToken
        self.version = version
        self.deleteHref = deleteHref
        self.notice = notice
    }

    public var hasNotice: Bool { !notice.isEmpty }
}

/// One side of a detour: a task shown, or the form that adds it.
public struct TaskPaneModel: Sendable {
    /// `left` or `right`.
    public var side: String
    /// `Left side`, `Right side`.
    public var heading: String
    /// Whether the side has no task yet: the pane is a form.
    public var isEditing: Bool
    /// Where the pane's forms post.
    public var action: String
    /// The new task's fields, while editing.
    public var fields: [FormFieldModel]
    /// The task's name, duration, cost and place, once saved.
    public var name = ""
    public var duration = ""
    public var cost = ""
    public var place = ""
    public var pros: [NoteModel] = []
    public var cons: [NoteModel] = []
    /// The fields that add a pro and a con.
    public var pro: FormFieldModel
    public var con: FormFieldModel

    /// The form that adds the task on `side`, with `fields`.
    public init(side: String, heading: String, action: String, fields: [FormFieldModel]) {
        self.side = side
        self.heading = heading
        isEditing = true
        self.action = action
        self.fields = fields
        pro = FormFieldModel("\(side)-pro", label: "New pro", type: "text")
        con = FormFieldModel("\(side)-con", label: "New con", type: "text")
    }

    /// `task` shown on `side`, its forms posting to `action`; `pro` and `con` add a note.
    public init(
        side: String, heading: String, action: String, task: DetourTask, pro: FormFieldModel, con: FormFieldModel
    ) {
        self.side = side
        self.heading = heading
        isEditing = false
        self.action = action
        fields = []
        name = task.name
        duration = Formatting.duration(task.duration)
        cost = Formatting.money(task.cost)
        place = task.location.map(Formatting.coordinate) ?? ""
        pros = task.pros.enumerated().map { NoteModel(text: $1, index: $0) }
        cons = task.cons.enumerated().map { NoteModel(text: $1, index: $0) }
        self.pro = pro
        self.con = con
    }

    public var hasPlace: Bool { !place.isEmpty }
    public var hasPros: Bool { !pros.isEmpty }
    public var hasCons: Bool { !cons.isEmpty }
}

/// A pro or a con, and its place among the task's.
public struct NoteModel: Sendable {
    public var text: String
    public var index: Int

    public init(text: String, index: Int) {
        self.text = text
        self.index = index
    }
}

/// A page that asks once more before something is deleted.
public struct ConfirmModel: Sendable {
    /// The question, such as `Delete the detour "Tram 28 or undecided"?`.
    public var question: String
    /// What goes with it.
    public var detail: String
    public var action: String
    public var cancelHref: String
    /// The trip file's entity tag as the page was made: a delete is made to that version only.
    public var version: String

    public init(question: String, detail: String, action: String, cancelHref: String, version: String) {
        self.question = question
        self.detail = detail
        self.action = action
        self.cancelHref = cancelHref
        self.version = version
    }
}
