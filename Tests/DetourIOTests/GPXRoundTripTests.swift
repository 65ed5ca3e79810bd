import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// `--format gpx` output reads back to the same trip: a property over generated trips.
@Suite struct GPXRoundTripTests {
    @Test func everyGeneratedTripSurvivesGPXAndBack() throws {
        var random = SplitMix(seed: 2026)
        for round in 0..<150 {
            let trip = TripGenerator.trip(using: &random)
            let gpx = try TripGPXWriter.write(trip)
            let outcome = TripLoader.load(Array(gpx.utf8), format: .gpx)
            guard let back = outcome.trip else {
                Issue.record("round \(round): \(outcome.diagnostics.errors.map(\.message))\n\(gpx)")
                return
            }
            #expect(back == trip, "round \(round)")
            #expect(try TripGPXWriter.write(back) == gpx, "round \(round): writing is not stable")
        }
    }

    /// Found by fuzzing: a trip with no destination was written as a GPX that did not read back.
    @Test func aTripWithNoDestinationSurvivesGPXAndBack() throws {
        let trip = Trip(title: "Alpine loop 4997", traveler: EmailAddress("ada@example.com"), destinations: [])
        let outcome = TripLoader.load(Array(try TripGPXWriter.write(trip).utf8), format: .gpx)
        #expect(outcome.diagnostics.isEmpty)
        #expect(outcome.trip == trip)
    }

    @Test(.enabled(if: Tool.usable("xmllint"), "needs xmllint (Debian: libxml2-utils)"))
    func theWritersOutputIsWellFormedForXmllint() throws {
        let xmllint = try #require(Tool.path("xmllint"), "xmllint (libxml2-utils) is not installed")
        var random = SplitMix(seed: 7)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("round-trip-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: file) }
        try TripGPXWriter.write(TripGenerator.trip(using: &random)).write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--nonet", file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Random valid trips, with the characters that trouble XML and Markdown in their text.
enum TripGenerator {
    static let words = [
        "Zürich", "<b>", "&amp;", "\"quoted\"", "it's", "Ωmega", "tab\there", "a|b", "😀", "São Paulo", "]]>", "x",
    ]

    static func text(using random: inout SplitMix) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random) ?? "x" }
            .joined(separator: " ")
    }

    static func point(using random: inout SplitMix) -> Coordinate {
        let lat = (Double.random(in: -90...90, using: &random) * 10_000).rounded() / 10_000
        let lon = (Double.random(in: -180...180, using: &random) * 10_000).rounded() / 10_000
        guard let point = Coordinate(latitude: lat, longitude: lon) else { fatalError("out of range") }
        return point
    }

    static func trip(using random: inout SplitMix) -> Trip {
        let destinations = (0..<Int.random(in: 0...4, using: &random)).map { _ in destination(using: &random) }
        // An address alone, with a name, with a name GPX's reader must quote again, or none.
        let travelers = ["ana@example.org", "Ana Silva <ana@example.org>", #""Silva, Ana" <ana@example.org>"#]
        let traveler =
            Bool.random(using: &random) ? travelers.randomElement(using: &random).flatMap(EmailAddress.init) : nil
        let travel = TravelMode.allCases.randomElement(using: &random) ?? .walk
        var rates: ExchangeRates?
        if Bool.random(using: &random), let currency = CurrencyCode("EUR") {
            var table: [CurrencyCode: Decimal] = [:]
            for code in ["JPY", "KWD", "USD"].compactMap(CurrencyCode.init) where Bool.random(using: &random) {
                table[code] = Decimal(string: "0.\(Int.random(in: 1...99_999, using: &random))")
            }
            rates = ExchangeRates(currency: currency, rates: table)
        }
        return Trip(
            title: name(using: &random), traveler: traveler, destinations: destinations, travel: travel, rates: rates,
            budget: Bool.random(using: &random) ? money(using: &random) : nil,
            dayHours: Bool.random(using: &random) ? dayHours(using: &random) : nil)
    }

    static func dayHours(using random: inout SplitMix) -> DayHours? {
        DayHours(minutes: 3 * Int.random(in: 1...480, using: &random))
    }

    static func money(using random: inout SplitMix) -> Money {
        let currency = ["EUR", "JPY", "KWD", "USD"].randomElement(using: &random) ?? "EUR"
        let amount = "\(Int.random(in: 0...5000, using: &random)).\(Int.random(in: 0...99, using: &random))"
        guard let parsed = try? Money.parseAmount(amount), let code = CurrencyCode(currency) else {
            fatalError("the generator made an invalid value")
        }
        return Money(amount: parsed.amount, currency: code, scale: parsed.scale)
    }

    static func name(using random: inout SplitMix) -> String {
        (try? TextRules.singleLine(text(using: &random))) ?? "x"
    }

    static func destination(using random: inout SplitMix) -> Destination {
        let arrival = CalendarDay(daysSinceEpoch: Int.random(in: 19_000...21_000, using: &random)) ?? .unixEpoch
        let departure = arrival.adding(days: Int.random(in: 1...9, using: &random)) ?? arrival
        let detours = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            Detour(tasks: (0..<Int.random(in: 0...2, using: &random)).map { _ in task(using: &random) })
        }
        return Destination(
            name: name(using: &random), location: point(using: &random), arrival: arrival, departure: departure,
            detours: detours, budget: Bool.random(using: &random) ? money(using: &random) : nil,
            dayHours: Bool.random(using: &random) ? dayHours(using: &random) : nil)
    }

    static func task(using random: inout SplitMix) -> DetourTask {
        guard let duration = TaskDuration(minutes: Int.random(in: 1...3000, using: &random)) else {
            fatalError("the generator made an invalid value")
        }
        let money = money(using: &random)
        return DetourTask(
            name: name(using: &random),
            duration: duration,
            cost: money,
            location: Bool.random(using: &random) ? point(using: &random) : nil,
            pros: (0..<Int.random(in: 0...2, using: &random)).map { _ in reason(using: &random) },
            cons: (0..<Int.random(in: 0...2, using: &random)).map { _ in reason(using: &random) },
            travel: Bool.random(using: &random) ? TravelMode.allCases.randomElement(using: &random) : nil,
            path: Bool.random(using: &random)
                ? RoutePath(points: (0..<Int.random(in: 2...6, using: &random)).map { _ in point(using: &random) })
                : nil)
    }

    static func reason(using random: inout SplitMix) -> String {
        (try? TextRules.multiLine(text(using: &random) + (Bool.random(using: &random) ? "\nsecond line" : ""))) ?? "x"
    }
}

/// Trip JSON written from a trip reads back to the same trip: every sample, and generated trips.
@Suite struct TripJSONWriterTests {
    @Test(arguments: Fixtures.sampleTrips())
    func eachSampleSurvivesJSONAndBack(_ name: String) throws {
        let trip = try #require(TripLoader.load(try Fixtures.sample(name), format: .json).trip)
        let text = TripJSONWriter.write(trip)
        let back = TripLoader.load(Array(text.utf8), format: .json)
        #expect(back.trip == trip, "\(back.diagnostics.map(\.message))")
    }

    @Test func everyGeneratedTripSurvivesJSONAndBack() throws {
        var random = SplitMix(seed: 2027)
        for round in 0..<150 {
            let trip = TripGenerator.trip(using: &random)
            let back = TripLoader.load(Array(TripJSONWriter.write(trip).utf8), format: .json)
            #expect(back.trip == trip, "round \(round): \(back.diagnostics.map(\.message))")
        }
    }
}
