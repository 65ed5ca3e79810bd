import DetourCore
import Foundation
import Testing

@testable import DetourPlaces

/// GeoNames' places: a pin named as a traveller would name it, the nearest place on the WGS84
/// ellipsoid with no seam at the antimeridian or the poles, and places found by name whatever
/// the case and accents.
@Suite struct GazetteerTests {
    static func at(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try #require(Coordinate(latitude: latitude, longitude: longitude))
    }

    static func place(_ name: String, _ latitude: Double, _ longitude: Double, population: Int = 1_000) throws -> Place
    {
        Place(name: name, coordinate: try at(latitude, longitude), country: "XX", population: population)
    }

    // MARK: - GeoNames' table

    @Test func everyLineOfGeoNamesTableIsAPlace() {
        let cities = GeoNames.cities
        #expect(cities.places.count == 170_391)
        #expect(cities.places.first?.name == "Takht-e Qeyşar")
        let lisbon = cities.places.first { $0.name == "Lisbon" && $0.country == "PT" }
        #expect(lisbon?.population == 517_802)
        #expect(lisbon?.coordinate == Coordinate(latitude: 38.72509, longitude: -9.1498))
    }

    @Test(arguments: [
        // A pin at a city's own point, and one in its middle, nearer one of its parts.
        (38.72509, -9.1498, "Lisbon", "PT"), (38.7139, -9.1394, "Lisbon", "PT"),
        (64.1466, -21.9426, "Reykjavík", "IS"), (-18.1416, 178.4419, "Suva", "FJ"),
        (48.8566, 2.3522, "Paris", "FR"), (35.68, 139.76, "Tokyo", "JP"),
        // Beyond the city's reach, the nearest place.
        (38.7578, -9.2245, "Amadora", "PT"),
    ])
    func aPinIsNamedAsATravellerNamesIt(_ latitude: Double, _ longitude: Double, _ name: String, _ country: String)
        throws
    {
        let found = try #require(GeoNames.cities.place(at: try Self.at(latitude, longitude), within: 50_000))
        #expect(found.place.name == name && found.place.country == country)
        #expect(found.distance == Geodesy.distance(from: try Self.at(latitude, longitude), to: found.place.coordinate))
    }

    @Test func theNearestPlaceIsTheNearestOnTheEllipsoid() throws {
        let baixa = try #require(GeoNames.cities.nearest(to: try Self.at(38.7139, -9.1394), within: 50_000))
        #expect(baixa.place.name == "Baixa" && (baixa.distance - 337).magnitude < 2)
        // Across the antimeridian: Savusavu is at 179.34° east.
        let east = try #require(GeoNames.cities.nearest(to: try Self.at(-16.8, -179.99), within: 100_000))
        #expect(east.place.name == "Savusavu" && (71_000...72_500).contains(east.distance), "\(east)")
        #expect(GeoNames.cities.place(at: try Self.at(-16.8, -179.99), within: 100_000)?.place.name == "Savusavu")
    }

    /// A point at sea has the nearest coast's place only within the limit asked for.
    @Test func aPointAtSeaHasNoPlaceWithinTheLimit() throws {
        let sea = try Self.at(30, -40)
        #expect(GeoNames.cities.place(at: sea, within: 50_000) == nil)
        let flores = try #require(GeoNames.cities.place(at: sea, within: 1_500_000))
        #expect(flores.place.name == "Lajes das Flores" && (1_300_000...1_330_000).contains(flores.distance))
        let pole = try #require(GeoNames.cities.nearest(to: try Self.at(89.9, 0), within: 2_000_000))
        #expect(pole.place.name == "Longyearbyen")
        #expect(GeoNames.cities.nearest(to: try Self.at(-89, 0), within: 3_000_000) == nil)
    }

    // MARK: - The index, on tables made to force each path

    @Test func noPlacesHaveNoNearest() throws {
        let empty = Gazetteer(places: [])
        #expect(empty.nearest(to: try Self.at(0, 0), within: .infinity) == nil)
        #expect(empty.place(at: try Self.at(0, 0), within: .infinity) == nil)
        #expect(empty.search("a").isEmpty)
    }

