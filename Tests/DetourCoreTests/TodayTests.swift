import DetourCore
import Testing

@Suite struct TodayTests {
    let local = Build.day("2030-05-05")

    @Test func theOptionWinsOverEverything() throws {
        let day = try Today.resolve(option: "2026-11-22", sourceDateEpoch: "0") { local }
        #expect(day.description == "2026-11-22")
    }

    @Test func sourceDateEpochGivesItsUTCDay() throws {
        let day = try Today.resolve(option: nil, sourceDateEpoch: "1795391999") { local }
        #expect(day.description == "2026-11-22")
    }

    @Test func theLocalDayIsTheLastResort() throws {
        #expect(try Today.resolve(option: nil, sourceDateEpoch: nil) { local } == local)
        #expect(try Today.resolve(option: nil, sourceDateEpoch: "") { local } == local)
    }

    @Test func badValuesAreErrorsNotGuesses() {
        #expect(throws: Today.ResolveError.badOption("2026-02-30")) {
            try Today.resolve(option: "2026-02-30", sourceDateEpoch: nil) { local }
        }
        #expect(throws: Today.ResolveError.badSourceDateEpoch("-5")) {
            try Today.resolve(option: nil, sourceDateEpoch: "-5") { local }
        }
        #expect(throws: Today.ResolveError.badSourceDateEpoch("1e9")) {
            try Today.resolve(option: nil, sourceDateEpoch: "1e9") { local }
        }
    }
}
