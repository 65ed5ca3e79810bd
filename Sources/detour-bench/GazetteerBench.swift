import DetourCore
import DetourPlaces
import Foundation

/// `detour-bench gazetteer ROUNDS`: the gazetteer's load, memory and questions, with baselines.
///
/// Reads and indexes GeoNames' table ROUNDS times, then names 10,000 seeded points and searches
/// 2,000 seeded prefixes, against the same questions answered by measuring or folding every
/// place. Prints, space-separated: the places, the median seconds to load and to index the
/// places already read, the resident KiB before and after the first load, the microseconds a question of
/// `place(at:)`, of `nearest(to:)`, of measuring every place, of `search`, and of scanning every
/// folded name.
func benchGazetteer(rounds: Int) {
    let before = residentKiB()
    var loads: [Double] = []
    var gazetteer = GeoNames.cities
    let after = residentKiB()
    for _ in 0..<rounds {
        let elapsed = ContinuousClock().measure {
            gazetteer = (try? Gazetteer(table: GeoNames.cities1000)) ?? gazetteer
        }
        loads.append(seconds(elapsed))
    }
    loads.sort()
    var indexes: [Double] = []
    for _ in 0..<rounds {
        let places = gazetteer.places
        indexes.append(seconds(ContinuousClock().measure { gazetteer = Gazetteer(places: places) }))
    }
    indexes.sort()
    // A fixed sequence, so every run asks the same.
    var state: UInt64 = 39
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    let points = (0..<10_000).compactMap { _ in Coordinate(latitude: next() * 120 - 60, longitude: next() * 360 - 180) }
    var found = 0
    let place = ContinuousClock().measure {
        for point in points where gazetteer.place(at: point, within: 50_000) != nil { found += 1 }
    }
    let nearest = ContinuousClock().measure {
        for point in points where gazetteer.nearest(to: point, within: 50_000) != nil { found += 1 }
    }
    let measured = points.prefix(5)
    let every = ContinuousClock().measure {
        for point in measured {
            var least = Double.infinity
            for place in gazetteer.places { least = min(least, Geodesy.distance(from: point, to: place.coordinate)) }
            if least <= 50_000 { found += 1 }
        }
    }
    let letters = Array("abcdefghijklmnoprstuvwz")
    let prefixes = (0..<2_000).map { index in
        String((0...(index % 4)).map { _ in letters[Int(next() * Double(letters.count))] })
    }
    let search = ContinuousClock().measure {
        for prefix in prefixes { found += gazetteer.search(prefix, limit: 10).count }
    }
    let folded = gazetteer.places.map { $0.name.lowercased().folding(options: .diacriticInsensitive, locale: nil) }
    let scanned = prefixes.prefix(200)
    let scan = ContinuousClock().measure {
        for prefix in scanned { found += folded.lazy.filter { $0.hasPrefix(prefix) }.prefix(10).count }
    }
    func micro(_ duration: Duration, _ count: Int) -> String {
        String(format: "%.1f", seconds(duration) * 1e6 / Double(count))
    }
    print(
        "\(gazetteer.places.count) \(String(format: "%.4f", loads[loads.count / 2])) "
            + "\(String(format: "%.4f", indexes[indexes.count / 2])) \(before) \(after) "
            + "\(micro(place, points.count)) \(micro(nearest, points.count)) \(micro(every, measured.count)) "
            + "\(micro(search, prefixes.count)) \(micro(scan, scanned.count)) \(found)")
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The process's resident memory in KiB, from `/proc/self/statm`.
private func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 : 0
}
