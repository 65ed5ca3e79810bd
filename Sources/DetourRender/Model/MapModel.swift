import DetourCore
import Foundation

/// A small sketch map of a destination and its task locations, as SVG geometry.
///
/// The projection is azimuthal equidistant, centred on the stay: each point is drawn at its
/// geodesic distance from the stay, in the direction of the geodesic's azimuth there. Distances
/// from the stay are therefore true at any scale (the scale bar measures them), and the map stays
/// right near the poles and across the antimeridian, where a grid of latitude and longitude breaks.
public struct MapModel: Sendable {
    /// The drawing's width in SVG units.
    public static let width = 320.0
    /// The drawing's height in SVG units.
    public static let height = 200.0
    private static let padding = 28.0

    /// The destination's mark.
    public var center: MapMark
    /// One mark for each task with a location, labelled with its side and short name (`1A Tram 28`).
    public var marks: [MapMark]
    /// The marks whose label found no free place on the map: their pins are numbered instead and
    /// they are listed below the map.
    public var listed: [MapMark]
    /// The scale bar's length in SVG units.
    public var scaleBarLength: String
    /// The scale bar's label, `500 m`.
    public var scaleBarLabel: String
    /// Where the scale bar starts and ends.
    public var scaleBarX1: String
    /// The scale bar's right end.
    public var scaleBarX2: String
    /// The scale bar's height.
    public var scaleBarY: String
    /// Where the label sits.
    public var scaleLabelY: String
    /// SVG units per metre of true distance from the stay.
    let unitsPerMetre: Double

    /// The map of `detours`, planned from a stay at `location` (as the planner plans a stay's).
    init(center location: Coordinate, detours: [PlannedDetour]) {
        var points: [(labels: [String], east: Double, north: Double, route: [(Double, Double)])] = []
        for (number, detour) in detours.enumerated() {
            for (side, task) in detour.tasks.enumerated() {
                // The planner measures the line from the stay (`location`) to every task that has a
                // location: its length and bearing are where the map puts the task.
                guard let distance = task.distanceMeters, let bearing = task.bearing else { continue }
                let (east, north) = MapModel.offset(distance: distance, azimuth: bearing)
                let route = task.task.path?.points.map { MapModel.project($0, around: location) } ?? []
                let side = "\(number + 1)\(side == 0 ? "A" : "B")"
                points.append((MapModel.labels(side: side, name: task.task.name), east, north, route))
            }
        }
        let halfWidth = MapModel.width / 2 - MapModel.padding
        let halfHeight = MapModel.height / 2 - MapModel.padding
        let allEast = points.flatMap { [$0.east] + $0.route.map(\.0) }
        let allNorth = points.flatMap { [$0.north] + $0.route.map(\.1) }
        let reachEast = max(allEast.map(abs).max() ?? 0, 200)
        let reachNorth = max(allNorth.map(abs).max() ?? 0, 200)
        let unitsPerMetre = min(halfWidth / reachEast, halfHeight / reachNorth)
        self.unitsPerMetre = unitsPerMetre
        let cx = MapModel.width / 2
        let cy = MapModel.height / 2
        let centerMark = MapMark(x: cx, y: cy, label: "")
        center = centerMark

        let metres = MapModel.niceLength(atMost: 90 / unitsPerMetre)
        let length = metres * unitsPerMetre
        scaleBarLength = Formatting.fixed(length, digits: 1)
        scaleBarLabel = Formatting.distance(metres)
        scaleBarX1 = Formatting.fixed(10, digits: 1)
        scaleBarX2 = Formatting.fixed(10 + length, digits: 1)
        scaleBarY = Formatting.fixed(MapModel.height - 10, digits: 1)
        scaleLabelY = Formatting.fixed(MapModel.height - 14, digits: 1)

        let pins = points.map { (x: cx + $0.east * unitsPerMetre, y: cy - $0.north * unitsPerMetre) }
        let scaleLabel = MapLabels.box(for: scaleBarLabel, x: 10, y: MapModel.height - 14 - MapLabels.baseline)
        let scaleBar = MapBox(x: 8, y: scaleLabel.y, width: max(length, scaleLabel.width) + 4, height: 17)
        let spots = MapLabels.place(
            labels: points.map(\.labels), at: pins,
            reserved: [scaleBar, MapBox.around(cx, cy, radius: MapLabels.pinRadius)],
            within: MapBox(x: 0, y: 0, width: MapModel.width, height: MapModel.height))
        var listed: [MapMark] = []
        marks = zip(points, zip(pins, spots)).map { point, placement in
            let (pin, spot) = placement
            // A numbered pin's key under the map is its shortest label: `1B` leads to the card
            // with the whole name, and a longer key can push the printed report a page longer.
            var mark = MapMark(x: pin.x, y: pin.y, label: spot?.text ?? point.labels[point.labels.count - 1])
            (mark.fromX, mark.fromY) = (centerMark.x, centerMark.y)
            mark.route = point.route.map {
                Formatting.fixed(cx + $0.0 * unitsPerMetre, digits: 1) + ","
                    + Formatting.fixed(cy - $0.1 * unitsPerMetre, digits: 1)
            }.joined(separator: " ")
            if let spot = spot?.box {
                mark.labelBox = spot
                mark.labelX = Formatting.fixed(spot.x, digits: 1)
                mark.labelY = Formatting.fixed(spot.y + MapLabels.baseline, digits: 1)
            } else {
                mark.pin = "\(listed.count + 1)"
                listed.append(mark)
            }
            return mark
        }
        self.listed = listed
    }

