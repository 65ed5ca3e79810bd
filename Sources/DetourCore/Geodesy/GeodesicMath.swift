import Foundation

/// The small numeric helpers Karney's geodesic algorithms rely on for their accuracy: exact
/// angle reduction in degrees, an error-free sum, and polynomial and series evaluation.
enum GeodesicMath {
    static func sq(_ x: Double) -> Double { x * x }

    /// The real cube root.
    static func cbrt(_ x: Double) -> Double { Foundation.cbrt(x) }

    /// (x, y) scaled to unit length.
    static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }

    /// The error-free sum: `s = u + v` rounded, and `t` the exact rounding error.
    static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s == 0 ? 0 : 0 - (up + vpp)
        return (s, t)
    }

    /// Evaluates the polynomial of degree `n` whose coefficients start at `p[start]`.
    static func polyval(_ n: Int, _ p: [Double], _ start: Int, _ x: Double) -> Double {
        guard n >= 0 else { return 0 }
        var y = p[start]
        var index = start
        var remaining = n
        while remaining > 0 {
            remaining -= 1
            index += 1
            y = y * x + p[index]
        }
        return y
    }

    /// Rounds an angle so that tiny values underflow to zero, as GeographicLib's AngRound.
    static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return x.sign == .minus ? -y : y
    }

    /// y - x, reduced to [-180, 180] accurately, with its rounding error.
    static func angDiff(_ x: Double, _ y: Double) -> (d: Double, t: Double) {
        var (d, t) = sum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        (d, t) = sum(d.remainder(dividingBy: 360), t)
        if d == 0 || abs(d) == 180 {
            let reference = t == 0 ? y - x : -t
            d = reference.sign == .minus ? -abs(d) : abs(d)
        }
        return (d, t)
    }

    /// atan2(y, x) in degrees, in (-180, 180], exact at multiples of 90°.
    static func atan2d(_ y0: Double, _ x0: Double) -> Double {
        var (y, x) = (y0, x0)
        var q = 0
        if abs(y) > abs(x) {
            (x, y) = (y, x)
            q = 2
        }
        if x.sign == .minus {
            q += 1
            x = -x
        }
        let angle = atan2(y, x) * 180 / .pi
        switch q {
        case 1: return (y.sign == .minus ? -180 : 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// Sine and cosine of x degrees, exact at multiples of 90°.
    static func sincosd(_ x: Double) -> (s: Double, c: Double) {
        var r = fmod(x, 360)
        let q = r.isNaN ? 0 : Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)
        r *= .pi / 180
        return quadrant(sin(r), cos(r), q, x)
    }

    /// Sine and cosine of (x + t) degrees, for x in [-180, 180] and a small correction t.
    static func sincosde(_ x: Double, _ t: Double) -> (s: Double, c: Double) {
        let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        var r = x - 90 * Double(q)
        r = angRound(r + t) * .pi / 180
        return quadrant(sin(r), cos(r), q, x)
    }

    private static func quadrant(_ s0: Double, _ c0: Double, _ q: Int, _ x: Double) -> (s: Double, c: Double) {
        var (s, c) = (s0, c0)
        switch ((q % 4) + 4) % 4 {
        case 1: (s, c) = (c, -s)
        case 2: (s, c) = (-s, -c)
        case 3: (s, c) = (-c, s)
        default: break
        }
        c += 0
        if s == 0 { s = x.sign == .minus ? -0.0 : 0.0 }
        return (s, c)
    }

    /// The sum of a Clenshaw series: Σ c[l] sin(2 l x) (with `sinp`) or Σ c[l] cos((2l+1) x).
    static func sinCosSeries(
        _ sinp: Bool, _ sinx: Double, _ cosx: Double, _ c: UnsafeBufferPointer<Double>
    ) -> Double {
        var k = c.count
        var n = k - (sinp ? 1 : 0)
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        var y1 = 0.0
        var y0 = 0.0
        if n & 1 == 1 {
            k -= 1
            y0 = c[k]
        }
        n /= 2
        while n > 0 {
            n -= 1
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return sinp ? 2 * sinx * cosx * y0 : cosx * (y0 - y1)
    }
}
