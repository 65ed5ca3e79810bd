import DetourCore
import Testing

@Suite struct ComparisonTests {
    let home = Build.point(38.7223, -9.1393)

    /// The one detour of a stay in Lisbon made of `tasks`, planned.
    func planned(
        _ tasks: [DetourTask], _ options: Planner.Options = Planner.Options(), tripTravel: TravelMode = .walk
    ) throws -> PlannedDetour {
        let destination = Destination(
            name: "Lisbon", location: home, arrival: Build.day("2026-12-01"), departure: Build.day("2026-12-05"),
            detours: [Detour(tasks: tasks)])
        let detours = Planner.plan(destination, tripTravel: tripTravel, options: options).detours
        try #require(detours.count == 1)
        try #require(detours[0].tasks.count == tasks.count)
        return detours[0]
    }

    func compare(_ left: DetourTask, _ right: DetourTask) throws -> BetterSides {
        try planned([left, right]).better
    }

    @Test func lowerIsBetterOnEachFigure() throws {
        let near = Build.task("Tram", minutes: 90, cost: Build.money("3.10"), at: Build.point(38.7139, -9.1334))
        let far = Build.task("Walk", minutes: 120, cost: Build.money("0"), at: Build.point(38.6918, -9.2160))
        #expect(try compare(near, far) == BetterSides(duration: 0, cost: 1, distance: 0, totalTime: 0))
        #expect(try compare(far, near) == BetterSides(duration: 1, cost: 0, distance: 1, totalTime: 1))
    }

    @Test func aTieHasNoBetterSide() throws {
        let a = Build.task("A", minutes: 60, cost: Build.money("5.00"), at: home)
        let b = Build.task("B", minutes: 60, cost: Build.money("5"), at: home)
        #expect(try compare(a, b) == BetterSides())
    }

    @Test func twoCurrenciesHaveNoCheaperSide() throws {
        let a = Build.task("A", cost: Build.money("1", "EUR"))
        let b = Build.task("B", cost: Build.money("100", "JPY"))
        #expect(try compare(a, b).cost == nil)
    }

    @Test func aMissingLocationHasNoNearerSide() throws {
        let a = Build.task("A", at: home)
        let b = Build.task("B", at: nil)
        #expect(try compare(a, b).distance == nil)
    }

    @Test func aDraftHasNoBetterSide() throws {
        let detour = try planned([Build.task("Only")])
        #expect(detour.better == BetterSides())
        #expect(detour.isDraft)
        #expect(detour.title == "Only or undecided")
    }

    func recommend(_ left: DetourTask, _ right: DetourTask, _ preference: Preference = .time) throws -> Recommendation {
        try planned([left, right], Planner.Options(preference: preference)).recommendation
    }

    @Test func theAmazingRaceRulePicksTheLeastTotalTime() throws {
        // Near: 1064 m × 1.3 detour factor, there and back on foot at 5 km/h = 34 min, 94 in all.
        // Far: 7482 m the same way = 234 min, 264 in all (worked out independently).
        let near = Build.task("Near", minutes: 60, cost: Build.money("10"), at: Build.point(38.7139, -9.1334))
        let far = Build.task("Far", minutes: 30, cost: Build.money("0"), at: Build.point(38.6918, -9.2160))
        let pick = try recommend(near, far)
        #expect(pick.side == 0)
        #expect(pick.reason == .lessTotalTime(minutes: 170))
        #expect(try recommend(near, far, .cost).side == 1)
        #expect(try recommend(near, far, .distance).side == 0)
    }

    @Test func aTimeTieGoesToTheCheaperSideWhenTheCurrenciesMatch() throws {
        let a = Build.task("A", minutes: 60, cost: Build.money("3.10"), at: home)
        let b = Build.task("B", minutes: 60, cost: Build.money("2"), at: home)
        #expect(
            try recommend(a, b)
                == Recommendation(side: 1, preference: .time, reason: .tieThenCheaper(Build.money("1.10"))))
        let yen = Build.task("B", minutes: 60, cost: Build.money("2", "JPY"), at: home)
        #expect(try recommend(a, yen) == Recommendation(side: nil, preference: .time, reason: .differentCurrencies))
    }

    @Test func anUnknownTravelTimeOrADraftRecommendsNothing() throws {
        let located = Build.task("A", at: home)
        let nowhere = Build.task("B", at: nil)
        #expect(try recommend(located, nowhere).reason == .unknownFigure)
        #expect(try planned([located]).recommendation.side == nil)
    }

    @Test func aPathReplacesTheStraightLineEstimate() throws {
        var task = Build.task("Tram", minutes: 60, at: Build.point(38.7139, -9.1334))
        let straight = try planned([task]).tasks[0]
        #expect(straight.routeMeters == nil)
        #expect(straight.travelMinutes == Travel.roundTripMinutes(oneWayMetres: 1064.339 * 1.3, mode: .walk))
        task.path = RoutePath(points: [home, Build.point(38.7200, -9.1300), Build.point(38.7139, -9.1334)])
        let routed = try planned([task]).tasks[0]
        let route = routed.routeMeters
        #expect(route.map { $0 > 1064 } == true)
        #expect(routed.travelMinutes == route.map { Travel.roundTripMinutes(oneWayMetres: $0, mode: .walk) })
        #expect(routed.totalMinutes == routed.travelMinutes.map { $0 + 60 })
    }

    @Test func theCommandLinesTravelModeOverridesTheTripsAndTheTasks() throws {
        var task = Build.task("A", minutes: 60, at: Build.point(38.7139, -9.1334))
        task.travel = .cycle
        #expect(try planned([task], tripTravel: .walk).tasks[0].travelMode == .cycle)
        #expect(try planned([task], Planner.Options(travel: .drive)).tasks[0].travelMode == .drive)
        task.travel = nil
        #expect(try planned([task], tripTravel: .transit).tasks[0].travelMode == .transit)
    }

    @Test func roundTripsRoundUpToWholeMinutes() {
        #expect(Travel.roundTripMinutes(oneWayMetres: 0, mode: .walk) == 0)
        #expect(Travel.roundTripMinutes(oneWayMetres: 2500, mode: .walk) == 60)
        #expect(Travel.roundTripMinutes(oneWayMetres: 2501, mode: .walk) == 61)
        #expect(Travel.roundTripMinutes(oneWayMetres: 15_000, mode: .drive) == 60)
    }

    @Test func titleIsMadeOfTheTaskNames() {
        #expect(Detour(tasks: [Build.task("Wheeze"), Build.task("Cheese")]).title == "Wheeze or Cheese")
    }
}
