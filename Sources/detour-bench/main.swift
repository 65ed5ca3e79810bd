// detour-bench: times detour-report's own computations for the benchmark scripts in bench/.
//
//   detour-bench geodesic PAIRS.csv ROUNDS   (lines of "lat1,lon1,lat2,lon2")
//
// prints the number of inverse problems solved per second (median of ROUNDS) and a checksum.
import DetourCore
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("detour-bench: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, arguments[1] == "geodesic", let rounds = Int(arguments[3]), rounds > 0 else {
    fail("usage: detour-bench geodesic PAIRS.csv ROUNDS")
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
