import Foundation
import DetourCore
import Mustache

/// A small sketch map of a destination and its task locations, as SVG geometry.
///
/// The projection is local equirectangular around the destination (east and north in metres),
/// which is faithful at the scale of a city and honest enough at the scale of a region; the
/// scale bar is drawn in the same metres, so distances can be read off the map.
public struct MapModel: Sendable {
    /// The drawing's width in SVG units.
    public static let width = 320.0
    /// The drawing's height in SVG units.
    public static let height = 200.0
    private static let padding = 28.0
    private static let metresPerDegreeLatitude = 110_574.0
    private static let metresPerDegreeLongitudeAtEquator = 111_319.49

    /// The destination's mark.
    public var center: MapMark
    /// One mark for each task with a location, labelled like its side (`1A`).
    public var marks: [MapMark]
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

    init(center location: Coordinate, detours: [PlannedDetour]) {
        var points: [(label: String, east: Double, north: Double, route: [(Double, Double)])] = []
        for (number, detour) in detours.enumerated() {
            for (side, task) in detour.tasks.enumerated() {
                guard let point = task.task.location else { continue }
                let (east, north) = MapModel.project(point, around: location)
                let route = task.task.path?.points.map { MapModel.project($0, around: location) } ?? []
                points.append(("\(number + 1)\(side == 0 ? "A" : "B")", east, north, route))
            }
        }
        let halfWidth = MapModel.width / 2 - MapModel.padding
        let halfHeight = MapModel.height / 2 - MapModel.padding
        let allEast = points.flatMap { [$0.east] + $0.route.map(\.0) }
        let allNorth = points.flatMap { [$0.north] + $0.route.map(\.1) }
        let reachEast = max(allEast.map(abs).max() ?? 0, 200)
        let reachNorth = max(allNorth.map(abs).max() ?? 0, 200)
        let unitsPerMetre = min(halfWidth / reachEast, halfHeight / reachNorth)
        let cx = MapModel.width / 2
        let cy = MapModel.height / 2
        let centerMark = MapMark(x: cx, y: cy, label: "")
        center = centerMark
        marks = points.map {
            var mark = MapMark(x: cx + $0.east * unitsPerMetre, y: cy - $0.north * unitsPerMetre, label: $0.label)
            (mark.fromX, mark.fromY) = (centerMark.x, centerMark.y)
            mark.route = $0.route.map {
                Formatting.fixed(cx + $0.0 * unitsPerMetre, digits: 1) + "," + Formatting.fixed(cy - $0.1 * unitsPerMetre, digits: 1)
            }.joined(separator: " ")
            return mark
        }
        let metres = MapModel.niceLength(atMost: 90 / unitsPerMetre)
        let length = metres * unitsPerMetre
        scaleBarLength = Formatting.fixed(length, digits: 1)
        scaleBarLabel = Formatting.distance(metres)
        scaleBarX1 = Formatting.fixed(10, digits: 1)
        scaleBarX2 = Formatting.fixed(10 + length, digits: 1)
        scaleBarY = Formatting.fixed(MapModel.height - 10, digits: 1)
        scaleLabelY = Formatting.fixed(MapModel.height - 14, digits: 1)
    }

    /// Metres east and north of `origin`.
    static func project(_ point: Coordinate, around origin: Coordinate) -> (east: Double, north: Double) {
        var dLon = point.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 }
        if dLon < -180 { dLon += 360 }
        let cosLat = cos(origin.latitude * .pi / 180)
        return (
            dLon * cosLat * metresPerDegreeLongitudeAtEquator,
            (point.latitude - origin.latitude) * metresPerDegreeLatitude
        )
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
    /// Where the label goes.
    public var labelX: String
    /// Where the label goes.
    public var labelY: String
    /// `1A`.
    public var label: String
    /// Where the line to this mark starts: the destination.
    public var fromX = ""
    /// Where the line to this mark starts: the destination.
    public var fromY = ""
    /// The task's path as SVG polyline points (`x,y x,y …`), or empty when it has none.
    public var route = ""

    init(x: Double, y: Double, label: String) {
        self.x = Formatting.fixed(x, digits: 1)
        self.y = Formatting.fixed(y, digits: 1)
        self.labelX = Formatting.fixed(x + 6, digits: 1)
        self.labelY = Formatting.fixed(y - 6, digits: 1)
        self.label = label
    }
}

extension MapModel: MustacheParent {
    public func child(named key: String) -> Any? {
        switch key {
        case "width": return Int(MapModel.width)
        case "height": return Int(MapModel.height)
        case "center": return center
        case "marks": return marks
        case "hasMarks": return !marks.isEmpty
        case "scaleBarLength": return scaleBarLength
        case "scaleBarLabel": return scaleBarLabel
        case "scaleBarX1": return scaleBarX1
        case "scaleBarX2": return scaleBarX2
        case "scaleBarY": return scaleBarY
        case "scaleLabelY": return scaleLabelY
        default: return nil
        }
    }
}

extension MapMark: MustacheParent {
    public func child(named key: String) -> Any? {
        switch key {
        case "x": return x
        case "y": return y
        case "labelX": return labelX
        case "labelY": return labelY
        case "label": return label
        case "fromX": return fromX
        case "fromY": return fromY
        case "route": return route
        case "hasRoute": return !route.isEmpty
        default: return nil
        }
    }
}
