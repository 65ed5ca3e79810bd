/// The names of the GPX trip mapping (version 1), written once for the reader and the writer;
/// docs/trip-format.md documents the mapping with an example.
///
/// A `<wpt>` with `<dr:stay id= arrival= departure=/>` in its extensions is a destination (its
/// name, lat and lon); a `<wpt>` with `<dr:task destination= detour= duration= cost= currency=>`
/// is a task of the stay whose id is `destination`, with `<dr:pro>` and `<dr:con>` children.
/// Detours are ordered by the first appearance of their `detour` key; a stay may declare one
/// ahead with `<dr:detour id=/>` (so a detour with no task yet survives a round trip), and a
/// `dr:task` inside the stay's own waypoint is a task without a location. A `<rte>` or `<trk>`
/// with `<dr:path destination= task=/>` is that task's path.
enum GPXMapping {
    /// The trip extension namespace; matched by URI, never by prefix.
    static let namespace: StaticString = "urn:detour-report:gpx:1"
    /// The prefix the writer uses.
    static let prefix = "dr"
    /// GPX 1.1's namespace.
    static let gpx11: StaticString = "http://www.topografix.com/GPX/1/1"
    /// GPX 1.0's namespace.
    static let gpx10: StaticString = "http://www.topografix.com/GPX/1/0"

    /// Elements of GPX itself.
    enum GPX: String {
        case gpx, metadata, name, type, author, email, extensions, wpt, rte, rtept, trk, trkseg, trkpt
    }

    /// Attributes of GPX's own elements.
    enum GPXAttribute: String {
        case version, creator, lat, lon, id, domain
    }

    /// The mapping's own elements, in ``namespace``.
    enum Element: String {
        case trip, stay, detour, task, pro, con, path, rate, budget

        /// The attributes the element has (none in a namespace); any other is warned about and
        /// ignored.
        var attributes: [Attribute] {
            switch self {
            case .trip: [.travel, .currency, .dayHours]
            case .stay: [.id, .arrival, .departure, .dayHours]
            case .rate: [.currency, .value]
            case .budget: [.amount, .currency]
            case .detour: [.id]
            case .path: [.destination, .task]
            case .task: [.id, .name, .destination, .detour, .side, .travel, .duration, .cost, .currency]
            case .pro, .con: []
            }
        }
    }

    /// The attributes of the mapping's elements (none in a namespace).
    enum Attribute: String {
        case id, name, arrival, departure, destination, detour, side, travel, duration, cost, currency, task, value
        case amount
        case dayHours = "day-hours"
    }

}
