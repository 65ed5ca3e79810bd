import DetourCore
import Testing

@testable import DetourRender

/// The map's scale bar: the longest of 1, 2 and 5 times a power of ten that fits in 90 units,
/// and its label, at each power of ten exactly and on either side of it.
@Suite struct MapScaleBarTests {
    /// Each power of ten a map of a few hundred metres to half the Earth can need, the label its
    /// bar has, and the nice length just below it.
    static let powers: [(metres: Double, label: String, below: Double)] = [
        (10, "10 m", 5), (100, "100 m", 50), (1_000, "1.0 km", 500), (10_000, "10.0 km", 5_000),
        (100_000, "100 km", 50_000), (1_000_000, "1,000 km", 500_000), (10_000_000, "10,000 km", 5_000_000),
    ]

    @Test(arguments: powers)
    func aPowerOfTenFitsExactly(_ power: (metres: Double, label: String, below: Double)) {
        #expect(MapModel.niceLength(atMost: power.metres) == power.metres)
        #expect(MapModel.niceLength(atMost: power.metres.nextUp) == power.metres)
        #expect(MapModel.niceLength(atMost: power.metres.nextDown) == power.below)
        #expect(MapModel.niceLength(atMost: 2 * power.metres) == 2 * power.metres)
        #expect(MapModel.niceLength(atMost: (2 * power.metres).nextDown) == power.metres)
        #expect(MapModel.niceLength(atMost: 5 * power.metres) == 5 * power.metres)
        #expect(MapModel.niceLength(atMost: (5 * power.metres).nextDown) == 2 * power.metres)
        #expect(Formatting.distance(power.metres) == power.label)
    }

    /// Whatever room there is, the bar is a nice length, fits, and takes more than two fifths of
    /// it: of 1, 2 and 5, each is more than two fifths of the next one up.
    @Test func theBarIsNiceFitsAndIsNeverShort() {
        var limit = 7.0
        while limit < 3e7 {
            let metres = MapModel.niceLength(atMost: limit)
            var mantissa = metres
            while mantissa >= 10 { mantissa /= 10 }
            #expect([1, 2, 5].contains(mantissa), "\(limit)")
            #expect(metres <= limit && metres > limit * 0.4, "\(limit) gives \(metres)")
            limit *= 1.0137
        }
    }
}
