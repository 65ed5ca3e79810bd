/// The names of the GPX trip mapping (version 1), written once for the reader and the writer;
/// the README documents the mapping with an example.
///
/// A `<wpt>` with `<dr:stay id= arrival= departure=/>` in its extensions is a destination (its
/// name, lat and lon); a `<wpt>` with `<dr:task destination= detour= duration= cost= currency=>`
/// is a task of the stay whose id is `destination`, with `<dr:pro>` and `<dr:con>` children.
/// Detours are ordered by the first appearance of their `detour` key; a stay may declare one
/// ahead with `<dr:detour id=/>` (so a detour with no task yet survives a round trip), and a
/// `dr:task` inside the stay's own waypoint is a task without a location. A `<rte>` or `<trk>`
/// with `<dr:path destination= task=/>` is that task's path.
///
/// Names are `StaticString`s so the reader can compare them with libxml2's buffers without
/// making a `String` for every node.
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
    enum GPX {
        static let root: StaticString = "gpx"
        static let metadata: StaticString = "metadata"
        static let name: StaticString = "name"
        static let type: StaticString = "type"
        static let author: StaticString = "author"
        static let email: StaticString = "email"
        static let extensions: StaticString = "extensions"
        static let waypoint: StaticString = "wpt"
        static let route: StaticString = "rte"
        static let routePoint: StaticString = "rtept"
        static let track: StaticString = "trk"
        static let trackSegment: StaticString = "trkseg"
        static let trackPoint: StaticString = "trkpt"
    }

    /// Attributes of GPX's own elements.
    enum GPXAttribute {
        static let version: StaticString = "version"
        static let creator: StaticString = "creator"
        static let latitude: StaticString = "lat"
        static let longitude: StaticString = "lon"
        static let emailID: StaticString = "id"
        static let emailDomain: StaticString = "domain"
    }

    /// The mapping's own elements, in ``namespace``.
    enum Element {
        static let trip: StaticString = "trip"
        static let stay: StaticString = "stay"
        static let detour: StaticString = "detour"
        static let task: StaticString = "task"
        static let pro: StaticString = "pro"
        static let con: StaticString = "con"
        static let path: StaticString = "path"
        static let rate: StaticString = "rate"
        static let budget: StaticString = "budget"
    }

    /// The attributes of the mapping's elements (none in a namespace).
    enum Attribute {
        static let id: StaticString = "id"
        static let name: StaticString = "name"
        static let arrival: StaticString = "arrival"
        static let departure: StaticString = "departure"
        static let destination: StaticString = "destination"
        static let detour: StaticString = "detour"
        static let side: StaticString = "side"
        static let travel: StaticString = "travel"
        static let duration: StaticString = "duration"
        static let cost: StaticString = "cost"
        static let currency: StaticString = "currency"
        static let task: StaticString = "task"
        static let value: StaticString = "value"
        static let amount: StaticString = "amount"
        static let dayHours: StaticString = "day-hours"
    }

    /// The attributes each mapping element has; any other is warned about and ignored.
    static let knownAttributes: [String: [StaticString]] = [
        Element.trip.description: [Attribute.travel, Attribute.currency, Attribute.dayHours],
        Element.stay.description: [Attribute.id, Attribute.arrival, Attribute.departure, Attribute.dayHours],
        Element.rate.description: [Attribute.currency, Attribute.value],
        Element.budget.description: [Attribute.amount, Attribute.currency],
        Element.detour.description: [Attribute.id],
        Element.task.description: [
            Attribute.id, Attribute.name, Attribute.destination, Attribute.detour, Attribute.side,
            Attribute.travel, Attribute.duration, Attribute.cost, Attribute.currency,
        ],
        Element.path.description: [Attribute.destination, Attribute.task],
        Element.pro.description: [],
        Element.con.description: [],
    ]
}