    @Test func theAntimeridianAndThePolesAreNoSeam() throws {
        let places = try Gazetteer(places: [
            Self.place("West", -18, 179.999), Self.place("Far", -18, 170), Self.place("North", 89.99, 0),
            Self.place("Across the pole", 89.99, 180),
        ])
        #expect(places.nearest(to: try Self.at(-18, -179.999), within: 1_000)?.place.name == "West")
        #expect(places.nearest(to: try Self.at(89.999, 179), within: 2_000)?.place.name == "Across the pole")
        #expect(places.nearest(to: try Self.at(89.999, -1), within: 2_000)?.place.name == "North")
    }

    /// Where the sphere and the ellipsoid disagree, the ellipsoid decides.
    ///
    /// At 60° north, a degree of latitude is 0.17 % shorter against a degree of longitude on the
    /// ellipsoid than on the sphere: a place due north 0.05 % farther on the sphere than one due
    /// east is nearer on the ellipsoid.
    @Test func theEllipsoidDecidesWhereTheSphereDisagrees() throws {
        let east = 0.018
        let north = east * cos(60 * Double.pi / 180) * 1.0005
        let places = try Gazetteer(places: [Self.place("East", 60, east), Self.place("North", 60 + north, 0)])
        let target = try Self.at(60, 0)
        let sphere = places.places.map { PlaceTree.point($0.coordinate) - PlaceTree.point(target) }
            .map { ($0 * $0).sum() }
        #expect(sphere[0] < sphere[1], "the sphere puts East nearer")
        let found = try #require(places.nearest(to: target, within: 10_000))
        #expect(found.place.name == "North")
        #expect(found.distance < Geodesy.distance(from: target, to: places.places[0].coordinate))
    }

    /// The tree finds what measuring every place finds: on places over the whole globe, and on
    /// places as dense as a country's, where many reach a point.
    @Test(arguments: [(-90.0...90.0, -180.0...180.0), (38.0...40.0, -10.0...(-8.0))])
    func theNearestIsWhatMeasuringEveryPlaceFinds(_ latitudes: ClosedRange<Double>, _ longitudes: ClosedRange<Double>)
        throws
    {
        var random = SplitMix(seed: 38)
        let places = try (0..<800).map { index in
            try Self.place(
                "P\(index)", random.next(in: latitudes), random.next(in: longitudes),
                population: Int(random.next(in: 1_000...2_000_000)))
        }
        let gazetteer = Gazetteer(places: places)
        for _ in 0..<100 {
            let target = try Self.at(random.next(in: latitudes), random.next(in: longitudes))
            let measured = places.indices.map { (Geodesy.distance(from: target, to: places[$0].coordinate), $0) }
            let nearest = try #require(measured.min { $0 < $1 })
            let found = try #require(gazetteer.nearest(to: target, within: .infinity))
            #expect(found.place == places[nearest.1] && found.distance == nearest.0)
            let reached = measured.filter { $0.0 <= Gazetteer.reach(of: places[$0.1].population) }
            let meant = reached.min { (-places[$0.1].population, $0.0, $0.1) < (-places[$1.1].population, $1.0, $1.1) }
            #expect(gazetteer.place(at: target, within: .infinity)?.place == places[(meant ?? nearest).1])
        }
    }

    @Test func ofTwoPlacesEquallyNearTheOneListedFirstIsNearest() throws {
        let places = try Gazetteer(places: [Self.place("A", 0, 1), Self.place("B", 0, -1), Self.place("C", 0, 1)])
        #expect(places.nearest(to: try Self.at(0, 0), within: .infinity)?.place.name == "A")
        #expect(places.nearest(to: try Self.at(0, 1), within: .infinity)?.place.name == "A")
    }

    @Test func aPlaceReachesAsFarAsItsPeople() {
        #expect((Gazetteer.reach(of: 1_000) - 252.3).magnitude < 0.1)
        #expect((Gazetteer.reach(of: 517_802) - 5_741).magnitude < 1)
        #expect(Gazetteer.reach(of: 0) == 0)
    }

    // MARK: - Names

