import DetourCore
import DetourTestSupport
import Testing

@testable import DetourIO

/// A JSON trip is validated as it is read, one destination at a time; that gives exactly what
/// reading the whole draft and then validating it gives: the same diagnostics, in the same order,
/// and the same trip.
@Suite struct JSONValidatedAsReadTests {
    /// A description of how `text` loaded as it is read differs from read whole then validated, or `nil`.
    static func difference(_ text: [UInt8], limits: ReadLimits = .standard) -> String? {
        let streamed = TripLoader.load(text, format: .json, limits: limits)
        let whole = TripLoader.validate(TripJSONReader.read(text, limits: limits), limits: limits.trip)
        let diagnostics = (String(reflecting: streamed.diagnostics), String(reflecting: whole.diagnostics))
        if diagnostics.0 != diagnostics.1 { return "diagnostics:\n  \(diagnostics.0)\nwhole:\n  \(diagnostics.1)" }
        if streamed.trip != whole.trip { return "trips:\n  \(String(reflecting: streamed.trip))" }
        return nil
    }

    @Test(arguments: Fixtures.sampleTrips())
    func eachSampleLoadsAsItsWholeDraftValidates(_ name: String) throws {
        let text = try Fixtures.sample(name)
        #expect(Self.difference(text) == nil, "\(name)")
        let few = ReadLimits(trip: TripLimits(maxDestinations: 1, maxDetours: 2, maxTasks: 3))
        #expect(Self.difference(text, limits: few) == nil, "\(name) with few destinations")
    }

    @Test(arguments: [
        #"{"title": "T", "destinations": [1, {"name": "A"}, {"name": " ", "arrival": "x"}]}"#,
        #"{"destinations": [{"name": "A", "detours": [{"tasks": [{}]}]}], "title": ""}"#,
        #"{"title": "T", "destinations": 5}"#,
        #"{"title": "T"}"#,
        #"{"title": "T", "destinations": [{"name": "A"}], "destinations": []}"#,
        #"{"title": "T", "destinations": [{"name": "A"}, {"name": "B"}"#,
        #"[{"title": "T", "destinations": []}]"#,
        #"{"title": "T", "currency": "eur", "destinations": [{"name": "A"}], "budget": 3}"#,
    ])
    func shapesAndProblemsLoadAsTheWholeDraftValidates(_ text: String) {
        #expect(Self.difference(Array(text.utf8)) == nil)
        #expect(Self.difference(Array(text.utf8), limits: ReadLimits(trip: TripLimits(maxDestinations: 1))) == nil)
    }

    @Test func mutatedTripsLoadAsTheirWholeDraftsValidate() throws {
        var generator = SplitMix(seed: 17)
        let samples = try Fixtures.sampleTrips().map { try JSONParser.parse(Fixtures.sample($0)) }
        for round in 0..<300 {
            var tree = samples[round % samples.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) { Mutation.apply(to: &tree, using: &generator) }
            let text = Writer.write(tree, using: &generator)
            let limits = round % 3 == 0 ? ReadLimits(trip: TripLimits(maxDestinations: 2)) : .standard
            if let difference = Self.difference(text, limits: limits) {
                Issue.record("round \(round): \(difference)\n\(String(decoding: text, as: UTF8.self))")
                return
            }
        }
    }
}
