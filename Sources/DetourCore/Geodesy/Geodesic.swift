import Foundation

/// Geodesic distances on an ellipsoid of revolution, by Karney's method.
///
/// C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55: series in the third
/// flattening to sixth order, solved by Newton's method on the azimuth with a bisection fallback,
/// started from the astroid solution for nearly antipodal points (where Vincenty's iteration
/// fails to converge). The structure and the series coefficients follow the paper and its
/// reference implementation, GeographicLib (MIT licence). Accurate to about 15 nm on WGS84.
public struct Geodesic: Sendable {
    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    static let order = 6
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0
    static let xthresh = 1000 * tol2

    let a: Double
    let f: Double
    let f1: Double
    let e2: Double
    let ep2: Double
    let n: Double
    let b: Double
    let etol2: Double
    let a3x: [Double]
    let c3x: [Double]

    /// An ellipsoid with equatorial radius `a` (metres) and flattening `f`.
    public init(equatorialRadius a: Double, flattening f: Double) {
        self.a = a
        self.f = f
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / GeodesicMath.sq(f1)
        n = f / (2 - f)
        b = a * f1
        etol2 = 0.1 * Geodesic.tol2 / (max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2).squareRoot()
        a3x = Geodesic.a3Coefficients(n)
        c3x = Geodesic.c3Coefficients(n)
    }

    /// The length in metres of the shortest path on the ellipsoid between two points.
    public func distance(from first: Coordinate, to second: Coordinate) -> Double {
        inverse(first.latitude, first.longitude, second.latitude, second.longitude)
    }

    /// The geodesic distance in metres between (lat1, lon1) and (lat2, lon2), in degrees.
    public func inverse(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        solve(lat1, lon1, lat2, lon2).s12
    }

    /// The shortest path from `first` to `second`: its length and the azimuths at both ends.
    ///
    /// Where the direction is not determined (coincident points, a point at a pole) the azimuths
    /// follow GeographicLib's conventions, so they still agree with it.
    public func line(from first: Coordinate, to second: Coordinate) -> GeodesicLine {
        let solution = solve(first.latitude, first.longitude, second.latitude, second.longitude)
        return GeodesicLine(
            distance: solution.s12,
            initialAzimuth: GeodesicMath.atan2d(solution.salp1, solution.calp1),
            finalAzimuth: GeodesicMath.atan2d(solution.salp2, solution.calp2))
    }

