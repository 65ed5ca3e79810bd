import Foundation

/// The 0/1 knapsack a budget poses: which detours to take on their faster, dearer side so that
/// the time saved is greatest while the extra cost stays within what the budget has left.
///
/// Each item is one detour: its `weight` is the extra cost of the faster side (exact, in the
/// budget's currency), its `value` the minutes that side saves. Weights stay `Decimal`, so no
/// rounding ever decides a choice.
///
/// The method is exact, never greedy. Depth-first branch and bound, items in order of minutes
/// saved per unit of cost, pruned by the bound of the LP relaxation (Dantzig's: fill by ratio,
/// then a fraction of the next item). It is proven optimal when the search completes within
/// ``nodeLimit`` nodes. If it does not and there are at most ``exactLimit`` items, a
/// meet-in-the-middle search (Horowitz and Sahni: every subset of each half, the halves joined by
/// binary search) finds the optimum in at most 2 × 2²⁰ subsets. Past that, the best solution found
/// is returned with the LP bound as a proven upper bound on the minutes saved.
///
/// Hand-written: no package on this platform's registry solves integer programs in Swift, and the
/// problem is small enough that a textbook method is short.
public enum Knapsack {
    /// One detour's choice: the faster side's extra cost and the minutes it saves.
    public struct Item: Sendable, Hashable {
        /// Extra cost of the faster side, zero or more.
        public var weight: Decimal
        /// Minutes the faster side saves, more than zero.
        public var value: Int

        /// Creates an item.
        public init(weight: Decimal, value: Int) {
            self.weight = weight
            self.value = value
        }
    }

    /// Which items to take, and how sure that is the best.
    public struct Solution: Sendable, Hashable {
        /// Whether each item (in the order given) is taken.
        public var taken: [Bool]
        /// The minutes saved.
        public var value: Int
        /// The extra cost spent.
        public var weight: Decimal
        /// Whether no choice within the capacity saves more (proven).
        public var optimal: Bool
        /// A proven upper bound on the minutes any choice within the capacity saves; `value` when
        /// optimal.
        public var bound: Int
        /// Which search found it.
        public var method: Method
    }

    /// The searches ``solve(_:capacity:nodeLimit:)`` runs, in the order it tries them.
    public enum Method: Sendable, Hashable {
        /// Filling by ratio reached the LP bound, so nothing could beat it (proven).
        case greedy
        /// Branch and bound finished within the node limit (proven).
        case branchAndBound
        /// Branch and bound ran past the node limit on few enough items; every subset of each
        /// half was searched instead (proven).
        case meetInTheMiddle
        /// Branch and bound ran past the node limit on too many items: the best it found, with
        /// the LP bound (not proven).
        case bestFound
    }

    /// Nodes the branch and bound may visit before it stops.
    public static let nodeLimit = 2_000_000
    /// The most items the meet-in-the-middle search takes on (2 × 2²⁰ subsets).
    public static let exactLimit = 40

    /// The best items to take within `capacity`.
    public static func solve(_ items: [Item], capacity: Decimal, nodeLimit: Int = nodeLimit) -> Solution {
        var taken = Array(repeating: false, count: items.count)
        // Free savings are always taken; items that cannot fit, or save nothing, never are.
        var freeValue = 0
        var candidates: [Int] = []
        for (index, item) in items.enumerated() where item.value > 0 && item.weight <= capacity {
            if item.weight <= 0 {
                taken[index] = true
                freeValue += item.value
            } else {
                candidates.append(index)
            }
        }
        // Best ratio first: value_a / weight_a > value_b / weight_b, compared without dividing.
        candidates.sort { a, b in
            let left = Decimal(items[a].value) * items[b].weight
            let right = Decimal(items[b].value) * items[a].weight
            return left != right ? left > right : a < b
        }
        let sorted = candidates.map { items[$0] }
        // Whole numbers are much faster than Decimal; use them when every weight scales exactly.
        let found: (chosen: [Bool], method: Method, bound: Int)
        if let scaled = Scaled(sorted.map(\.weight), capacity: capacity) {
            found = search(
                zip(scaled.weights, sorted).map { WeightedItem(weight: $0, value: $1.value) }, scaled.capacity,
                nodeLimit)
        } else {
            found = search(sorted.map { WeightedItem(weight: $0.weight, value: $0.value) }, capacity, nodeLimit)
        }
        let chosen = found.chosen
        let optimal = found.method != .bestFound
        var bound = found.bound
        var value = freeValue
        var weight = Decimal(0)
        for (position, index) in candidates.enumerated() where chosen[position] {
            taken[index] = true
            value += items[index].value
            weight += items[index].weight
        }
        if optimal { bound = value - freeValue }
        return Solution(
            taken: taken, value: value, weight: weight, optimal: optimal, bound: bound + freeValue, method: found.method
        )
    }
}

