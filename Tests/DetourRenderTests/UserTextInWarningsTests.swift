import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import Testing

/// A key name is user text too: control characters in it reach no output raw.
@Suite struct UserTextInWarningsTests {
    static let trip = """
        {"title": "T", "destinations": [{"name": "Lisbon", "location": {"lat": 38.7, "lon": -9.1},
          "arrival": "2026-12-01", "departure": "2026-12-05", "\\u001b]0;pwned\\u0007\\u001b[31mred": 1}]}
        """

    @Test func aKeyWithControlCharactersIsQuotedInItsPathAndMessage() throws {
        let outcome = TripLoader.load(Array(Self.trip.utf8), format: .json)
        let warning = try #require(outcome.diagnostics.first)
        #expect(warning.code == .unknownKey)
        #expect(warning.path == #"destinations[0]["\u{1B}]0;pwned\u{7}\u{1B}[31mred"]"#)
        #expect(!DiagnosticText.line(warning, file: "trip.json").unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test(arguments: [ReportFormat.html, .markdown, .json])
    func noReportCarriesTheRawControlCharacters(_ format: ReportFormat) throws {
        let report = try RenderFixture.render(Array(Self.trip.utf8), as: format)
        #expect(report.contains("pwned"))
        #expect(!report.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}
