import DetourCore
import Testing

@Suite struct ComparisonTests {
    let home = Build.point(38.7223, -9.1393)

    func compare(_ left: DetourTask, _ right: DetourTask) -> BetterSides {
        let destination = Destination(
            name: "Lisbon", location: home, arrival: Build.day("2026-12-01"), departure: Build.day("2026-12-05"),
            detours: [Detour(tasks: [left, right])])
        return Planner.plan(destination).detours[0].better
    }

    @Test func lowerIsBetterOnEachFigure() {
        let near = Build.task("Tram", minutes: 90, cost: Build.money("3.10"), at: Build.point(38.7139, -9.1334))
        let far = Build.task("Walk", minutes: 120, cost: Build.money("0"), at: Build.point(38.6918, -9.2160))
        #expect(compare(near, far) == BetterSides(duration: 0, cost: 1, distance: 0))
        #expect(compare(far, near) == BetterSides(duration: 1, cost: 0, distance: 1))
    }

    @Test func aTieHasNoBetterSide() {
        let a = Build.task("A", minutes: 60, cost: Build.money("5.00"), at: home)
        let b = Build.task("B", minutes: 60, cost: Build.money("5"), at: home)
        #expect(compare(a, b) == BetterSides())
    }

    @Test func twoCurrenciesHaveNoCheaperSide() {
        let a = Build.task("A", cost: Build.money("1", "EUR"))
        let b = Build.task("B", cost: Build.money("100", "JPY"))
        #expect(compare(a, b).cost == nil)
    }

    @Test func aMissingLocationHasNoNearerSide() {
        let a = Build.task("A", at: home)
        let b = Build.task("B", at: nil)
        #expect(compare(a, b).distance == nil)
    }

    @Test func aDraftHasNoBetterSide() {
        let destination = Destination(
            name: "X", location: home, arrival: Build.day("2026-12-01"), departure: Build.day("2026-12-02"),
            detours: [Detour(tasks: [Build.task("Only")])])
        let detour = Planner.plan(destination).detours[0]
        #expect(detour.better == BetterSides())
        #expect(detour.isDraft)
        #expect(detour.title == "Only or undecided")
    }

    @Test func titleIsMadeOfTheTaskNames() {
        #expect(Detour(tasks: [Build.task("Wheeze"), Build.task("Cheese")]).title == "Wheeze or Cheese")
    }
}