extension Knapsack {
    /// Branch and bound, then meet-in-the-middle when that ran long on few enough items.
    fileprivate static func search<Weight: KnapsackWeight>(
        _ items: [WeightedItem<Weight>], _ capacity: Weight, _ nodeLimit: Int
    ) -> (chosen: [Bool], method: Method, bound: Int) {
        var search = BranchAndBound(items: items, capacity: capacity, nodeLimit: nodeLimit)
        search.run()
        if search.greedyIsOptimal { return (search.best, .greedy, search.rootBound) }
        if search.complete { return (search.best, .branchAndBound, search.rootBound) }
        if items.count <= exactLimit {
            return (MeetInTheMiddle.solve(items, capacity: capacity), .meetInTheMiddle, search.rootBound)
        }
        return (search.best, .bestFound, search.rootBound)
    }
}

/// What the searches need of a weight: exact sums and comparisons, and the LP bound's fraction.
private protocol KnapsackWeight: Comparable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    /// ⌊value × self ÷ weight⌋, for `self` less than `weight`.
    func fraction(of value: Int, over weight: Self) -> Int
}

extension Decimal: KnapsackWeight {
    fileprivate static var zero: Decimal { 0 }

    fileprivate func fraction(of value: Int, over weight: Decimal) -> Int {
        var fraction = Decimal(value) * self / weight
        var whole = Decimal()
        NSDecimalRound(&whole, &fraction, 0, .down)
        return NSDecimalNumber(decimal: whole).intValue
    }
}

extension Int64: KnapsackWeight {
    fileprivate func fraction(of value: Int, over weight: Int64) -> Int {
        // value × self can pass 2⁶³; the quotient, below value, cannot.
        let product = Int64(value).multipliedFullWidth(by: self)
        return Int(weight.dividingFullWidth(product).quotient)
    }
}

/// Weights and a capacity as whole numbers of their smallest decimal unit, when that is exact
/// and every sum stays far from overflowing.
private struct Scaled {
    let weights: [Int64]
    let capacity: Int64

    init?(_ weights: [Decimal], capacity: Decimal) {
        let places = weights.reduce(max(0, -capacity.exponent)) { max($0, -$1.exponent) }
        guard places <= 18 else { return nil }
        var factor = Decimal(1)
        for _ in 0..<places { factor *= 10 }
        func whole(_ value: Decimal) -> Int64? {
            let scaled = value * factor
            guard scaled < Decimal(Int64.max / 4) else { return nil }
            let integer = NSDecimalNumber(decimal: scaled).int64Value
            return Decimal(integer) == scaled ? integer : nil
        }
        var total = Decimal(0)
        var scaled: [Int64] = []
        for weight in weights {
            guard let value = whole(weight) else { return nil }
            total += weight * factor
            scaled.append(value)
        }
        guard total < Decimal(Int64.max / 4), let capacity = whole(capacity) else { return nil }
        self.weights = scaled
        self.capacity = capacity
    }
}

/// An item with its weight in the type the search runs on.
private struct WeightedItem<Weight: KnapsackWeight> {
    var weight: Weight
    var value: Int
}

