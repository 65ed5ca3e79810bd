import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// The budget's knapsack, every search forced in turn and held to an independent optimum.
///
/// ``Knapsack/solve(_:capacity:nodeLimit:)`` tries four ways: the ratio fill when it meets the LP
/// bound, branch and bound within the node limit, meet-in-the-middle when that runs long on at
/// most 40 items, and the best found past that. Each is forced here (a node limit of 0 stops
/// branch and bound at once) and checked against brute force, or against dynamic programming
/// where brute force is out of reach.
@Suite struct KnapsackTests {
    /// The best value within `capacity`, by trying every subset.
    static func bruteForce(_ items: [Knapsack.Item], capacity: Decimal) -> Int {
        var best = 0
        for mask in 0..<(1 << items.count) {
            var weight = Decimal(0)
            var value = 0
            for (index, item) in items.enumerated() where mask >> index & 1 == 1 {
                weight += item.weight
                value += item.value
            }
            if weight <= capacity { best = max(best, value) }
        }
        return best
    }

    /// The best value within `capacity` for whole-number weights, by dynamic programming.
    static func dynamicProgramming(_ items: [(weight: Int, value: Int)], capacity: Int) -> Int {
        var best = Array(repeating: 0, count: capacity + 1)
        for item in items where item.weight <= capacity {
            for room in stride(from: capacity, through: item.weight, by: -1) {
                best[room] = max(best[room], best[room - item.weight] + item.value)
            }
        }
        return best[capacity]
    }

