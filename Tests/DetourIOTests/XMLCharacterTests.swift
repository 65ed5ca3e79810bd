import DetourCore
import DetourIO
import DetourTestSupport
import Testing

/// Every valid trip can be written as GPX and read back: a text the validator accepts holds only
/// characters XML can hold, whatever field it is in.
@Suite struct XMLCharacterTests {
    static let here = SourcePosition.unknown
    static func text(_ value: String) -> Field<String> { .present(value, here) }

    static func task(_ name: String, pros: [String] = []) -> TaskDraft {
        TaskDraft(
            position: here, name: text(name), duration: text("1h"),
            cost: .present(MoneyDraft(amount: text("0"), currency: text("EUR")), here),
            coordinate: .present(CoordinateDraft(latitude: text("1"), longitude: text("1")), here),
            pros: pros.map(text), cons: [])
    }

    static func trip(title: String, traveler: String, stay name: String, tasks: [TaskDraft]) -> TripDraft {
        let stay = DestinationDraft(
            position: here, name: text(name),
            coordinate: .present(CoordinateDraft(latitude: text("1"), longitude: text("1")), here),
            arrival: text("2026-12-01"), departure: text("2026-12-05"),
            detours: [DetourDraft(position: here, tasks: tasks)])
        return TripDraft(
            position: here, title: text(title), traveler: text(traveler), destinations: .present([stay], here))
    }

    /// Characters at the edges of what XML 1.0 allows, and ordinary ones around them.
    static let pieces: [String] = [
        "a", " ", "é", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{D7FF}", "\u{E000}", "\u{FFFD}",
        scalar(0xFFFE), scalar(0xFFFF), "\u{10000}", scalar(0x10FFFF), scalar(0xFDD0), "<", "&", "]]>",
    ]

    /// The law: over random titles, names and traveller addresses, the validator either refuses
    /// the trip with a character code, or its GPX reads back to the same trip.
    @Test func aValidTripsTextAlwaysSurvivesGPX() throws {
        var random = SplitMix(seed: 0xFFFE)
        var refused = 0
        for _ in 0..<400 {
            let text =
                "T"
                + (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
                }.joined()
            let draft = Self.trip(
                title: text, traveler: "a@b.c" + text, stay: text, tasks: [Self.task(text), Self.task("B")])
            let outcome = TripValidator.validate(draft)
            guard let trip = outcome.trip else {
                let codes = Set(outcome.diagnostics.map(\.code))
                #expect(
                    codes.isSubset(of: [.controlCharacter, .noncharacter]),
                    "\(text.unicodeScalars.map(\.value)): \(codes)")
                refused += 1
                continue
            }
            let gpx = try TripGPXWriter.write(trip)
            let back = TripLoader.load(Array(gpx.utf8), format: .gpx)
            #expect(back.trip == trip, "\(text.unicodeScalars.map(\.value)): \(back.diagnostics.map(\.message))")
        }
        #expect(refused > 0 && refused < 400)
    }

    /// U+FFFE or U+FFFF as a string (Swift's literals refuse to spell them).
    static func scalar(_ value: UInt32) -> String {
        Unicode.Scalar(value).map { String($0) } ?? ""
    }

    @Test(arguments: [scalar(0xFFFE), scalar(0xFFFF)])
    func theTwoNoncharactersAreRefusedInEveryText(_ character: String) {
        let draft = Self.trip(
            title: "T" + character, traveler: "a@b.c" + character, stay: "S" + character,
            tasks: [Self.task("A", pros: ["p" + character]), Self.task("B")])
        let found = TripValidator.validate(draft).diagnostics.map { "\($0.path ?? ""): \($0.code.rawValue)" }
        #expect(
            found == [
                "title: noncharacter", "traveler: noncharacter", "destinations[0].name: noncharacter",
                "destinations[0].detours[0].tasks[0].pros[0]: noncharacter",
            ])
    }

    /// The traveller's address was never checked for control characters.
    @Test func aControlCharacterInTheTravellersAddressIsRefused() {
        let draft = Self.trip(title: "T", traveler: "a\u{1B}@b.c", stay: "S", tasks: [Self.task("A"), Self.task("B")])
        #expect(TripValidator.validate(draft).diagnostics.map(\.code) == [.controlCharacter])
    }
}
