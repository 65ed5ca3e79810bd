import DetourCore
import Foundation

/// The places in a map app's export, for `detour-report import`: GPX 1.0 or 1.1 waypoints,
/// routes and tracks, GeoJSON points and lines, or KML (and KMZ) placemarks.
public enum PlacesReader {
    /// The kinds of file `import` reads.
    public enum Kind: Sendable, Equatable {
        case gpx, geoJSON, kml, kmz

        /// The kind a file's name says: `.geojson` and `.json` are GeoJSON, `.kml` and `.kmz`
        /// KML; anything else is read as GPX.
        public init(fileName: String) {
            let lowered = fileName.lowercased()
            if lowered.hasSuffix(".geojson") || lowered.hasSuffix(".json") {
                self = .geoJSON
            } else if lowered.hasSuffix(".kml") {
                self = .kml
            } else if lowered.hasSuffix(".kmz") {
                self = .kmz
            } else {
                self = .gpx
            }
        }
    }

    /// The places in `bytes`, read as `kind`; or why they cannot be.
    public static func read(_ bytes: [UInt8], kind: Kind, limits: ReadLimits = .standard) -> Result<
        TripImport.Places, Diagnostic
    > {
        switch kind {
        case .gpx: readGPX(bytes, limits: limits)
        case .geoJSON: readGeoJSON(bytes)
        case .kml: KMLPlaces.read(bytes, limits: limits)
        case .kmz: KMLPlaces.readKMZ(bytes, limits: limits)
        }
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
        var point: TripImport.Point?
        // A waypoint that is no place, and why, until its name is read.
        var skipping: TripImport.Skipped?
        var line: TripImport.Line?
        func coordinate() -> Coordinate? {
            guard let lat = stream.attributeNamed("lat").flatMap(Double.init),
                let lon = stream.attributeNamed("lon").flatMap(Double.init)
            else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        let failure = walk(stream, root: "gpx", limits: limits) { parent, name in
            switch (parent, name) {
            case ("gpx", "wpt"):
                switch place(coordinate(), given: stream.attributeNamed("lat") != nil) {
                case .success(let location):
                    point = TripImport.Point(name: nil, description: nil, link: nil, location: location)
                case .failure(let reason):
                    skipping = TripImport.Skipped(name: nil, reason: reason)
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
        } end: { parent, name, value in
            switch (parent, name) {
            case ("gpx", "wpt"):
                if let done = point { places.points.append(done) }
                if let done = skipping { places.skipped.append(done) }
                point = nil
                skipping = nil
            case ("gpx", "rte"), ("gpx", "trk"):
                if let done = line { places.lines.append(done) }
                line = nil
            case ("wpt", "name"):
                point?.name = value
                skipping?.name = value
            case ("wpt", "desc"): point?.description = value
            case ("wpt", "cmt"): if point?.description == nil { point?.description = value }
            case ("wpt", "url"): if point?.link == nil { point?.link = value }
            case ("rte", "name"), ("trk", "name"): line?.name = value
            case ("metadata", "name"), ("gpx", "name"): if places.title == nil { places.title = value }
            default: break
            }
        }
        if let failure { return .failure(failure) }
        return .success(places)
    }

    /// Walks the elements of `stream`, whose root must be `root`.
    ///
    /// `start` is called at each element's start (its parent's name, its name), `end` at its
    /// end (its parent's name, its name, its text trimmed), an empty element ending where it
    /// starts. Returns why the walk stopped short: a DOCTYPE, another root, or the reader's
    /// failure.
    static func walk(
        _ stream: XMLStream, root: String, limits: ReadLimits, start: (String?, String) -> Void,
        end: (String?, String, String) -> Void
    ) -> Diagnostic? {
        var path: [String] = []
        var text = ""
        var status = stream.read()
        while status == 1 {
            switch stream.nodeType {
            case .documentType:
                return Diagnostic(
                    .xmlDoctype, "a DOCTYPE is not allowed in a \(root.uppercased()) file; remove the <!DOCTYPE …> line"
                )
            case .element:
                let name = stream.localName
                if path.isEmpty, name != root {
                    return Diagnostic(.notGPX, "the root element is <\(Quoting.printable(name))>, not <\(root)>")
                }
                start(path.last, name)
                text = ""
                if stream.isEmptyElement {
                    end(path.last, name, "")
                } else {
                    path.append(name)
                }
            case .endElement:
                let name = path.isEmpty ? "" : path.removeLast()
                end(path.last, name, text.trimmingCharacters(in: .whitespacesAndNewlines))
                text = ""
            case .text, .cdata, .significantWhitespace, .whitespace:
                if text.utf8.count <= limits.trip.maxTextBytes { text += stream.value }
            case nil:
                break
            }
            status = stream.read()
        }
        return status < 0 ? stream.failure(limits) : nil
    }

    // MARK: - GeoJSON

    /// A point's place, or why it is none: no position (`nil` coordinates not `given`, or
    /// `0, 0`, which Google Takeout writes for a place without one), or coordinates that are not
    /// numbers in range.
    static func place(_ location: Coordinate?, given: Bool) -> Result<Coordinate, TripImport.Skipped.Reason> {
        guard let location else { return .failure(given ? .badCoordinates : .noPosition) }
        if location.latitude == 0, location.longitude == 0 { return .failure(.noPosition) }
        return .success(location)
    }

    /// The places of a GeoJSON document (RFC 7946).
    ///
    /// `Point` and `MultiPoint` features become places, `LineString` and `MultiLineString` ways;
    /// a FeatureCollection, a single Feature or a bare geometry. The properties map apps write
    /// are read in any case of their keys: the name from `name`, `title` or Google Takeout's
    /// `location.name` (`Title` in older exports); the description from `description`, `desc`,
    /// `notes` or `comment`; the link from `url`, `link`, `google_maps_url` or `Google Maps URL`;
    /// the address from `address` or `location.address`. The map's own name is the title: the
    /// collection's `name`, or uMap's `_umap_options.name`. A point with no geometry, at `0, 0`,
    /// or with coordinates that are not numbers is skipped, and counted.
    static func readGeoJSON(_ bytes: [UInt8]) -> Result<TripImport.Places, Diagnostic> {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            return .failure(Diagnostic(.jsonSyntax, "not a GeoJSON object (RFC 7946)"))
        }
        let umap = root["_umap_options"] as? [String: Any]
        var places = TripImport.Places(title: (root["name"] ?? umap?["name"]) as? String)
        let features: [[String: Any]]
        switch root["type"] as? String {
        case "FeatureCollection": features = root["features"] as? [[String: Any]] ?? []
        case "Feature": features = [root]
        default: features = [["type": "Feature", "geometry": root]]
        }
        for feature in features {
            let properties = Properties(feature["properties"] as? [String: Any] ?? [:])
            let location = Properties(properties.object("location") ?? [:])
            let name = properties.text("name", "title") ?? location.text("name")
            let description = properties.text("description", "desc", "notes", "comment")
            let link = properties.text("url", "link", "google_maps_url", "google maps url")
            let address = properties.text("address") ?? location.text("address")
            func point(_ place: Coordinate) -> TripImport.Point {
                TripImport.Point(name: name, description: description, link: link, location: place, address: address)
            }
            guard let geometry = feature["geometry"] as? [String: Any] else {
                places.skipped.append(TripImport.Skipped(name: name, reason: .noPosition))
                continue
            }
            let coordinates = geometry["coordinates"]
            switch geometry["type"] as? String {
            case "Point":
                switch place(position(coordinates), given: coordinates != nil && !(coordinates is NSNull)) {
                case .success(let location): places.points.append(point(location))
                case .failure(let reason): places.skipped.append(TripImport.Skipped(name: name, reason: reason))
                }
            case "MultiPoint":
                for location in (coordinates as? [Any] ?? []).compactMap(position) {
                    places.points.append(point(location))
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

    /// A feature's properties, their keys in any case.
    struct Properties {
        let values: [String: Any]

        /// The properties by their keys in lower case; of two keys that differ only in case
        /// (`Title` and `title`), the first in sorted order.
        init(_ values: [String: Any]) {
            var lowered: [String: Any] = [:]
            for key in values.keys.sorted() where lowered[key.lowercased()] == nil {
                lowered[key.lowercased()] = values[key]
            }
            self.values = lowered
        }

        /// The first of `keys` (lower case) that holds text that is not blank.
        func text(_ keys: String...) -> String? {
            for key in keys {
                if let text = values[key] as? String, !text.allSatisfy(\.isWhitespace) { return text }
            }
            return nil
        }

        /// The object under `key` (lower case).
        func object(_ key: String) -> [String: Any]? { values[key] as? [String: Any] }
    }

    /// A GeoJSON position, `[longitude, latitude]` (RFC 7946 §3.1.1).
    static func position(_ value: Any?) -> Coordinate? {
        guard let numbers = value as? [Any], numbers.count >= 2,
            let lon = (numbers[0] as? NSNumber)?.doubleValue, let lat = (numbers[1] as? NSNumber)?.doubleValue
        else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
