import DetourCore
import DetourPlaces
import DetourRender
import Hummingbird

/// The gazetteer on the app's maps: the name of the place a long press points at, and the places
/// a search box finds by name.
///
/// Both answer JSON, and neither is kept by a browser: the places are the server's
/// (``PlaceFinder``), loaded at first use.
enum AppPlaces {
    /// `GET /places/nearest?lat=LAT&lon=LON`: `{"name": "Lisbon"}`, or a `null` name when no
    /// populated place is near enough to name the point by.
    static func nearest(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let point = AppForms.point(query.get("lat"), query.get("lon")) else {
            throw Problem(
                .unprocessableContent, .badForm, "send lat and lon in decimal degrees, as a trip's location has them")
        }
        let name = try await context.trips().settings.places.name(at: point)
        return json(.object([("name", name.map(JSONOutput.string) ?? .null)]))
    }

    /// `GET /places?q=TEXT`: the places whose names start with `TEXT`, accents and case aside,
    /// the most populous first: `[{"name": …, "country": "PT", "lat": …, "lon": …}, …]`.
    static func search(_ request: Request, context: ServerContext) async throws -> Response {
        let text = request.uri.queryParameters.get("q") ?? ""
        // A name longer than any place's is no place's: not searched.
        guard text.utf8.count <= 200 else { return json(.array([])) }
        let found = try await context.trips().settings.places.search(text)
        return json(
            .array(
                found.map { place in
                    .object([
                        ("name", .string(place.name)), ("country", .string(place.country)),
                        ("lat", .number(String(place.coordinate.latitude))),
                        ("lon", .number(String(place.coordinate.longitude))),
                    ])
                }))
    }

    static func json(_ value: JSONOutput) -> Response {
        Replies.json(value, extra: [(.cacheControl, "no-store")])
    }
}
