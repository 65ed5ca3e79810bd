import ArgumentParser
import DetourCommandLine
import DetourCore
import Testing

/// A run of many trips exits with its most serious code: a report cut off over one not
/// created, over a PDF not printed, over an unreadable trip, over an invalid one, over success.
@Suite struct ExitCodesTests {
    @Test(
        arguments: [
            ([], ExitCodes.success),
            ([0, 0], ExitCodes.success),
            ([0, 65], ExitCodes.invalidTrip),
            ([66, 65, 0], ExitCodes.noInput),
            ([65, 69, 66], ExitCodes.unavailable),
            ([73, 69], ExitCodes.cannotCreate),
            ([74, 73, 0, 65], ExitCodes.ioError),
            ([73, 74], ExitCodes.ioError),
            ([1, 65], ExitCodes.invalidTrip),
        ] as [([Int32], ExitCode)])
    func theMostSeriousCodeWins(_ codes: [Int32], _ expected: ExitCode) {
        #expect(ExitCodes.mostSerious(codes) == expected)
        #expect(ExitCodes.mostSerious(codes.reversed()) == expected)
    }
}

/// Each way a trip can end has one word and one exit code, the same in every command.
@Suite struct TripStatusTests {
    @Test(
        arguments: [
            (TripStatus.valid, "valid", true, ExitCodes.success),
            (.written, "written", true, ExitCodes.success),
            (.invalid, "invalid", false, ExitCodes.invalidTrip),
            (.unreadable, "unreadable", false, ExitCodes.noInput),
            (.failed, "failed", true, ExitCodes.cannotCreate),
        ] as [(TripStatus, String, Bool, ExitCode)])
    func eachStatusHasOneWordAndOneCode(_ status: TripStatus, _ word: String, _ valid: Bool, _ code: ExitCode) {
        #expect(status.rawValue == word)
        #expect("\(status)" == word)
        #expect(status.isValid == valid)
        #expect(status.exitCode == code)
    }

    /// A run that writes reports counts every end but a bare check's.
    @Test func aRunCountsEveryEndButValid() {
        #expect(TripStatus.afterWriting == [.written, .invalid, .unreadable, .failed])
        #expect(Set(TripStatus.afterWriting + [.valid]) == Set(TripStatus.allCases))
    }
}
