import DetourCore
import Testing

/// `--prefer cost` and `--prefer distance`: the preferred figure first, then the least total
/// time (never the shorter duration); a tie on both, a missing figure or two currencies pick nothing.
extension ComparisonTests {
    /// About 1064 m from `home`, 34 minutes there and back on foot with the detour factor.
    var near: Coordinate { Build.point(38.7139, -9.1334) }
    /// About 7482 m from `home`, 234 minutes there and back on foot with the detour factor.
    var far: Coordinate { Build.point(38.6918, -9.2160) }

    @Test func preferringCostPicksTheCheaperSideEvenWhenItTakesLonger() throws {
        let dear = Build.task("Dear", minutes: 60, cost: Build.money("10"), at: home)
        let cheap = Build.task("Cheap", minutes: 120, cost: Build.money("5"), at: home)
        #expect(
            try recommend(dear, cheap, .cost)
                == Recommendation(side: 1, preference: .cost, reason: .cheaper(Build.money("5"))))
        #expect(try recommend(cheap, dear, .cost).side == 0)
    }

    @Test func preferringCostBreaksATieOnTheLeastTotalTime() throws {
        let slow = Build.task("Slow", minutes: 90, cost: Build.money("5"), at: home)
        let quick = Build.task("Quick", minutes: 60, cost: Build.money("5.00"), at: home)
        let tieThen30 = Recommendation.Reason.tieThenLessTotalTime(minutes: 30)
        #expect(try recommend(slow, quick, .cost) == Recommendation(side: 1, preference: .cost, reason: tieThen30))
        #expect(try recommend(quick, slow, .cost) == Recommendation(side: 0, preference: .cost, reason: tieThen30))
    }

    @Test func preferringCostBreaksATieOnTotalTimeNotOnDuration() throws {
        // The shorter task is far away: 60 + 234 minutes of walking against 90 at the door.
        let shortButFar = Build.task("Short", minutes: 60, cost: Build.money("5"), at: far)
        let longButHere = Build.task("Long", minutes: 90, cost: Build.money("5"), at: home)
        #expect(
            try recommend(shortButFar, longButHere, .cost)
                == Recommendation(side: 1, preference: .cost, reason: .tieThenLessTotalTime(minutes: 204)))
    }

    @Test func preferringCostWithATieOnCostAndTimePicksNothing() throws {
        let a = Build.task("A", minutes: 60, cost: Build.money("5"), at: home)
        let b = Build.task("B", minutes: 60, cost: Build.money("5"), at: home)
        #expect(try recommend(a, b, .cost) == Recommendation(side: nil, preference: .cost, reason: .tie))
        let nowhere = Build.task("C", minutes: 60, cost: Build.money("5"), at: nil)
        #expect(
            try recommend(a, nowhere, .cost) == Recommendation(side: nil, preference: .cost, reason: .unknownFigure))
    }

    @Test func preferringCostInTwoCurrenciesPicksNothingEvenWhenOneSideIsQuicker() throws {
        let euros = Build.task("A", minutes: 60, cost: Build.money("5", "EUR"), at: home)
        let yen = Build.task("B", minutes: 120, cost: Build.money("5", "JPY"), at: home)
        #expect(
            try recommend(euros, yen, .cost)
                == Recommendation(side: nil, preference: .cost, reason: .differentCurrencies))
    }

    @Test func preferringDistancePicksTheNearerSideEvenWhenItTakesLonger() throws {
        let nearButLong = Build.task("Near", minutes: 600, at: near)
        let farButShort = Build.task("Far", minutes: 30, at: far)
        let pick = try recommend(nearButLong, farButShort, .distance)
        #expect(pick.side == 0)
        guard case .nearer(let metres) = pick.reason else {
            Issue.record("reason \(pick.reason)")
            return
        }
        // (7482 - 1064) m one way, times the detour factor.
        #expect(abs(metres - (7481.7 - 1064.3) * 1.3) < 1)
        #expect(try recommend(farButShort, nearButLong, .distance).side == 1)
    }

    @Test func preferringDistanceBreaksATieOnTheLeastTotalTime() throws {
        let slow = Build.task("Slow", minutes: 90, at: near)
        let quick = Build.task("Quick", minutes: 60, at: near)
        let tieThen30 = Recommendation.Reason.tieThenLessTotalTime(minutes: 30)
        #expect(
            try recommend(slow, quick, .distance) == Recommendation(side: 1, preference: .distance, reason: tieThen30))
        #expect(
            try recommend(quick, slow, .distance) == Recommendation(side: 0, preference: .distance, reason: tieThen30))
    }

    @Test func preferringDistanceBreaksATieOnTotalTimeNotOnDuration() throws {
        // Same place, same duration: driving there beats walking there.
        var walked = Build.task("Walk", minutes: 60, at: far)
        walked.travel = .walk
        var driven = Build.task("Drive", minutes: 60, at: far)
        driven.travel = .drive
        let pick = try recommend(walked, driven, .distance)
        #expect(pick.side == 1)
        // 9726 m each way: 234 minutes walking, 39 driving.
        #expect(pick.reason == .tieThenLessTotalTime(minutes: 195))
    }

    @Test func preferringDistanceWithATieOnDistanceAndTimeOrAnUnknownDistancePicksNothing() throws {
        let a = Build.task("A", minutes: 60, at: near)
        let b = Build.task("B", minutes: 60, at: near)
        #expect(try recommend(a, b, .distance) == Recommendation(side: nil, preference: .distance, reason: .tie))
        let nowhere = Build.task("C", minutes: 60, at: nil)
        #expect(
            try recommend(a, nowhere, .distance)
                == Recommendation(side: nil, preference: .distance, reason: .unknownFigure))
    }

    @Test func preferringDistanceMeasuresAlongThePathWhenATaskHasOne() throws {
        // Winding's straight line (1064 m) is shorter than Direct's (about 2000 m), but its path
        // goes out by `far` first, so it is the longer way to travel and must lose.
        let northOfHome = Build.point(38.7403, -9.1393)
        let straight = Build.task("Winding", minutes: 60, at: near)
        let winding = Build.task("Winding", minutes: 60, at: near, path: [home, far, near])
        let direct = Build.task("Direct", minutes: 60, at: northOfHome)
        #expect(try recommend(straight, direct, .distance).side == 0)

        let pick = try recommend(winding, direct, .distance)
        #expect(pick.side == 1)
        #expect(try compare(winding, direct).distance == 1)
        guard case .nearer(let metres) = pick.reason else {
            Issue.record("reason \(pick.reason)")
            return
        }
        let path = RoutePath(points: [home, far, near]).metres
        #expect(path > 7481)
        #expect(abs(metres - (path - Geodesy.distance(from: home, to: northOfHome) * Travel.detourFactor)) < 0.001)
        #expect(try recommend(direct, winding, .distance).side == 0)
    }
}
