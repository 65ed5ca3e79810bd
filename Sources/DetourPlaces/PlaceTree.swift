import DetourCore
import Foundation

/// A 3-d tree over points on the unit sphere: the nearest point to another, and every point within
/// a distance of it, by the chord between them.
///
/// On the sphere the chord orders points as the great circle does, and a point's three
/// coordinates have no seam: a place just east of the antimeridian is as near one just west of
/// it as the angle says, and so are places around a pole. Written here, as a tree in one array
/// (each range's middle element splits it, on the axis along which the range spreads most),
/// because none of the packages this project builds on has a spatial index; it is built once, by
/// selection rather than sorting, and never changed.
struct PlaceTree: Sendable {
    /// The points, in the tree's order.
    private let points: [SIMD3<Double>]
    /// The index, in the order given, of each point of ``points``.
    private let indices: [Int]
    /// The axis on which each range's middle element splits it.
    private let axes: [UInt8]

    init(_ coordinates: [Coordinate]) {
        var points = coordinates.map(Self.point)
        var indices = Array(coordinates.indices)
        var axes = [UInt8](repeating: 0, count: coordinates.count)
        Self.build(0, points.count, &points, &indices, &axes)
        self.points = points
        self.indices = indices
        self.axes = axes
    }

    /// `coordinate` on the unit sphere, its latitude taken as the sphere's.
    static func point(_ coordinate: Coordinate) -> SIMD3<Double> {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        return SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
    }

    /// A chord on the unit sphere at least as long as that of any two points `metres` apart on
    /// the WGS84 ellipsoid: the arc on a sphere of the ellipsoid's least radius of curvature (at
    /// the equator, along the meridian), and 1 % more.
    static func chord(metres: Double) -> Double {
        let angle = min(Double.pi, metres * 1.01 / 6_335_439)
        return 2 * sin(angle / 2)
    }

    /// The index of the point nearest to `target` (of two equally near, the one given first),
    /// and its chord; `nil` when there are no points.
    func nearest(to target: SIMD3<Double>) -> (index: Int, chord: Double)? {
        var best: (slot: Int, squared: Double)?
        nearest(0, points.count, target, &best)
        return best.map { (indices[$0.slot], $0.squared.squareRoot()) }
    }

    /// The indices of every point whose chord to `target` is at most `chord`, in the order given.
    func indices(within chord: Double, of target: SIMD3<Double>) -> [Int] {
        var found: [Int] = []
        within(0, points.count, target, chord * chord, &found)
        return found.sorted()
    }

    private func nearest(_ low: Int, _ high: Int, _ target: SIMD3<Double>, _ best: inout (slot: Int, squared: Double)?)
    {
        guard low < high else { return }
        let middle = (low + high) / 2
        let offset = points[middle] - target
        let squared = (offset * offset).sum()
        if best.map({ (squared, indices[middle]) < ($0.squared, indices[$0.slot]) }) ?? true {
            best = (middle, squared)
        }
        let axis = Int(axes[middle])
        let across = target[axis] - points[middle][axis]
        let (near, far) = across < 0 ? ((low, middle), (middle + 1, high)) : ((middle + 1, high), (low, middle))
        nearest(near.0, near.1, target, &best)
        if let found = best, across * across <= found.squared {
            nearest(far.0, far.1, target, &best)
        }
    }

    private func within(_ low: Int, _ high: Int, _ target: SIMD3<Double>, _ squared: Double, _ found: inout [Int]) {
        guard low < high else { return }
        let middle = (low + high) / 2
        let offset = points[middle] - target
        if (offset * offset).sum() <= squared { found.append(indices[middle]) }
        let across = target[Int(axes[middle])] - points[middle][Int(axes[middle])]
        if across <= 0 || across * across <= squared { within(low, middle, target, squared, &found) }
        if across >= 0 || across * across <= squared { within(middle + 1, high, target, squared, &found) }
    }

    /// Makes `low..<high` a tree: its middle element the one a sort on the axis of most spread
    /// would put there, the smaller ones before it and the larger after, each side a tree.
    private static func build(
        _ low: Int, _ high: Int, _ points: inout [SIMD3<Double>], _ indices: inout [Int], _ axes: inout [UInt8]
    ) {
        guard high - low > 1 else { return }
        let middle = (low + high) / 2
        let axis = points.withUnsafeMutableBufferPointer { points in
            indices.withUnsafeMutableBufferPointer { indices in
                var least = points[low]
                var most = points[low]
                for slot in low..<high {
                    least = pointwiseMin(least, points[slot])
                    most = pointwiseMax(most, points[slot])
                }
                let spread = most - least
                let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
                select(middle, in: low, high, axis: axis, points, indices)
                return axis
            }
        }
        axes[middle] = UInt8(axis)
        build(low, middle, &points, &indices, &axes)
        build(middle + 1, high, &points, &indices, &axes)
    }

    /// Hoare's selection: puts in `slot` the point a sort of `low..<high` on `axis` puts there.
    ///
    /// None larger is before it and none smaller after. The pivot is the median of the range's
    /// first, middle and last points, so that the tree is the same on every run.
    private static func select(
        _ slot: Int, in low: Int, _ high: Int, axis: Int, _ points: UnsafeMutableBufferPointer<SIMD3<Double>>,
        _ indices: UnsafeMutableBufferPointer<Int>
    ) {
        var (low, high) = (low, high - 1)
        while low < high {
            let middle = (low + high) / 2
            let (a, b, c) = (points[low][axis], points[middle][axis], points[high][axis])
            let pivot = max(min(a, b), min(max(a, b), c))
            var (left, right) = (low, high)
            while left <= right {
                while points[left][axis] < pivot { left += 1 }
                while points[right][axis] > pivot { right -= 1 }
                if left <= right {
                    points.swapAt(left, right)
                    indices.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if slot <= right {
                high = right
            } else if slot >= left {
                low = left
            } else {
                return
            }
        }
    }
}