    /// The labels a task's pin may have, longest first: `1B` and its whole name (up to
    /// ``longestName`` characters), then its name cut to ``shortNameLength`` as ``shortName(_:)``
    /// cuts it.
    static func labels(side: String, name: String) -> [String] {
        var names = [name.count <= longestName ? name : String(name.prefix(longestName - 1)) + "…"]
        let short = shortName(name)
        if short != names[0] { names.append(short) }
        return names.map { "\(side) \($0)" }
    }

    /// The most characters of a name a label shows whole: a label this long spans most of the map.
    static let longestName = 48

    /// The most characters of a task's name a pin's label shows when its whole name has no room.
    static let shortNameLength = 14

    /// A task's name short enough to sit beside its pin when the whole name does not fit: the name
    /// when it is short, else its first word when that fits, else its start and `…`.
    static func shortName(_ name: String) -> String {
        // No more bytes than the limit is no more characters: counting characters (graphemes)
        // took a thirtieth of a large trip's HTML report, for names that are short.
        if name.utf8.count <= shortNameLength || name.count <= shortNameLength { return name }
        let first = name.prefix { !$0.isWhitespace }
        if first.count <= shortNameLength { return String(first) + "…" }
        return String(name.prefix(shortNameLength - 1)) + "…"
    }

    /// Metres east and north of `origin` on the azimuthal equidistant projection centred there:
    /// the geodesic distance from `origin`, in the direction of its azimuth at `origin`.
    static func project(_ point: Coordinate, around origin: Coordinate) -> (east: Double, north: Double) {
        let line = Geodesy.line(from: origin, to: point)
        return offset(distance: line.distance, azimuth: line.initialAzimuth)
    }

    /// Metres east and north of a point `distance` metres away at `azimuth` degrees from north.
    static func offset(distance: Double, azimuth: Double) -> (east: Double, north: Double) {
        let radians = azimuth * .pi / 180
        return (distance * sin(radians), distance * cos(radians))
    }

    /// The largest 1, 2 or 5 times a power of ten that is at most `limit` metres (at least 1 m).
    static func niceLength(atMost limit: Double) -> Double {
        var power = 1.0
        while power * 10 <= limit { power *= 10 }
        for step in [5.0, 2.0, 1.0] where step * power <= limit {
            return step * power
        }
        return power
    }
}

/// A point on the map.
public struct MapMark: Sendable {
    /// Horizontal position, formatted.
    public var x: String
    /// Vertical position, formatted.
    public var y: String
    /// Where the label starts (its left end).
    public var labelX: String
    /// Where the label's baseline is.
    public var labelY: String
    /// `1A`.
    public var label: String
    /// Where the line to this mark starts: the destination.
    public var fromX = ""
    /// Where the line to this mark starts: the destination.
    public var fromY = ""
    /// The task's path as SVG polyline points (`x,y x,y …`), or empty when it has none.
    public var route = ""
    /// The number drawn on the pin when its label found no free place (`1`), else empty.
    public var pin = ""
    /// The area the label takes, when it is drawn on the map.
    var labelBox: MapBox?

    init(x: Double, y: Double, label: String) {
        self.x = Formatting.fixed(x, digits: 1)
        self.y = Formatting.fixed(y, digits: 1)
        self.labelX = self.x
        self.labelY = self.y
        self.label = label
    }
}

extension MapModel {
    /// What templates read as `width`.
    var width: Int { Int(MapModel.width) }

    /// What templates read as `height`.
    var height: Int { Int(MapModel.height) }

    /// What templates read as `hasMarks`.
    var hasMarks: Bool { !marks.isEmpty }

    /// What templates read as `hasListed`.
    var hasListed: Bool { !listed.isEmpty }
}

extension MapMark {
    /// What templates read as `hasRoute`.
    var hasRoute: Bool { !route.isEmpty }

    /// What templates read as `hasLabel`.
    var hasLabel: Bool { pin.isEmpty }
}
