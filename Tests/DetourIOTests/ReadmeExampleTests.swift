import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// The trip examples in the README are real trips: they read without an error.
@Suite struct ReadmeExampleTests {
    static func block(_ language: String) throws -> String {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let opening = "```\(language)\n"
        guard let start = readme.range(of: opening),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { throw CocoaError(.fileReadCorruptFile) }
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test func theJSONExampleIsAValidTrip() throws {
        let outcome = TripLoader.load(Array(try Self.block("json").utf8), format: .json)
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        #expect(outcome.trip?.destinations.first?.detours.first?.title == "Ride Tram 28 or Walk the Alfama")
    }

    @Test func theGPXExampleIsAValidTripWithTheSameDetour() throws {
        let outcome = TripLoader.load(Array(try Self.block("xml").utf8), format: .gpx)
        #expect(outcome.diagnostics.errors.isEmpty, "\(outcome.diagnostics)")
        let detours = outcome.trip?.destinations.first?.detours.map(\.title)
        #expect(detours == ["Ride Tram 28 or Walk the Alfama", "Fado night or undecided"])
    }
}
