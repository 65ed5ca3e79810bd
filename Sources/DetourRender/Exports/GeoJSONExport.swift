import DetourCore

/// The plan as GeoJSON (RFC 7946) for web maps and GIS programs.
///
/// A `FeatureCollection`, in the trip file's order: for each stay a `Point` (`kind`
/// `destination`), then for each side of each detour a `Point` where the task has a location
/// (`kind` `task`) and a `LineString` along its path (`kind` `path`). Positions are
/// `[longitude, latitude]`, at most seven decimals (about a centimetre). A path that crosses the
/// antimeridian is cut there into a `MultiLineString` (RFC 7946 §3.1.9), so that maps do not draw
/// it the long way round the globe. Properties are flat (a cost is `cost` and `currency`), as
/// GIS programs show them as the columns of a table.
public enum GeoJSONExport {
    /// Decimals of a coordinate: seven is about a centimetre, finer than any trip needs
    /// (RFC 7946 §11.2 advises against more than six or seven).
    static let coordinateDigits = 7

    /// The map of `plan` as UTF-8 bytes, pretty-printed, ending in a newline.
    public static func bytes(plan: Plan) -> [UInt8] {
        var json = JSONStream()
        json.object { json in
            json.member("type", string: "FeatureCollection")
            json.member("features")
            json.array { json in
                for planned in plan.destinationsInFileOrder {
                    destination(planned, into: &json)
                    for detour in planned.detours {
                        for (side, task) in detour.tasks.enumerated() {
                            let about = SideAbout(destination: planned.destination.name, detour: detour, side: side)
                            if let location = task.task.location {
                                json.element()
                                feature(Geometry.point(location), into: &json) { json in
                                    json.member("kind", string: "task")
                                    properties(of: task, about, into: &json)
                                    json.member("duration_minutes", int: task.task.duration.minutes)
                                    json.member("cost")
                                    json.number(task.task.cost.amountText)
                                    json.member("currency", string: task.task.cost.currency.code)
                                    json.member("distance_m")
                                    metres(task.distanceMeters, into: &json)
                                }
                            }
                            if let path = task.task.path, let geometry = Geometry.line(path.points) {
                                json.element()
                                feature(geometry, into: &json) { json in
                                    json.member("kind", string: "path")
                                    properties(of: task, about, into: &json)
                                    json.member("route_m")
                                    metres(path.metres, into: &json)
                                }
                            }
                        }
                    }
                }
            }
        }
        json.newline()
        return json.bytes
    }

    /// Which side of which detour a feature belongs to.
    struct SideAbout {
        var destination: String
        var detour: PlannedDetour
        var side: Int
    }

    static func destination(_ planned: PlannedDestination, into json: inout JSONStream) {
        let destination = planned.destination
        json.element()
        feature(Geometry.point(destination.location), into: &json) { json in
            json.member("kind", string: "destination")
            json.member("name", string: destination.name)
            json.member("arrival", string: destination.arrival.description)
            json.member("departure", string: destination.departure.description)
            json.member("nights", int: destination.nights)
        }
    }

    /// The properties a task and its path share.
    static func properties(of task: PlannedTask, _ about: SideAbout, into json: inout JSONStream) {
        json.member("name", string: task.task.name)
        json.member("destination", string: about.destination)
        json.member("detour", string: about.detour.title)
        json.member("side", int: about.side)
        json.member("chosen")
        json.bool(about.detour.chosen == about.side)
    }

    /// Millimetres, as the JSON report gives distances, or `null`.
    static func metres(_ value: Double?, into json: inout JSONStream) {
        guard let value else { return json.null() }
        json.number(Formatting.fixed(value, digits: 3))
    }

    static func feature(_ geometry: Geometry, into json: inout JSONStream, properties: (inout JSONStream) -> Void) {
        json.object { json in
            json.member("type", string: "Feature")
            json.member("geometry")
            json.object { json in
                json.member("type", string: geometry.typeName)
                json.member("coordinates")
                switch geometry {
                case .point(let position):
                    json.inlineNumbers(position.texts)
                case .lineString(let positions):
                    json.array(positions) { json, position in json.inlineNumbers(position.texts) }
                case .multiLineString(let lines):
                    json.array(lines) { json, line in
                        json.array(line) { json, position in json.inlineNumbers(position.texts) }
                    }
                }
            }
            json.member("properties")
            json.object(properties)
        }
    }

    /// A GeoJSON position: longitude first (RFC 7946 §3.1.1).
    struct Position: Equatable {
        var longitude: Double
        var latitude: Double

        init(_ point: Coordinate) {
            longitude = point.longitude
            latitude = point.latitude
        }

        init(longitude: Double, latitude: Double) {
            self.longitude = longitude
            self.latitude = latitude
        }

        var texts: [String] {
            [
                Formatting.degrees(longitude, digits: coordinateDigits),
                Formatting.degrees(latitude, digits: coordinateDigits),
            ]
        }
    }

    /// The geometries the export writes.
    enum Geometry: Equatable {
        case point(Position)
        case lineString([Position])
        case multiLineString([[Position]])

        var typeName: String {
            switch self {
            case .point: return "Point"
            case .lineString: return "LineString"
            case .multiLineString: return "MultiLineString"
            }
        }

        static func point(_ point: Coordinate) -> Geometry {
            .point(Position(point))
        }

        /// The line through `points`, cut where it crosses the antimeridian; `nil` when fewer
        /// than two distinct positions are left to draw.
        static func line(_ points: [Coordinate]) -> Geometry? {
            let parts = Antimeridian.split(points.map(Position.init))
            switch parts.count {
            case 0: return nil
            case 1: return .lineString(parts[0])
            default: return .multiLineString(parts)
            }
        }
    }

    /// Cutting lines at the antimeridian (RFC 7946 §3.1.9).
    enum Antimeridian {
        /// `line` cut into parts that do not cross longitude ±180.
        ///
        /// A step between two points that changes longitude by more than 180° is taken to go the
        /// short way, across the antimeridian: the part before ends at the crossing on one side
        /// (180 going east, -180 going west) and the next part starts at the same latitude on the
        /// other. The crossing's latitude is interpolated linearly in longitude and latitude, as
        /// GeoJSON readers draw a segment. Parts of fewer than two distinct positions are dropped.
        static func split(_ line: [Position]) -> [[Position]] {
            var parts: [[Position]] = []
            var current: [Position] = []
            func add(_ position: Position) {
                if current.last != position { current.append(position) }
            }
            func endPart() {
                if current.count >= 2 { parts.append(current) }
                current = []
            }
            for (index, position) in line.enumerated() {
                if index > 0 {
                    let previous = line[index - 1]
                    let step = position.longitude - previous.longitude
                    if abs(step) > 180 {
                        // Going east when the step is negative: from near 180 to near -180.
                        let east = step < 0
                        let edge = east ? 180.0 : -180.0
                        let unwrapped = position.longitude + (east ? 360 : -360)
                        let span = unwrapped - previous.longitude
                        // No span: ±180 to ∓180, one meridian written two ways.
                        let fraction = span == 0 ? 0 : (edge - previous.longitude) / span
                        let latitude = previous.latitude + fraction * (position.latitude - previous.latitude)
                        add(Position(longitude: edge, latitude: latitude))
                        endPart()
                        add(Position(longitude: -edge, latitude: latitude))
                    }
                }
                add(position)
            }
            endPart()
            return parts
        }
    }
}