/// Depth-first branch and bound over items sorted by ratio.
private struct BranchAndBound<Weight: KnapsackWeight> {
    let items: [WeightedItem<Weight>]
    let capacity: Weight
    let nodeLimit: Int
    var best: [Bool]
    var bestValue = 0
    var nodes = 0
    var complete = true
    var greedyIsOptimal = false
    var rootBound = 0
    private var current: [Bool]

    init(items: [WeightedItem<Weight>], capacity: Weight, nodeLimit: Int) {
        self.items = items
        self.capacity = capacity
        self.nodeLimit = nodeLimit
        best = Array(repeating: false, count: items.count)
        current = best
    }

    /// The LP relaxation's bound from item `start` on with `room` left: whole items by ratio,
    /// then the fitting fraction of the first that does not fit, rounded down (values are whole).
    func bound(from start: Int, room: Weight) -> Int {
        var room = room
        var value = 0
        var index = start
        while index < items.count, items[index].weight <= room {
            room = room - items[index].weight
            value += items[index].value
            index += 1
        }
        guard index < items.count, Weight.zero < room else { return value }
        return value + room.fraction(of: items[index].value, over: items[index].weight)
    }

    mutating func run() {
        rootBound = bound(from: 0, room: capacity)
        // The greedy fill is a first solution to beat.
        var room = capacity
        for (index, item) in items.enumerated() where item.weight <= room {
            room = room - item.weight
            best[index] = true
            bestValue += item.value
        }
        guard bestValue < rootBound else {
            greedyIsOptimal = true
            return
        }
        search(0, room: capacity, value: 0)
    }

    private mutating func search(_ index: Int, room: Weight, value: Int) {
        nodes += 1
        if nodes > nodeLimit {
            complete = false
            return
        }
        if value > bestValue {
            bestValue = value
            best = current
            for later in index..<items.count { best[later] = false }
        }
        guard index < items.count, bound(from: index, room: room) + value > bestValue else { return }
        if items[index].weight <= room {
            current[index] = true
            search(index + 1, room: room - items[index].weight, value: value + items[index].value)
            current[index] = false
            if !complete { return }
        }
        search(index + 1, room: room, value: value)
    }
}

/// Every subset of each half, joined by binary search: exact in 2 × 2^(n/2) subsets.
private enum MeetInTheMiddle {
    struct Subset<Weight: KnapsackWeight> {
        var weight: Weight
        var value: Int
        var mask: UInt64
    }

    static func subsets<Weight>(_ items: ArraySlice<WeightedItem<Weight>>, capacity: Weight) -> [Subset<Weight>] {
        var all = [Subset<Weight>(weight: .zero, value: 0, mask: 0)]
        for (bit, item) in items.enumerated() {
            let count = all.count
            for index in 0..<count {
                let weight = all[index].weight + item.weight
                if weight <= capacity {
                    all.append(
                        Subset(
                            weight: weight, value: all[index].value + item.value,
                            mask: all[index].mask | 1 << UInt64(bit)))
                }
            }
        }
        return all
    }

    static func solve<Weight>(_ items: [WeightedItem<Weight>], capacity: Weight) -> [Bool] {
        let half = items.count / 2
        let left = subsets(items[..<half], capacity: capacity)
        var right = subsets(items[half...], capacity: capacity).sorted { $0.weight < $1.weight }
        // Keep, for each weight, the best value at that weight or less.
        for index in right.indices.dropFirst() where right[index].value < right[index - 1].value {
            right[index].value = right[index - 1].value
            right[index].mask = right[index - 1].mask
        }
        var best = (value: -1, left: UInt64(0), right: UInt64(0))
        for subset in left {
            let room = capacity - subset.weight
            // The last right subset whose weight fits in `room`.
            var low = 0
            var high = right.count
            while low < high {
                let middle = (low + high) / 2
                if right[middle].weight <= room { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { continue }
            let partner = right[low - 1]
            if subset.value + partner.value > best.value {
                best = (subset.value + partner.value, subset.mask, partner.mask)
            }
        }
        return items.indices.map { index in
            index < half ? best.left & (1 << UInt64(index)) != 0 : best.right & (1 << UInt64(index - half)) != 0
        }
    }
}
