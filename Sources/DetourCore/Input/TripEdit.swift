/// One change a person makes to a trip in the app, applied to the trip's draft: the trip as its
/// reader found it, before any rule.
///
/// An edit only places what was typed, as text, where a reader would have put it; the validator
/// then judges the whole trip, with every rule and message it has for a file. So a value typed in
/// a form is read exactly as the same value written in the file would be. Stays, detours, tasks
/// and their pros and cons are named by their places in the file, counted from 0.
public enum TripEdit: Sendable, Equatable {
    /// A new destination at the end of the trip.
    case addDestination(StayFields)
    /// A new detour, with no task yet, at the end of a stay's.
    case addDetour(stay: Int)
    /// A task as the detour's next side (it has fewer than two).
    case addTask(stay: Int, detour: Int, TaskFields)
    /// A pro or a con at the end of those of the task on a side (0: left).
    case addNote(stay: Int, detour: Int, side: Int, Note, String)
    /// One of the pros or cons of the task on a side, by its place.
    case deleteNote(stay: Int, detour: Int, side: Int, Note, Int)
    /// A detour and its tasks.
    case deleteDetour(stay: Int, detour: Int)
    /// A destination and its detours.
    case deleteDestination(stay: Int)

    /// A task's pros or its cons.
    public enum Note: String, Sendable, Equatable {
        case pro, con
    }

    /// What a person typed for a stay: each value as text, empty when left out.
    public struct StayFields: Sendable, Equatable {
        public var name: String
        public var arrival: String
        public var departure: String
        public var latitude: String
        public var longitude: String

