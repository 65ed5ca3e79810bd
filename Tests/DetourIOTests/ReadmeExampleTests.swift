import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// The trip examples in the README and in docs/trip-format.md are real trips: they read without an error.
@Suite struct ReadmeExampleTests {
    /// The first block of `language` in the repository's file at `path`.
    static func block(_ language: String, in path: String) throws -> String {
        let text = try String(contentsOf: Fixtures.repository.appendingPathComponent(path), encoding: .utf8)
        let opening = "```\(language)\n"
        guard let start = text.range(of: opening),
            let end = text.range(of: "\n```", range: start.upperBound..<text.endIndex)
        else { throw CocoaError(.fileReadCorruptFile) }
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func theJSONExampleIsAValidTrip() throws {
        let outcome = TripLoader.load(Array(try Self.block("json", in: "README.md").utf8), format: .json)
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        #expect(outcome.trip?.destinations.first?.detours.first?.title == "Ride Tram 28 or Walk the Alfama")
    }

    @Test func theGPXExampleIsAValidTripWithTheSameDetour() throws {
        let outcome = TripLoader.load(Array(try Self.block("xml", in: "docs/trip-format.md").utf8), format: .gpx)
        #expect(outcome.diagnostics.errors.isEmpty, "\(outcome.diagnostics)")
        let detours = outcome.trip?.destinations.first?.detours.map(\.title)
        #expect(detours == ["Ride Tram 28 or Walk the Alfama", "Fado night or undecided"])
    }
}