    /// What every solution must be, whichever search found it.
    func expectConsistent(_ solution: Knapsack.Solution, _ items: [Knapsack.Item], capacity: Decimal, _ note: String) {
        let taken = items.indices.filter { solution.taken[$0] }
        #expect(solution.taken.count == items.count, "\(note)")
        #expect(solution.value == taken.reduce(0) { $0 + items[$1].value }, "\(note)")
        #expect(solution.weight == taken.reduce(Decimal(0)) { $0 + items[$1].weight }, "\(note)")
        #expect(solution.weight <= capacity, "\(note)")
        #expect(solution.value <= solution.bound, "\(note)")
        #expect(solution.optimal == (solution.method != .bestFound), "\(note)")
        if solution.optimal { #expect(solution.bound == solution.value, "\(note)") }
    }

    static func randomItems(_ count: Int, _ random: inout SplitMix, cents: Bool) -> [Knapsack.Item] {
        (0..<count).map { _ in
            let whole = Int.random(in: 0...30, using: &random)
            let weight = cents ? Decimal(whole) + Decimal(Int.random(in: 0...99, using: &random)) / 100 : Decimal(whole)
            return Knapsack.Item(weight: weight, value: Int.random(in: 0...200, using: &random))
        }
    }

    @Test func everySearchFindsTheBruteForceOptimum() {
        var random = SplitMix(seed: 2026)
        var seen: [Knapsack.Method: Int] = [:]
        for round in 0..<400 {
            let items = Self.randomItems(Int.random(in: 0...13, using: &random), &random, cents: round % 2 == 0)
            let capacity = Decimal(Int.random(in: 0...120, using: &random))
            let optimum = Self.bruteForce(items, capacity: capacity)
            for nodeLimit in [Knapsack.nodeLimit, 0] {
                let solution = Knapsack.solve(items, capacity: capacity, nodeLimit: nodeLimit)
                let note = "round \(round), node limit \(nodeLimit): \(items) within \(capacity)"
                expectConsistent(solution, items, capacity: capacity, note)
                #expect(solution.value == optimum, "\(note)")
                #expect(solution.method != .bestFound, "\(note)")
                if nodeLimit == 0 { #expect(solution.method != .branchAndBound, "\(note)") }
                seen[solution.method, default: 0] += 1
            }
        }
        // Every proven search ran, many times over.
        #expect(seen[.greedy, default: 0] > 50)
        #expect(seen[.branchAndBound, default: 0] > 50)
        #expect(seen[.meetInTheMiddle, default: 0] > 50)
    }

    /// `count` items of whole weights and values of 100 to 200, ratios close together, and half
    /// their total weight as the capacity: hard for branch and bound, easy for dynamic programming.
    static func closeRatios(_ count: Int) -> (whole: [(weight: Int, value: Int)], items: [Knapsack.Item], capacity: Int)
    {
        var random = SplitMix(seed: UInt64(count))
        let whole = (0..<count).map { _ in
            (weight: Int.random(in: 100...200, using: &random), value: Int.random(in: 100...200, using: &random))
        }
        let items = whole.map { Knapsack.Item(weight: Decimal($0.weight), value: $0.value) }
        return (whole, items, whole.reduce(0) { $0 + $1.weight } / 2 + 1)
    }

    /// When branch and bound runs past its node limit (forced here with a limit of 0) on at most
    /// 40 items, the answer is still proven, by meet-in-the-middle, and optimal by dynamic
    /// programming.
    @Test(arguments: [20, 39, 40])
    func upToFortyItemsARunLongSearchIsStillProven(_ count: Int) {
        let (whole, items, capacity) = Self.closeRatios(count)
        let solution = Knapsack.solve(items, capacity: Decimal(capacity), nodeLimit: 0)
        expectConsistent(solution, items, capacity: Decimal(capacity), "\(count) items")
        #expect(solution.method == .meetInTheMiddle)
        #expect(solution.value == Self.dynamicProgramming(whole, capacity: capacity))
    }

    /// Past 40 items a search stopped by its node limit gives the best it found and a bound that
    /// holds.
    @Test(arguments: [41, 60, 200])
    func pastFortyItemsTheBestFoundComesWithAnUpperBoundThatHolds(_ count: Int) {
        let (whole, items, capacity) = Self.closeRatios(count)
        let solution = Knapsack.solve(items, capacity: Decimal(capacity), nodeLimit: 0)
        expectConsistent(solution, items, capacity: Decimal(capacity), "\(count) items")
        #expect(solution.method == .bestFound)
        let optimum = Self.dynamicProgramming(whole, capacity: capacity)
        #expect(solution.value <= optimum)
        #expect(optimum <= solution.bound)
        // Given room, the same search proves its answer.
        let proven = Knapsack.solve(items, capacity: Decimal(capacity))
        #expect(proven.value == optimum || proven.method == .bestFound)
    }

    /// However early the node limit stops the search (after 1, 2, … nodes, inside a branch that
    /// takes an item or one that leaves it), the best found is a choice that fits, no worse than
    /// the ratio fill it started from, under a bound that holds; with room, it finishes.
    @Test func aSearchStoppedAtAnyNodeKeepsAChoiceThatFits() {
        let (whole, items, capacity) = Self.closeRatios(45)
        let optimum = Self.dynamicProgramming(whole, capacity: capacity)
        let greedy = Knapsack.solve(items, capacity: Decimal(capacity), nodeLimit: 0).value
        var values: Set<Int> = []
        for nodeLimit in [1, 2, 3, 5, 10, 20, 45, 46, 47, 100, 1_000, 10_000, 100_000] {
            let solution = Knapsack.solve(items, capacity: Decimal(capacity), nodeLimit: nodeLimit)
            expectConsistent(solution, items, capacity: Decimal(capacity), "node limit \(nodeLimit)")
            #expect(greedy <= solution.value && solution.value <= optimum && optimum <= solution.bound)
            if solution.method == .bestFound {
                values.insert(solution.value)
            } else {
                // Given enough nodes, the search ends and proves its answer.
                #expect(solution.method == .branchAndBound && solution.value == optimum)
            }
        }
        // Some limits stopped the search, and the largest let it finish.
        #expect(!values.isEmpty)
    }

    /// Weights that do not scale to 64-bit whole numbers (more than 18 decimals, or too large)
    /// are searched as Decimals, with the same answers.
    @Test(arguments: [
        Decimal(sign: .plus, exponent: -19, significand: 1), Decimal(sign: .plus, exponent: -20, significand: 3),
        Decimal(sign: .plus, exponent: 17, significand: 1),
    ])
    func weightsBeyondSixtyFourBitsAreSearchedExactly(_ unit: Decimal) {
        var random = SplitMix(seed: 19)
        for round in 0..<60 {
            let count = Int.random(in: 1...12, using: &random)
            let items = (0..<count).map { _ in
                Knapsack.Item(
                    weight: unit * Decimal(Int.random(in: 1...30, using: &random)),
                    value: Int.random(in: 1...200, using: &random))
            }
            let capacity = unit * Decimal(Int.random(in: 0...120, using: &random))
            for nodeLimit in [Knapsack.nodeLimit, 0] {
                let solution = Knapsack.solve(items, capacity: capacity, nodeLimit: nodeLimit)
                expectConsistent(solution, items, capacity: capacity, "round \(round)")
                #expect(
                    solution.value == Self.bruteForce(items, capacity: capacity),
                    "round \(round), \(items) within \(capacity)")
            }
        }
    }

    @Test func aCapacityMetExactlyTakesTheItem() {
        let item = Knapsack.Item(weight: Decimal(string: "12.34") ?? 0, value: 30)
        for nodeLimit in [Knapsack.nodeLimit, 0] {
            #expect(Knapsack.solve([item], capacity: item.weight, nodeLimit: nodeLimit).taken == [true])
            #expect(
                Knapsack.solve([item], capacity: item.weight - Decimal(string: "0.01")!, nodeLimit: nodeLimit).taken
                    == [false])
        }
        // Two items that fill the capacity to the cent beat one better-ratio item that leaves room.
        let items = [
            Knapsack.Item(weight: Decimal(string: "6.01") ?? 0, value: 61),
            Knapsack.Item(weight: Decimal(string: "3.99") ?? 0, value: 40),
            Knapsack.Item(weight: Decimal(string: "5.00") ?? 0, value: 60),
        ]
        for nodeLimit in [Knapsack.nodeLimit, 0] {
            let solution = Knapsack.solve(items, capacity: 10, nodeLimit: nodeLimit)
            #expect(solution.taken == [true, true, false])
            #expect(solution.weight == 10)
            #expect(solution.value == 101)
        }
    }