        public init(name: String, arrival: String, departure: String, latitude: String, longitude: String) {
            self.name = name
            self.arrival = arrival
            self.departure = departure
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// What a person typed for a task: each value as text, empty when left out; its cost's amount
    /// and currency apart.
    public struct TaskFields: Sendable, Equatable {
        public var name: String
        public var duration: String
        public var amount: String
        public var currency: String
        public var latitude: String
        public var longitude: String

        public init(
            name: String, duration: String, amount: String, currency: String, latitude: String, longitude: String
        ) {
            self.name = name
            self.duration = duration
            self.amount = amount
            self.currency = currency
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Why an edit could not be made: what it names is not in the trip (the file changed).
    public struct Missing: Error, Sendable, Equatable {}

    /// `draft` with the change made.
    public func applied(to draft: TripDraft) throws(Missing) -> TripDraft {
        var draft = draft
        var stays = Self.stays(of: draft)
        switch self {
        case .addDestination(let fields):
            let place = CoordinateDraft(latitude: Self.typed(fields.latitude), longitude: Self.typed(fields.longitude))
            stays.append(
                DestinationDraft(
                    position: .unknown, name: Self.typed(fields.name), coordinate: .present(place, .unknown),
                    arrival: Self.typed(fields.arrival), departure: Self.typed(fields.departure), detours: []))
        case .addDetour(let stay):
            try Self.check(stay, in: stays)
            stays[stay].detours.append(DetourDraft(position: .unknown, tasks: []))
        case .addTask(let stay, let detour, let fields):
            try Self.check(stay, detour, in: stays)
            // Where the file numbers the sides, the new task takes the side that is free.
            let sides = stays[stay].detours[detour].sides
            if !sides.isEmpty {
                stays[stay].detours[detour].sides.append(.present(Self.freeSide(sides), .unknown))
            }
            stays[stay].detours[detour].tasks.append(Self.task(fields))
        case .addNote(let stay, let detour, let side, let note, let text):
            try Self.check(stay, detour, in: stays)
            let task = Self.fileIndex(side, in: stays[stay].detours[detour])
            try Self.check(stay, detour, task, in: stays)
            let typed = Field.present(text, SourcePosition.unknown)
            switch note {
            case .pro: stays[stay].detours[detour].tasks[task].pros.append(typed)
            case .con: stays[stay].detours[detour].tasks[task].cons.append(typed)
            }
        case .deleteNote(let stay, let detour, let side, let note, let index):
            try Self.check(stay, detour, in: stays)
            let task = Self.fileIndex(side, in: stays[stay].detours[detour])
            try Self.check(stay, detour, task, in: stays)
            var notes =
                note == .pro
                ? stays[stay].detours[detour].tasks[task].pros : stays[stay].detours[detour].tasks[task].cons
            guard notes.indices.contains(index) else { throw Missing() }
            notes.remove(at: index)
            switch note {
            case .pro: stays[stay].detours[detour].tasks[task].pros = notes
            case .con: stays[stay].detours[detour].tasks[task].cons = notes
            }
        case .deleteDetour(let stay, let detour):
            try Self.check(stay, detour, in: stays)
            stays[stay].detours.remove(at: detour)
        case .deleteDestination(let stay):
            try Self.check(stay, in: stays)
            stays.remove(at: stay)
        }
        var position = SourcePosition.unknown
        if case .present(_, let written) = draft.destinations { position = written }
        draft.destinations = .present(stays, position)
        return draft
    }

    /// Where in the trip the edit's own fields are, before it is made: the path the validator
    /// names them by.
    public func path(in draft: TripDraft) -> String {
        let stays = Self.stays(of: draft)
        switch self {
        case .addDestination: return "destinations[\(stays.count)]"
        case .addDetour(let stay), .deleteDestination(let stay): return "destinations[\(stay)]"
        case .addTask(let stay, let detour, _):
            let tasks =
                stays.indices.contains(stay) && stays[stay].detours.indices.contains(detour)
                ? stays[stay].detours[detour].tasks.count : 0
            return "destinations[\(stay)].detours[\(detour)].tasks[\(tasks)]"
        case .addNote(let stay, let detour, let side, let note, _),
            .deleteNote(let stay, let detour, let side, let note, _):
            return "destinations[\(stay)].detours[\(detour)].tasks[\(side)].\(note.rawValue)s"
        case .deleteDetour(let stay, let detour): return "destinations[\(stay)].detours[\(detour)]"
        }
    }

    /// The draft's stays; none when it has no list of them.
    static func stays(of draft: TripDraft) -> [DestinationDraft] {
        guard case .present(let stays, _) = draft.destinations else { return [] }
        return stays
    }

    /// The side (`1` or `2`) that none of `sides` names; past both, the next number, which the
    /// validator refuses as a third task.
    static func freeSide(_ sides: [Field<String>]) -> String {
        var taken: Set<String> = []
        for side in sides {
            if case .present(let text, _) = side { taken.insert(TokenText.trimmed(text)) }
        }
        for side in 1...Detour.sides where !taken.contains(String(side)) { return String(side) }
        return String(sides.count + 1)
    }

    /// A task as typed.
    static func task(_ fields: TaskFields) -> TaskDraft {
        var place: Field<CoordinateDraft> = .missing(.unknown)
        if !fields.latitude.isEmpty || !fields.longitude.isEmpty {
            place = .present(
                CoordinateDraft(latitude: typed(fields.latitude), longitude: typed(fields.longitude)), .unknown)
        }
        var cost: Field<MoneyDraft> = .missing(.unknown)
        if !fields.amount.isEmpty || !fields.currency.isEmpty {
            cost = .present(MoneyDraft(amount: typed(fields.amount), currency: typed(fields.currency)), .unknown)
        }
        return TaskDraft(
            position: .unknown, name: typed(fields.name), duration: typed(fields.duration), cost: cost,
            coordinate: place, pros: [], cons: [])
    }

    /// The place in the file of the detour's task on `side` (0: left), as the validator orders
    /// them: by the sides the file numbers, else in the file's order.
    static func fileIndex(_ side: Int, in detour: DetourDraft) -> Int {
        for (index, written) in detour.sides.enumerated() {
            if case .present(let text, _) = written, TokenText.trimmed(text) == String(side + 1) { return index }
        }
        return side
    }

    static func check(_ stay: Int, _ detour: Int? = nil, _ task: Int? = nil, in stays: [DestinationDraft])
        throws(Missing)
    {
        guard stays.indices.contains(stay) else { throw Missing() }
        guard let detour else { return }
        guard stays[stay].detours.indices.contains(detour) else { throw Missing() }
        guard let task else { return }
        guard stays[stay].detours[detour].tasks.indices.contains(task) else { throw Missing() }
    }

    /// A field as typed: missing when left empty, so the validator says it is required.
    static func typed(_ text: String) -> Field<String> {
        text.isEmpty ? .missing(.unknown) : .present(text, .unknown)
    }

    /// A trip of nothing but `title`, for the first destination of a new trip.
    public static func newTrip(title: String) -> TripDraft {
        TripDraft(
            position: .unknown, title: typed(title), traveler: .missing(.unknown), destinations: .present([], .unknown))
    }
}