    @Test(arguments: [
        ("lisbon", "Lisbon"), ("LISBON", "Lisbon"), ("reykjavik", "Reykjavík"), ("Reykjav", "Reykjavík"),
        ("sao paulo", "São Paulo"), ("zurich", "Zürich"), ("lodz", "Łódź"), ("saint etienne", "Saint-Étienne"),
        ("  Saint--Étienne ", "Saint-Étienne"), ("koln", "Köln"),
    ])
    func aPlaceIsFoundByItsNameWhateverTheCaseAndAccents(_ text: String, _ name: String) {
        #expect(GeoNames.cities.search(text, limit: 1).first?.name == name)
    }

    @Test func theMostPopulousComeFirstAndNoMoreThanAsked() {
        let found = GeoNames.cities.search("paris", limit: 5)
        #expect(found.count == 5 && found.first?.name == "Paris" && found.first?.country == "FR")
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.population >= $1.population })
        #expect(GeoNames.cities.search("", limit: 5).isEmpty && GeoNames.cities.search(" - ", limit: 5).isEmpty)
        #expect(GeoNames.cities.search("paris", limit: 0).isEmpty)
        #expect(GeoNames.cities.search("qxzqxz").isEmpty)
    }

    @Test func samePopulationsKeepTheirOrder() throws {
        let places = try Gazetteer(places: [
            Self.place("Ab", 0, 0), Self.place("Aa", 0, 0), Self.place("Ac", 0, 0, population: 5),
            Self.place("B", 0, 0),
        ])
        #expect(places.search("a", limit: 2).map(\.name) == ["Ab", "Aa"])
        #expect(places.search("a", limit: 3).map(\.name) == ["Ab", "Aa", "Ac"])
    }

    @Test(arguments: [
        ("Łódź", "lodz"), ("Saint-Étienne", "saint etienne"), ("STRAẞE", "strasse"), ("Ærøskøbing", "aeroskobing"),
        ("İstanbul", "istanbul"), ("a\u{200B}b", "ab"), ("'s-Hertogenbosch", "s hertogenbosch"), ("東京", "東京"),
        ("Þórshöfn", "thorshofn"), ("", ""), ("--", ""),
    ])
    func namesFoldAsAPersonTypesThem(_ name: String, _ folded: String) {
        #expect(PlaceName.folded(name) == folded)
    }

    // MARK: - The table's form

    @Test(arguments: [
        ("A\t1\t2\tPT\t10\nB\t1\t2\tPT\n", 2), ("\t1\t2\tPT\t10\n", 1), ("A\t91\t2\tPT\t10\n", 1),
        ("A\t1\t2\tPT\t-1\n", 1), ("A\t1.\t2\tPT\t10\n", 1), ("A\t.5\t2\tPT\t10\n", 1), ("A\t1.2.3\t2\tPT\t10\n", 1),
        ("A\t1\t2-\tPT\t10\n", 1), ("A\t1234567890123456\t2\tPT\t10\n", 1), ("A\t-\t2\tPT\t10\n", 1),
        ("A\t1e2\t2\tPT\t10\n", 1), ("A\t1\t2\tPT\t10\tX\n", 1), ("A\t1\t2\tPT\t1234567890123\n", 1),
        ("A\t1\t2\tPT\t\n", 1),
    ])
    func aLineThatIsNotAPlaceIsNamed(_ table: String, _ line: Int) {
        #expect(throws: GazetteerError(line: line)) { try Gazetteer(table: table) }
    }

    @Test func numbersReadAsDoubleReadsThem() throws {
        let table = "A\t-18.13683\t178.42531\tFJ\t77366\n\nB\t0\t-0.5\tXX\t0\nC\t89.99999\t-179.99999\tXX\t1"
        let places = try Gazetteer(table: table).places
        #expect(places.map(\.coordinate.latitude) == [-18.13683, 0, 89.99999])
        #expect(places.map(\.coordinate.longitude) == [178.42531, -0.5, -179.99999])
        #expect(places.map(\.population) == [77_366, 0, 1] && places[0].country == "FJ")
        let digits = "A\t12.3456789012345\t0\tXX\t0\n"
        #expect(try Gazetteer(table: digits).places[0].coordinate.latitude == 12.3456789012345)
    }
}

/// A small, seeded generator: the same numbers on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