    /// The inverse problem: distance, and the sine and cosine of the azimuth at each end.
    private func solve(
        _ lat1In: Double, _ lon1: Double, _ lat2In: Double, _ lon2: Double
    ) -> (s12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double) {
        typealias M = GeodesicMath
        var (lon12, lon12s) = M.angDiff(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * .pi / 180
        let (slam12, clam12) = M.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary longitude difference

        var lat1 = M.angRound(lat1In)
        var lat2 = M.angRound(lat2In)
        let swapp: Double = abs(lat1) < abs(lat2) ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1  // copysign(1, -lat1)
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = M.sincosd(lat1)
        sbet1 *= f1
        (sbet1, cbet1) = M.norm(sbet1, cbet1)
        cbet1 = max(Geodesic.tiny, cbet1)
        var (sbet2, cbet2) = M.sincosd(lat2)
        sbet2 *= f1
        (sbet2, cbet2) = M.norm(sbet2, cbet2)
        cbet2 = max(Geodesic.tiny, cbet2)
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? -abs(sbet1) : abs(sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * M.sq(sbet1)).squareRoot()
        let dn2 = (1 + ep2 * M.sq(sbet2)).squareRoot()

        var scratch = Scratch()
        var s12x = Double.nan
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = 0.0
        var calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian: head to the target longitude, arriving heading north.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1.0
            salp2 = 0.0
            let ssig1 = sbet1
            let csig1 = calp1 * cbet1
            let ssig2 = sbet2
            let csig2 = calp2 * cbet2
            var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            var (s12, m12) = lengths(
                n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, reducedLength: true, &scratch)
            if sig12 < Geodesic.tol2 || m12 >= 0 {
                if sig12 < 3 * Geodesic.tiny || (sig12 < Geodesic.tol0 && (s12 < 0 || m12 < 0)) {
                    sig12 = 0
                    m12 = 0
                    s12 = 0
                }
                s12x = s12 * b
            } else {
                meridian = false  // the short way runs over a pole: not a meridian after all
            }
        }

        if !meridian, sbet1 == 0, f <= 0 || lon12s >= f * 180 {
            // Along the equator.
            (salp1, calp1, salp2, calp2) = (1, 0, 1, 0)
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12, &scratch)
            salp1 = start.salp1
            calp1 = start.calp1
            (salp2, calp2) = (start.salp2, start.calp2)
            if start.sig12 >= 0 {
                // Short lines: the start is the solution.
                s12x = start.sig12 * b * start.dnm
            } else {
                var numit = 0
                var tripn = false
                var tripb = false
                var salp1a = Geodesic.tiny
                var calp1a = 1.0
                var salp1b = Geodesic.tiny
                var calp1b = -1.0
                var result = LambdaResult()
                while true {
                    result = lambda12(
                        sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                        diffp: numit < Geodesic.maxit1, &scratch)
                    let v = result.lam12
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * Geodesic.tol0) || numit == Geodesic.maxit2 {
                        break
                    }
                    if v > 0, numit > Geodesic.maxit1 || calp1 / salp1 > calp1b / salp1b {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0, numit > Geodesic.maxit1 || calp1 / salp1 < calp1a / salp1a {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    numit += 1
                    if numit < Geodesic.maxit1, result.dlam12 > 0 {
                        let dalp1 = -v / result.dlam12
                        if abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1)
                            let cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                (salp1, calp1) = M.norm(salp1, calp1)
                                tripn = abs(v) <= 16 * Geodesic.tol0
                                continue
                            }
                        }
                    }
                    // Newton's step went astray: bisect the bracket instead.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    (salp1, calp1) = M.norm(salp1, calp1)
                    tripn = false
                    tripb =
                        abs(salp1a - salp1) + (calp1a - calp1) < Geodesic.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Geodesic.tolb
                }
                let (s12, _) = lengths(
                    result.eps, result.sig12, result.ssig1, result.csig1, dn1, result.ssig2, result.csig2, dn2,
                    reducedLength: false, &scratch)
                s12x = s12 * b
                (salp2, calp2) = (result.salp2, result.calp2)
            }
        }
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        // Undo the reflections that put the problem in its canonical quadrant.
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return (0 + s12x, salp1, calp1, salp2, calp2)
    }

    // MARK: - The pieces of the inverse problem

    /// Series coefficient storage, reused within one solution.
    struct Scratch {
        var c1a = [Double](repeating: 0, count: Geodesic.order + 1)
        var c2a = [Double](repeating: 0, count: Geodesic.order + 1)
        var c3a = [Double](repeating: 0, count: Geodesic.order)
    }

    /// Distance (in units of b) and, when asked, reduced length along the geodesic.
    func lengths(
        _ eps: Double, _ sig12: Double, _ ssig1: Double, _ csig1: Double, _ dn1: Double,
        _ ssig2: Double, _ csig2: Double, _ dn2: Double, reducedLength: Bool, _ scratch: inout Scratch
    ) -> (s12b: Double, m12b: Double) {
        var a1 = Geodesic.a1m1f(eps)
        Geodesic.c1f(eps, &scratch.c1a)
        var a2 = 0.0
        var m0x = 0.0
        if reducedLength {
            a2 = Geodesic.a2m1f(eps)
            Geodesic.c2f(eps, &scratch.c2a)
            m0x = a1 - a2
            a2 = 1 + a2
        }
        a1 = 1 + a1
        let b1 = scratch.c1a.withUnsafeBufferPointer {
            GeodesicMath.sinCosSeries(true, ssig2, csig2, $0) - GeodesicMath.sinCosSeries(true, ssig1, csig1, $0)
        }
        let s12b = a1 * (sig12 + b1)
        guard reducedLength else { return (s12b, .nan) }
        let b2 = scratch.c2a.withUnsafeBufferPointer {
            GeodesicMath.sinCosSeries(true, ssig2, csig2, $0) - GeodesicMath.sinCosSeries(true, ssig1, csig1, $0)
        }
        let j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    struct Start {
        var sig12 = -1.0
        var salp1 = 0.0
        var calp1 = 0.0
        var salp2 = Double.nan
        var calp2 = Double.nan
        var dnm = Double.nan
    }

    /// A first guess at the azimuth (exact for short lines; the astroid for nearly antipodal ones).
    func inverseStart(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ lam12: Double, _ slam12: Double, _ clam12: Double, _ scratch: inout Scratch
    ) -> Start {
        typealias M = GeodesicMath
        var start = Start()
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        if shortline {
            var sbetm2 = M.sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + M.sq(cbet1 + cbet2)
            start.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * M.sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < etol2 {
            // Really short lines: the azimuth at the far end too.
            let calp2Raw = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? M.sq(somg12) / (1 + comg12) : 1 - comg12)
            (start.salp2, start.calp2) = M.norm(cbet1 * somg12, calp2Raw)
            start.sig12 = atan2(ssig12, csig12)
        } else if abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * M.sq(cbet1) {
            // Nothing better than the spherical guess above.
        } else {
            // Nearly antipodal: scale to the astroid problem (f >= 0 here).
            let lam12x = atan2(-slam12, -clam12)
            let k2 = M.sq(sbet1) * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3f(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Geodesic.tol1 && x > -1 - Geodesic.xthresh {
                salp1 = min(1.0, -x)
                calp1 = -(1 - M.sq(salp1)).squareRoot()
            } else {
                let k = Geodesic.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            (salp1, calp1) = M.norm(salp1, calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        start.salp1 = salp1
        start.calp1 = calp1
        return start
    }

    struct LambdaResult {
        var lam12 = 0.0
        var sig12 = 0.0
        var ssig1 = 0.0
        var csig1 = 0.0
        var ssig2 = 0.0
        var csig2 = 0.0
        var eps = 0.0
        var dlam12 = Double.nan
        var salp2 = 0.0
        var calp2 = 0.0
    }

    /// The longitude difference reached by leaving point 1 at azimuth alp1, minus the target's.
    func lambda12(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double, _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1: Double, _ calp1In: Double, _ slam120: Double, _ clam120: Double, diffp: Bool,
        _ scratch: inout Scratch
    ) -> LambdaResult {
        typealias M = GeodesicMath
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -Geodesic.tiny }
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        (ssig1, csig1) = M.norm(ssig1, csig1)
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let inner =
                M.sq(calp1 * cbet1)
                + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2))
            calp2 = inner.squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        (ssig2, csig2) = M.norm(ssig2, csig2)
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = M.sq(calp0) * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        c3f(eps, &scratch.c3a)
        let b312 = scratch.c3a.withUnsafeBufferPointer {
            M.sinCosSeries(true, ssig2, csig2, $0) - M.sinCosSeries(true, ssig1, csig1, $0)
        }
        let domg12 = -f * a3f(eps) * salp0 * (sig12 + b312)
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        var result = LambdaResult(
            lam12: eta + domg12, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
        (result.salp2, result.calp2) = M.norm(salp2, calp2)
        if diffp {
            if calp2 == 0 {
                result.dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let (_, m12b) = lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, reducedLength: true, &scratch)
                result.dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return result
    }

    /// The solution k of the astroid equation k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        typealias M = GeodesicMath
        let p = M.sq(x)
        let q = M.sq(y)
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = M.sq(r)
        let r3 = r * r2
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = M.cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (M.sq(u) + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + M.sq(w)).squareRoot() + w)
    }

    // MARK: - Series coefficients (Karney 2013, eqs. 17, 18, 42, 43, 24, 25; to order 6)

    static func a1m1f(_ eps: Double) -> Double {
        let coeff: [Double] = [1, 4, 64, 0, 256]
        let m = order / 2
        let t = GeodesicMath.polyval(m, coeff, 0, GeodesicMath.sq(eps)) / coeff[m + 1]
        return (t + eps) / (1 - eps)
    }

    static let c1Coefficients: [Double] = [
        -1, 6, -16, 32, -9, 64, -128, 2048, 9, -16, 768, 3, -5, 512, -7, 1280, -7, 2048,
    ]

    static func c1f(_ eps: Double, _ c: inout [Double]) {
        series(eps, c1Coefficients, &c)
    }

    static func a2m1f(_ eps: Double) -> Double {
        let coeff: [Double] = [-11, -28, -192, 0, 256]
        let m = order / 2
        let t = GeodesicMath.polyval(m, coeff, 0, GeodesicMath.sq(eps)) / coeff[m + 1]
        return (t - eps) / (1 + eps)
    }

    static let c2Coefficients: [Double] = [
        1, 2, 16, 32, 35, 64, 384, 2048, 15, 80, 768, 7, 35, 512, 63, 1280, 77, 2048,
    ]

    static func c2f(_ eps: Double, _ c: inout [Double]) {
        series(eps, c2Coefficients, &c)
    }

    /// c[l] = eps^l × (a polynomial in eps²) for l = 1…6, as C1 and C2 are written.
    private static func series(_ eps: Double, _ coeff: [Double], _ c: inout [Double]) {
        let eps2 = GeodesicMath.sq(eps)
        var d = eps
        var o = 0
        for l in 1...order {
            let m = (order - l) / 2
            c[l] = d * GeodesicMath.polyval(m, coeff, o, eps2) / coeff[o + m + 1]
            o += m + 2
            d *= eps
        }
    }

    static func a3Coefficients(_ n: Double) -> [Double] {
        let coeff: [Double] = [-3, 128, -2, -3, 64, -1, -3, -1, 16, 3, -1, -2, 8, 1, -1, 2, 1, 1]
        var result: [Double] = []
        var o = 0
        for j in stride(from: order - 1, through: 0, by: -1) {
            let m = min(order - j - 1, j)
            result.append(GeodesicMath.polyval(m, coeff, o, n) / coeff[o + m + 1])
            o += m + 2
        }
        return result
    }

    static func c3Coefficients(_ n: Double) -> [Double] {
        let coeff: [Double] = [
            3, 128, 2, 5, 128, -1, 3, 3, 64, -1, 0, 1, 8, -1, 1, 4, 5, 256, 1, 3, 128, -3, -2, 3, 64, 1, -3, 2,
            32, 7, 512, -10, 9, 384, 5, -9, 5, 192, 7, 512, -14, 7, 512, 21, 2560,
        ]
        var result: [Double] = []
        var o = 0
        for l in 1..<order {
            for j in stride(from: order - 1, through: l, by: -1) {
                let m = min(order - j - 1, j)
                result.append(GeodesicMath.polyval(m, coeff, o, n) / coeff[o + m + 1])
                o += m + 2
            }
        }
        return result
    }

    func a3f(_ eps: Double) -> Double {
        GeodesicMath.polyval(Geodesic.order - 1, a3x, 0, eps)
    }

    func c3f(_ eps: Double, _ c: inout [Double]) {
        var mult = 1.0
        var o = 0
        for l in 1..<Geodesic.order {
            let m = Geodesic.order - l - 1
            mult *= eps
            c[l] = mult * GeodesicMath.polyval(m, c3x, o, eps)
            o += m + 1
        }
    }
}
