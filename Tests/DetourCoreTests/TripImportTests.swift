import Testing

@testable import DetourCore

/// Places grouped into stays, and a stay's centre.
@Suite struct TripImportTests {
    func point(_ lat: Double, _ lon: Double) throws -> Coordinate {
        try #require(Coordinate(latitude: lat, longitude: lon))
    }

    @Test func placesWithinFiftyKilometresByAnyChainAreOneStay() throws {
        // Lisbon, Sintra (25 km), Cascais (from Sintra 14 km), then Porto, 270 km north.
        let places = [
            try point(38.7223, -9.1393), try point(41.1496, -8.6110), try point(38.8029, -9.3817),
            try point(38.6979, -9.4215),
        ]
        #expect(TripImport.cluster(places) == [[0, 2, 3], [1]])
        #expect(TripImport.cluster([]) == [])
    }

    @Test func theLinkIsFiftyKilometresAtItAndNotPast() throws {
        let a = try point(0, 0)
        // 0.4522° of latitude at the equator is just under 50 km; 0.4523° just over.
        let near = try point(0.4521, 0)
        let far = try point(0.4524, 0)
        #expect(Geodesy.distance(from: a, to: near) <= TripImport.clusterMetres)
        #expect(Geodesy.distance(from: a, to: far) > TripImport.clusterMetres)
        #expect(TripImport.cluster([a, near]).count == 1)
        #expect(TripImport.cluster([a, far]).count == 2)
    }

    @Test func theCentreOfPlacesAcrossTheDateLineIsOnIt() throws {
        let centre = TripImport.centre(of: [try point(-17, 179.5), try point(-17, -179.5)])
        #expect(abs(abs(centre.longitude) - 180) < 0.001, "\(centre)")
        #expect(abs(centre.latitude + 17) < 0.01)
    }

    @Test func aDraftValidatesAndSaysWhatIsAPlaceholder() throws {
        let places = TripImport.Places(
            title: " Walks ",
            points: [TripImport.Point(name: nil, description: " ", link: nil, location: try point(1, 1))],
            lines: [
                TripImport.Line(name: "Loop", points: [try point(1, 1), try point(1.01, 1)]),
                TripImport.Line(name: "Empty", points: []),
            ])
        let day = try #require(CalendarDay(iso: "2026-11-27"))
        let draft = TripImport.draft(places, from: day, fileName: "walks.gpx")
        #expect(draft.trip.title == "Walks")
        #expect(draft.trip.destinations.map(\.name) == ["Walks"])
        #expect(draft.trip.destinations.first?.detours.flatMap(\.tasks).map(\.name) == ["Place 1", "Loop"])
        #expect(draft.trip.destinations.first?.arrival.description == "2026-12-11")
        #expect(draft.notes.count == 2)
        let untitled = TripImport.draft(
            TripImport.Places(title: nil, points: places.points), from: day, fileName: "x.gpx")
        #expect(untitled.trip.title == "Places from x.gpx")
    }
}

extension TripImportTests {
    @Test func clustersAreNamedAfterTheirFirstPlaceAndWaysAfterTheirNumber() throws {
        let places = TripImport.Places(
            title: nil,
            points: [
                TripImport.Point(name: "Lisbon", description: nil, link: nil, location: try point(38.72, -9.14)),
                TripImport.Point(name: " ", description: nil, link: nil, location: try point(41.15, -8.61)),
            ],
            lines: [TripImport.Line(name: nil, points: [try point(37.0, -8.0), try point(37.01, -8.0)])])
        let day = try #require(CalendarDay(iso: "2026-11-27"))
        let draft = TripImport.draft(places, from: day, fileName: "x.gpx")
        #expect(draft.trip.destinations.map(\.name) == ["Stay 1 near Lisbon", "Stay 2", "Stay 3"])
        #expect(draft.trip.destinations.last?.detours.first?.tasks.first?.name == "Way 3")
        #expect(draft.trip.destinations.map(\.arrival.description) == ["2026-12-11", "2026-12-12", "2026-12-13"])
    }

    /// Two points are the same place within 10 m, near the poles and across the antimeridian
    /// too, and not a metre past it.
    @Test(
        arguments: [
            ((38.7223, -9.1393), (38.7223, -9.1393), true), ((38.7223, -9.1393), (38.72238, -9.1393), true),
            ((38.7223, -9.1393), (38.7224, -9.1393), false), ((38.7223, -9.1393), (38.7223, -9.1383), false),
            ((38.7223, -9.1393), (38.9, -9.1393), false), ((0, 179.99996), (0, -179.99996), true),
            ((89.95, 0), (89.95, 0.05), true), ((89.95, 0), (89.95, 10), false),
        ] as [((Double, Double), (Double, Double), Bool)])
    func pointsWithinTenMetresAreOnePlace(_ a: (Double, Double), _ b: (Double, Double), _ same: Bool) throws {
        let first = try #require(Coordinate(latitude: a.0, longitude: a.1))
        let second = try #require(Coordinate(latitude: b.0, longitude: b.1))
        #expect(TripImport.isSamePlace(first, second) == same)
    }

    /// Nights spread over stays by their places: in proportion, at least one each, the rounding
    /// given to the stays that lost most to it; one each without a number or with too few.
    @Test(
        arguments: [
            (9, [3, 2, 1], [4, 3, 2]), (3, [3, 2, 1], [1, 1, 1]), (2, [3, 2, 1], [1, 1, 1]), (10, [1, 1], [5, 5]),
            (7, [1, 1], [4, 3]),
        ] as [(Int, [Int], [Int])])
    func nightsAreSpreadByPlaces(_ total: Int, _ sizes: [Int], _ expected: [Int]) {
        #expect(TripImport.spread(total, over: sizes) == expected)
        #expect(TripImport.spread(nil, over: sizes) == sizes.map { _ in 1 })
    }

    /// The names a warning gives are the first five, quoted as every message quotes what a file
    /// says: an escape sequence in a name reaches no terminal.
    @Test func skippedPointsAreNamedFiveAtMostAndEscaped() {
        let names = ["\u{1B}[31mRed", "B", "C", "D", "E", "F", "G"]
        let notes = TripImport.skippedNotes(names.map { TripImport.Skipped(name: $0, reason: .noPosition) })
        #expect(notes.count == 1)
        #expect(notes.allSatisfy { !$0.contains("\u{1B}") }, "\(notes)")
        #expect(notes.first?.hasSuffix(#""E" and 2 more"#) == true, "\(notes)")
    }

    /// At the calendar's end the stays keep to the days there are.
    @Test func theLastDaysOfTheCalendar() throws {
        let places = TripImport.Places(
            title: "End",
            points: [
                TripImport.Point(name: "A", description: nil, link: nil, location: try point(1, 1)),
                TripImport.Point(name: "B", description: nil, link: nil, location: try point(40, 40)),
            ])
        let last = try #require(CalendarDay(iso: "9999-12-25"))
        let draft = TripImport.draft(places, from: last, fileName: "x.gpx")
        let days = draft.trip.destinations.map { "\($0.arrival) \($0.departure)" }
        #expect(days == ["9999-12-31 9999-12-31", "9999-12-31 9999-12-31"], "\(days)")
        #expect(TripImport.later(last, by: 3).description == "9999-12-28")
    }
}
