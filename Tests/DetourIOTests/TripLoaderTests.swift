import DetourCore
import Testing

@testable import DetourIO

@Suite struct TripLoaderTests {
    /// Diagnostics go in file order: those without a line first, then by line, then by column
    /// (none before any); among equals, the order they were found in.
    @Test func diagnosticsAreSortedIntoFileOrder() {
        let found = [
            Diagnostic(.unknownKey, at: SourcePosition(line: 3, column: 2), "5"),
            Diagnostic(.unknownKey, "1"),
            Diagnostic(.unknownKey, at: SourcePosition(line: 3), "4"),
            Diagnostic(.unknownKey, at: SourcePosition(line: 1, column: 9), "3"),
            Diagnostic(.unknownKey, at: SourcePosition(offset: 40), "2"),
            Diagnostic(.unknownKey, at: SourcePosition(line: 3, column: 2), "6"),
        ]
        #expect(TripLoader.sortedByPosition(found).map(\.message) == ["1", "2", "3", "4", "5", "6"])
    }
}
