// The benchmark's baseline: Foundation's JSONDecoder decoding a trip file into plain structs,
// and nothing else. detour-report's figures are quoted as multiples of this.
import Foundation

struct Location: Decodable { var lat: Double; var lon: Double }
struct Cost: Decodable { var amount: Decimal; var currency: String }
struct TaskEntry: Decodable {
    var name: String; var duration: String; var cost: Cost; var location: Location?
    var pros: [String]?; var cons: [String]?
}
struct DetourEntry: Decodable { var tasks: [TaskEntry] }
struct DestinationEntry: Decodable {
    var name: String; var location: Location; var arrival: String; var departure: String
    var detours: [DetourEntry]?
}
struct TripFile: Decodable { var title: String; var traveler: String?; var destinations: [DestinationEntry] }

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "big.json"
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let trip = try JSONDecoder().decode(TripFile.self, from: data)
    print(trip.destinations.count)
} catch {
    FileHandle.standardError.write(Data("baseline: \(error)\n".utf8))
    exit(1)
}
