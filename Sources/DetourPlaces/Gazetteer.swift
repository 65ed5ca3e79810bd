import DetourCore

/// A populated place: its name, where it is, its country and how many people live there.
public struct Place: Sendable, Hashable {
    public let name: String
    public let coordinate: Coordinate
    /// The country's ISO 3166-1 alpha-2 code, as GeoNames gives it.
    public let country: String
    public let population: Int

    public init(name: String, coordinate: Coordinate, country: String, population: Int) {
        self.name = name
        self.coordinate = coordinate
        self.country = country
        self.population = population
    }
}

/// Populated places, indexed for the two questions a map asks: which place is nearest to a point
/// (to name a pin), and which places a name starts (to find a place by name).
///
/// Nearest is by the length of the shortest path on the WGS84 ellipsoid (``Geodesy``). A 3-d tree
/// over the places' points on the unit sphere (``PlaceTree``) finds the candidates; the sphere
/// orders distances as the ellipsoid does to within its radii of curvature (0.67 % apart at
/// most), so every place within 1 % of the sphere's nearest is measured on the ellipsoid and the
/// shortest wins. Names are compared folded (``PlaceName/folded(_:)``): case, accents and
/// punctuation aside.
public struct Gazetteer: Sendable {
    public let places: [Place]
    private let tree: PlaceTree
    private let names: PlaceNames

    /// The chord on the unit sphere that holds the reach of the most populous place.
    private let widestReach: Double

    public init(places: [Place]) {
        self.places = places
        tree = PlaceTree(places.map(\.coordinate))
        names = PlaceNames(places.map(\.name))
        widestReach = PlaceTree.chord(metres: Self.reach(of: places.map(\.population).max() ?? 0))
    }

    /// The places of `table`: a line a place, its name, latitude, longitude, country code and
    /// population separated by tabs (``GeoNames/cities1000``'s form).
    public init(table: String) throws(GazetteerError) {
        self.init(places: try Self.places(in: table))
    }

    /// The place nearest to `point`, and its distance in metres, when one is within `limit` metres.
    ///
    /// Of two places equally near, the one listed first.
    public func nearest(to point: Coordinate, within limit: Double) -> (place: Place, distance: Double)? {
        let target = PlaceTree.point(point)
        guard let (_, chord) = tree.nearest(to: target) else { return nil }
        var best: (index: Int, distance: Double)?
        for index in tree.indices(within: chord * 1.01 + 1e-12, of: target) {
            let distance = Geodesy.distance(from: point, to: places[index].coordinate)
            if let found = best, (found.distance, found.index) <= (distance, index) { continue }
            best = (index, distance)
        }
        guard let best, best.distance <= limit else { return nil }
        return (places[best.index], best.distance)
    }

    /// The place a person means by `point`, and its distance in metres: of the places whose
    /// ``reach(of:)`` holds the point, the most populous (then the nearest, then the one listed
    /// first); else the nearest within `limit` metres; else none.
    ///
    /// A point in the middle of Lisbon is nearest to one of its parishes (Baixa, 337 m away), and
    /// one in Paris to one of its arrondissements, but a traveller who drops a pin there means
    /// Lisbon or Paris.
    public func place(at point: Coordinate, within limit: Double) -> (place: Place, distance: Double)? {
        var best: (index: Int, distance: Double)?
        for index in tree.indices(within: widestReach, of: PlaceTree.point(point)) {
            let place = places[index]
            let distance = Geodesy.distance(from: point, to: place.coordinate)
            guard distance <= Self.reach(of: place.population) else { continue }
            if let found = best,
                (-places[found.index].population, found.distance, found.index) <= (-place.population, distance, index)
            {
                continue
            }
            best = (index, distance)
        }
        if let best { return (places[best.index], best.distance) }
        return nearest(to: point, within: limit)
    }

    /// How far from a place a point may be and still be named after it, when no place's reach
    /// holds it: 40 km, a day's reach.
    public static let namingReach = 40_000.0

    /// The name of the place a person means by `point` (``place(at:within:)``, within
    /// ``namingReach``): what the app's map and `import` name a point after.
    public func name(at point: Coordinate) -> String? {
        place(at: point, within: Self.namingReach)?.place.name
    }

