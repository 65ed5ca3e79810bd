// detour-bench: times detour-report's own computations for the benchmark scripts in bench/.
//
//   detour-bench geodesic PAIRS.csv ROUNDS   (lines of "lat1,lon1,lat2,lon2")
//
// prints the number of inverse problems solved per second (median of ROUNDS) and a checksum.
//
//   detour-bench budget DETOURS ROUNDS
//
// plans one stay of DETOURS detours, every faster side dearer, under a budget of half what all the
// faster sides would cost extra (a hard knapsack: minutes saved per euro all within a few per cent
// of each other), and the same stay without a budget as the baseline; prints the median seconds of
// each, whether the budget's choice is proven optimal, and its minutes against the proven bound.
//
//   detour-bench gazetteer ROUNDS
//
// reads and indexes GeoNames' places, names seeded points and searches seeded prefixes, against
// measuring and folding every place (see GazetteerBench.swift).
import DetourCore
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("detour-bench: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "gazetteer", let rounds = Int(arguments[2]) {
    benchGazetteer(rounds: max(1, rounds))
    exit(0)
}
if arguments.count == 4, arguments[1] == "budget", let count = Int(arguments[2]), let rounds = Int(arguments[3]) {
    benchBudget(detours: count, rounds: max(1, rounds))
    exit(0)
}
guard arguments.count == 4, arguments[1] == "geodesic", let rounds = Int(arguments[3]), rounds > 0 else {
    fail(
        "usage: detour-bench geodesic PAIRS.csv ROUNDS | detour-bench budget DETOURS ROUNDS"
            + " | detour-bench gazetteer ROUNDS")
}
guard let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else { fail("cannot read \(arguments[2])") }
let pairs: [(Double, Double, Double, Double)] = text.split(separator: "\n").compactMap { line in
    let fields = line.split(separator: ",").compactMap { Double($0) }
    return fields.count == 4 ? (fields[0], fields[1], fields[2], fields[3]) : nil
}
guard !pairs.isEmpty else { fail("no pairs in \(arguments[2])") }

let geodesic = Geodesic.wgs84
var rates: [Double] = []
var checksum = 0.0
for _ in 0..<rounds {
    let clock = ContinuousClock()
    var sum = 0.0
    let elapsed = clock.measure {
        for (lat1, lon1, lat2, lon2) in pairs { sum += geodesic.inverse(lat1, lon1, lat2, lon2) }
    }
    checksum = sum
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    rates.append(Double(pairs.count) / seconds)
}
rates.sort()
print("\(Int(rates[rates.count / 2])) \(checksum)")

func benchBudget(detours count: Int, rounds: Int) {
    guard let eur = CurrencyCode("EUR"), let here = Coordinate(latitude: 0, longitude: 0),
        let arrival = CalendarDay(iso: "2026-12-01"), let departure = CalendarDay(iso: "2026-12-31")
    else { fail("cannot build the trip") }
    // A fixed linear congruential sequence, so every run plans the same trip.
    var state: UInt64 = 2026
    func next(_ range: ClosedRange<Int>) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
    var extra = 0
    let detours = (0..<count).map { index -> Detour in
        let saved = next(1_000...1_100)
        let cost = saved + next(0...50)
        extra += cost
        func side(_ name: String, _ minutes: Int, _ euros: Int) -> DetourTask {
            guard let duration = TaskDuration(minutes: minutes) else { fail("bad duration") }
            return DetourTask(
                name: name, duration: duration, cost: Money(amount: Decimal(euros), currency: eur), location: here,
                pros: [], cons: [])
        }
        return Detour(tasks: [side("fast \(index)", 60, cost), side("slow \(index)", 60 + saved, 0)])
    }
    let stay = Destination(name: "Stay", location: here, arrival: arrival, departure: departure, detours: detours)
    let budget = Money(amount: Decimal(extra / 2), currency: eur)
    let withBudget = Trip(title: "Bench", traveler: nil, destinations: [stay], budget: budget)
    let without = Trip(title: "Bench", traveler: nil, destinations: [stay])
    func median(_ trip: Trip) -> (Double, Plan) {
        var times: [Double] = []
        var last: Plan?
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            var plan: Plan?
            let elapsed = clock.measure { plan = Planner.plan(trip, today: arrival) }
            last = plan
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        guard let last else { fail("no plan") }
        return (times[times.count / 2], last)
    }
    let (baseline, _) = median(without)
    let (seconds, plan) = median(withBudget)
    let outcome = plan.budget
    let bound = outcome?.lowerBoundMinutes.map(String.init) ?? "-"
    print(
        "\(count) \(String(format: "%.4f", baseline)) \(String(format: "%.4f", seconds)) "
            + "\(outcome?.optimal == true ? "optimal" : "bounded") \(plan.totals.minutes) \(bound)")
}
