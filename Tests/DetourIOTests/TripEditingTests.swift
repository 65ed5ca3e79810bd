import DetourCore
import DetourTestSupport
import Testing

@testable import DetourIO

/// A change made in the app, from a file's bytes to the changed file's: read by the format's
/// reader, changed in the draft, validated whole, written back by the format's writer.
@Suite struct TripEditingTests {
    static let sintra = TripEdit.addDestination(
        .init(name: "Sintra", arrival: "2026-12-05", departure: "2026-12-07", latitude: "38.8", longitude: "-9.38"))

    /// The change is made, in the same format, and the rest of the trip reads as before.
    @Test(arguments: [TripFormat.json, .gpx]) func aDestinationIsAddedInTheFilesOwnFormat(format: TripFormat) throws {
        let sample = try Fixtures.sample("lisbon-city-break.json")
        let original = try #require(TripLoader.load(sample, format: .json).trip)
        let bytes = format == .json ? sample : Array(try TripGPXWriter.write(original).utf8)
        let (outcome, path) = TripEditing.apply(Self.sintra, to: bytes, format: format)
        #expect(path == "destinations[1]")
        guard case .changed(let trip, let written) = outcome else {
            Issue.record("not changed: \(outcome)")
            return
        }
        let read = try #require(TripLoader.load(written, format: format).trip)
        #expect(read == trip, "the bytes are the trip")
        #expect(read.destinations.count == 2)
        #expect(Array(read.destinations.prefix(1)) == original.destinations, "the rest is as it was")
        #expect(read.title == original.title && read.traveler == original.traveler)
    }

    /// A change that breaks a rule is refused with the validator's own diagnostics, at its path.
    @Test func aChangeThatBreaksARuleIsRefusedAtItsPath() throws {
        let bytes = try Fixtures.sample("lisbon-city-break.json")
        let edit = TripEdit.addDestination(
            .init(name: "", arrival: "2026-12-07", departure: "2026-12-05", latitude: "91", longitude: ""))
        let (outcome, path) = TripEditing.apply(edit, to: bytes, format: .json)
        guard case .refused(let diagnostics) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(
            Set(diagnostics.compactMap(\.path)) == [
                "\(path).name", "\(path).departure", "\(path).location.lat", "\(path).location.lon",
            ])
        #expect(diagnostics.map(\.code).contains(.departureNotAfterArrival))
    }

    /// A file that is no valid trip is not changed, whether its reader or its validator says so.
    @Test(arguments: ["{\"title\": ", "{\"title\": 3, \"destinations\": []}", "{\"destinations\": []}"])
    func aFileThatIsNoValidTripIsNotChanged(text: String) {
        let (outcome, _) = TripEditing.apply(Self.sintra, to: Array(text.utf8), format: .json)
        guard case .unreadable(let diagnostics) = outcome else {
            Issue.record("changed: \(outcome)")
            return
        }
        #expect(diagnostics.containsErrors)
    }

    /// A new trip of one destination, as trip JSON; without a title it is refused at `title`.
    @Test func aNewTripHoldsTheDestination() throws {
        let (outcome, path) = TripEditing.create(Self.sintra, title: "Sintra weekend")
        #expect(path == "destinations[0]")
        guard case .changed(let trip, let bytes) = outcome else {
            Issue.record("not changed: \(outcome)")
            return
        }
        #expect(TripLoader.load(bytes, format: .json).trip == trip)
        #expect(trip.title == "Sintra weekend" && trip.destinations.map(\.name) == ["Sintra"])
        guard case .refused(let diagnostics) = TripEditing.create(Self.sintra, title: "").outcome else {
            Issue.record("a trip without a title was made")
            return
        }
        #expect(diagnostics.map(\.path) == ["title"])
    }
}

/// The trip's own fields read with the wrong type are named by their paths.
@Suite struct TripFieldPathTests {
    @Test func aCurrencyThatIsNoStringIsNamedByItsPath() {
        let outcome = TripLoader.load(
            Array("{\"title\": \"T\", \"currency\": 3, \"destinations\": []}".utf8), format: .json)
        #expect(outcome.diagnostics.map(\.path) == ["currency"])
        #expect(outcome.diagnostics.map(\.code) == [.wrongType])
    }
}