    /// How far from a place's point a point is still in it, in metres: the radius of a disc that
    /// holds its population at 5,000 people a square kilometre (Lisbon's density; Lisbon's reach is
    /// 5.7 km, London's 23.9 km, a village of 1,000 people's 252 m).
    public static func reach(of population: Int) -> Double {
        (Double(population) / (Double.pi * 5_000)).squareRoot() * 1_000
    }

    /// Up to `limit` places whose folded name starts with `text` folded, the most populous first
    /// (then as listed); none for a text that folds to nothing.
    public func search(_ text: String, limit: Int = 10) -> [Place] {
        names.starting(with: PlaceName.folded(text), limit: limit) { places[$0].population }.map { places[$0] }
    }

    /// Reads `table` (see ``init(table:)``), byte by byte: a `String` is made for a place's name
    /// and country only.
    static func places(in table: String) throws(GazetteerError) -> [Place] {
        var table = table
        table.makeContiguousUTF8()
        let read = table.utf8.withContiguousStorageIfAvailable { bytes -> Result<[Place], GazetteerError> in
            var places: [Place] = []
            var (line, start) = (0, 0)
            while start < bytes.count {
                line += 1
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if end > start {
                    guard let place = Self.place(bytes[start..<end]) else {
                        return .failure(GazetteerError(line: line))
                    }
                    places.append(place)
                }
                start = end + 1
            }
            return .success(places)
        }
        guard let read else { return [] }
        return try read.get()
    }

    /// The place of one line: name, latitude, longitude, country code and population.
    private static func place(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Place? {
        var fields: [Slice<UnsafeBufferPointer<UInt8>>] = []
        fields.reserveCapacity(5)
        var start = line.startIndex
        while fields.count < 5 {
            let end = line[start...].firstIndex(of: UInt8(ascii: "\t")) ?? line.endIndex
            fields.append(line[start..<end])
            if end == line.endIndex { break }
            start = end + 1
        }
        guard fields.count == 5, fields[4].endIndex == line.endIndex, !fields[0].isEmpty,
            let latitude = number(fields[1]), let longitude = number(fields[2]),
            let coordinate = Coordinate(latitude: latitude, longitude: longitude),
            !fields[4].isEmpty, fields[4].count <= 12, fields[4].allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return Place(
            name: String(decoding: fields[0], as: UTF8.self), coordinate: coordinate,
            country: String(decoding: fields[3], as: UTF8.self),
            population: fields[4].reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }

    /// A decimal number: an optional `-`, digits, and optionally `.` and at most 15 digits in all.
    ///
    /// Read by hand, as the whole number of its digits divided by a power of ten: both are exact in
    /// a `Double`, so the quotient is the correctly rounded value of the text, as `Double(_:)`
    /// gives it, without a `String` a field (GeoNames' 170,391 places have 340,782 of them).
    private static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var digits = 0
        var whole: Int64 = 0
        var scale: Int?
        var negative = false
        for (offset, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                negative = true
            case UInt8(ascii: ".") where scale == nil && digits > 0:
                scale = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= 15 else { return nil }
                whole = whole * 10 + Int64(byte - UInt8(ascii: "0"))
                if let places = scale { scale = places + 1 }
            default:
                return nil
            }
        }
        guard digits > 0, scale != 0 else { return nil }
        var divisor = 1.0
        for _ in 0..<(scale ?? 0) { divisor *= 10 }
        let value = Double(whole) / divisor
        return negative ? -value : value
    }
}

/// A line of a gazetteer's table that is not a place.
public struct GazetteerError: Error, Sendable, Equatable {
    /// The line, from 1.
    public let line: Int
}

/// GeoNames' populated places (see `GeoNamesCities.NOTICE`).
public enum GeoNames {
    /// The places of ``cities1000``, read and indexed at first use.
    ///
    /// The table is this package's own, checked by its tests and by CI against its source: a
    /// line of it that did not read would be a fault of the build, and leaves the gazetteer empty.
    public static let cities: Gazetteer = {
        do {
            return try Gazetteer(table: cities1000)
        } catch {
            return Gazetteer(places: [])
        }
    }()
}
