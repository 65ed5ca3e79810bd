/// The names of the GPX trip mapping (version 1); the README documents it with an example.
///
/// A `<wpt>` with `<dr:stay id= arrival= departure=/>` in its extensions is a destination (its
/// name, lat and lon); a `<wpt>` with `<dr:task destination= detour= duration= cost= currency=>`
/// is a task of the stay whose id is `destination`, with `<dr:pro>` and `<dr:con>` children.
/// Detours are ordered by the first appearance of their `detour` key; a stay may declare one
/// ahead with `<dr:detour id=/>` (so a detour with no task yet survives a round trip), and a
/// `dr:task` inside the stay's own waypoint is a task without a location.
enum GPXMapping {
    /// The trip extension namespace; matched by URI, never by prefix.
    static let namespace: StaticString = "urn:detour-report:gpx:1"
    /// The prefix the writer uses.
    static let prefix = "dr"
    /// GPX 1.1's namespace.
    static let gpx11: StaticString = "http://www.topografix.com/GPX/1/1"
    /// GPX 1.0's namespace.
    static let gpx10: StaticString = "http://www.topografix.com/GPX/1/0"
}
