/// One change a person makes to a trip in the app, applied to the trip's draft: the trip as its
/// reader found it, before any rule.
///
/// An edit only places what was typed, as text, where a reader would have put it; the validator
/// then judges the whole trip, with every rule and message it has for a file. So a value typed in
/// a form is read exactly as the same value written in the file would be.
public enum TripEdit: Sendable {
    /// A new destination at the end of the trip.
    case addDestination(StayFields)

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

    /// `draft` with the change made.
    public func applied(to draft: TripDraft) -> TripDraft {
        var draft = draft
        switch self {
        case .addDestination(let fields):
            var destinations = draft.destinations.value ?? []
            destinations.append(
                DestinationDraft(
                    position: .unknown, name: Self.typed(fields.name),
                    coordinate: .present(
                        CoordinateDraft(
                            latitude: Self.typed(fields.latitude), longitude: Self.typed(fields.longitude)),
                        .unknown),
                    arrival: Self.typed(fields.arrival), departure: Self.typed(fields.departure), detours: []))
            draft.destinations = .present(destinations, draft.destinations.position ?? .unknown)
        }
        return draft
    }

    /// Where in the trip the edit's own fields are: the path the validator names them by.
    public func path(in draft: TripDraft) -> String {
        switch self {
        case .addDestination: return "destinations[\(draft.destinations.value?.count ?? 0)]"
        }
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
