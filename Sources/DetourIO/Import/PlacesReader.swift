import DetourCore
import Foundation

/// The places in a map app's export, for `detour-report import`: GPX 1.0 or 1.1 waypoints,
/// routes and tracks, or GeoJSON points and lines.
public enum PlacesReader {
    /// The places in `bytes`, read as GeoJSON when `geoJSON`, else as GPX; or why they cannot be.
    public static func read(_ bytes: [UInt8], geoJSON: Bool, limits: ReadLimits = .standard) -> Result<
        TripImport.Places, Diagnostic
    > {
        geoJSON ? readGeoJSON(bytes) : readGPX(bytes, limits: limits)
    }

    // MARK: - GPX

    /// Waypoints (`wpt`: name, desc or cmt, link), routes (`rte`/`rtept`) and tracks
    /// (`trk`/`trkseg`/`trkpt`, the segments joined), whatever namespace and version, and the
    /// file's name (`metadata/name` in 1.1, `name` under `gpx` in 1.0).
    static func readGPX(_ bytes: [UInt8], limits: ReadLimits) -> Result<TripImport.Places, Diagnostic> {
        let stream: XMLStream
        switch TripGPXReader.open(BufferSource(bytes), name: "places.gpx", limits: limits) {
        case .failure(let diagnostic): return .failure(diagnostic)
        case .success(let opened): stream = opened
        }
        var places = TripImport.Places(title: nil)
        var path: [String] = []
        var text = ""
        var point: TripImport.Point?
        var line: TripImport.Line?
        func coordinate() -> Coordinate? {
            guard let lat = stream.attributeNamed("lat").flatMap(Double.init),
                let lon = stream.attributeNamed("lon").flatMap(Double.init)
            else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        var status = stream.read()
        while status == 1 {
            switch stream.nodeType {
            case .documentType:
                return .failure(
                    Diagnostic(.xmlDoctype, "a DOCTYPE is not allowed in a GPX file; remove the <!DOCTYPE …> line"))
            case .element:
                let name = stream.localName
                let empty = stream.isEmptyElement
                switch (path.last, name) {
                case (nil, _) where name != "gpx":
                    return .failure(Diagnostic(.notGPX, "the root element is <\(Quoting.printable(name))>, not <gpx>"))
                case ("gpx", "wpt"):
                    if let location = coordinate() {
                        point = TripImport.Point(name: nil, description: nil, link: nil, location: location)
                    }
                case ("gpx", "rte"), ("gpx", "trk"):
                    line = TripImport.Line(name: nil, points: [])
                case ("rte", "rtept"), ("trkseg", "trkpt"):
                    if let location = coordinate(), let count = line?.points.count, count < limits.trip.maxPathPoints {
                        line?.points.append(location)
                    }
                case ("wpt", "link"):
                    if point?.link == nil { point?.link = stream.attributeNamed("href") }
                default:
                    break
                }
                text = ""
                if !empty { path.append(name) }
            case .endElement:
                let name = path.popLast()
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                switch (path.last, name) {
                case ("gpx", "wpt"):
                    if let done = point { places.points.append(done) }
                    point = nil
                case ("gpx", "rte"), ("gpx", "trk"):
                    if let done = line { places.lines.append(done) }
                    line = nil
                case ("wpt", "name"): point?.name = value
                case ("wpt", "desc"): point?.description = value
                case ("wpt", "cmt"): if point?.description == nil { point?.description = value }
                case ("wpt", "url"): if point?.link == nil { point?.link = value }
                case ("rte", "name"), ("trk", "name"): line?.name = value
                case ("metadata", "name"), ("gpx", "name"): if places.title == nil { places.title = value }
                default: break
                }
                text = ""
            case .text, .cdata, .significantWhitespace, .whitespace:
                if text.utf8.count <= limits.trip.maxTextBytes { text += stream.value }
            case nil:
                break
            }
            status = stream.read()
        }
        if status < 0 { return .failure(stream.failure(limits)) }
        return .success(places)
    }

    // MARK: - GeoJSON

    /// The places of a GeoJSON document (RFC 7946).
    ///
    /// `Point` and `MultiPoint` features become places (their `name` or `title`, `description`,
    /// and `url` or `link` properties); `LineString` and `MultiLineString` become ways. A
    /// FeatureCollection, a single Feature or a bare geometry.
    static func readGeoJSON(_ bytes: [UInt8]) -> Result<TripImport.Places, Diagnostic> {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return .failure(Diagnostic(.jsonSyntax, "not a GeoJSON object (RFC 7946)"))
        }
        var places = TripImport.Places(title: root["name"] as? String)
        let features: [[String: Any]]
        switch root["type"] as? String {
        case "FeatureCollection": features = root["features"] as? [[String: Any]] ?? []
        case "Feature": features = [root]
        default: features = [["type": "Feature", "geometry": root]]
        }
        for feature in features {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let name = (properties["name"] ?? properties["title"]) as? String
            let description = properties["description"] as? String
            let link = (properties["url"] ?? properties["link"]) as? String
            guard let geometry = feature["geometry"] as? [String: Any] else { continue }
            let coordinates = geometry["coordinates"]
            switch geometry["type"] as? String {
            case "Point":
                if let location = position(coordinates) {
                    places.points.append(.init(name: name, description: description, link: link, location: location))
                }
            case "MultiPoint":
                for location in (coordinates as? [Any] ?? []).compactMap(position) {
                    places.points.append(.init(name: name, description: description, link: link, location: location))
                }
            case "LineString":
                places.lines.append(.init(name: name, points: (coordinates as? [Any] ?? []).compactMap(position)))
            case "MultiLineString":
                let parts = (coordinates as? [Any] ?? []).map { ($0 as? [Any] ?? []).compactMap(position) }
                places.lines.append(.init(name: name, points: parts.flatMap { $0 }))
            default:
                continue
            }
        }
        return .success(places)
    }

    /// A GeoJSON position, `[longitude, latitude]` (RFC 7946 §3.1.1).
    static func position(_ value: Any?) -> Coordinate? {
        guard let numbers = value as? [Any], numbers.count >= 2,
            let lon = (numbers[0] as? NSNumber)?.doubleValue, let lat = (numbers[1] as? NSNumber)?.doubleValue
        else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