    @Test func freeSavingsAreAlwaysTakenAndWhatCannotFitNeverIs() {
        let items = [
            Knapsack.Item(weight: 0, value: 5),  // free
            Knapsack.Item(weight: 11, value: 1000),  // never fits
            Knapsack.Item(weight: 1, value: 0),  // saves nothing
            Knapsack.Item(weight: 10, value: 7),
        ]
        for nodeLimit in [Knapsack.nodeLimit, 0] {
            let solution = Knapsack.solve(items, capacity: 10, nodeLimit: nodeLimit)
            #expect(solution.taken == [true, false, false, true])
            #expect(solution.value == 12)
            #expect(solution.bound == 12)
        }
        // With no room at all, only the free one.
        #expect(Knapsack.solve(items, capacity: 0).taken == [true, false, false, false])
    }

    /// Items of equal ratio are tried in the order given, so the same trip always gets the same
    /// sides.
    @Test func equalRatiosKeepTheirOrder() {
        let items = (0..<6).map { _ in Knapsack.Item(weight: 2, value: 10) }
        for nodeLimit in [Knapsack.nodeLimit, 0] {
            let solution = Knapsack.solve(items, capacity: 7, nodeLimit: nodeLimit)
            #expect(solution.value == 30)
            #expect(solution.taken.filter { $0 }.count == 3)
        }
        #expect(Knapsack.solve(items, capacity: 7).taken == [true, true, true, false, false, false])
    }
}
