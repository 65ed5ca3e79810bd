import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DetourServer

/// Any sequence of the app's edits, posted as its pages post them, leaves a trip file that the
/// command line reads as the same trip the server shows: its JSON report byte for byte, and each
/// destination's page titled with its name.
///
/// Each step is one form post chosen at random (seeded) among those the trip as it now is
/// allows: add a destination, a detour, a task, a pro or a con; delete a pro, a con, a detour or a
/// destination. Each is checked for its own effect on the file, read back with the format's
/// reader; after each sequence the real binary renders the file.
@Suite struct AppEditPropertyTests: SiteDriving {
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://localhost"]

    /// One step: the post, and what it must do to the trip.
    struct Step {
        var kind = ""
        var path: String
        var fields: [(String, String)]
        var what: String
        var expect: @Sendable (Trip, Trip) -> Bool
    }

    /// The trip in `file` of `store` as it is now, its bytes and the trip they read as.
    static func current(_ store: FakeTripStore, _ file: TripFile) throws -> ([UInt8], Trip) {
        let bytes = try #require(store.state.withLock { $0.files[file] })
        return (bytes, try #require(TripLoader.load(bytes, format: file.format).trip))
    }

    /// A step the trip `trip` (named `name`) allows, at random.
    static func step(_ trip: Trip, name: String, number: Int, _ random: inout SplitMix) -> Step {
        let base = "/trips/\(name)"
        let stays = trip.destinations
        var kinds = ["destination"]
        if !stays.isEmpty { kinds += ["detour"] }
        let detours = stays.indices.flatMap { s in stays[s].detours.indices.map { (s, $0) } }
        if detours.contains(where: { stays[$0.0].detours[$0.1].tasks.count < 2 }) { kinds += ["task", "task"] }
        let tasks = detours.flatMap { s, d in stays[s].detours[d].tasks.indices.map { (s, d, $0) } }
        if !tasks.isEmpty { kinds += ["pro", "con", "pro"] }
        if tasks.contains(where: { !stays[$0.0].detours[$0.1].tasks[$0.2].pros.isEmpty }) { kinds += ["delete-pro"] }
        if tasks.contains(where: { !stays[$0.0].detours[$0.1].tasks[$0.2].cons.isEmpty }) { kinds += ["delete-con"] }
        if !detours.isEmpty { kinds += ["delete-detour"] }
        if stays.count > 1 { kinds += ["delete-destination"] }
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
        var step = make(kind, trip, base: base, number: number, &random)
        step.kind = kind
        return step
    }

    /// The step of `kind` on `trip`, whose pages are under `base`.
    static func make(_ kind: String, _ trip: Trip, base: String, number: Int, _ random: inout SplitMix) -> Step {
        let stays = trip.destinations
        let detours = stays.indices.flatMap { s in stays[s].detours.indices.map { (s, $0) } }
        let tasks = detours.flatMap { s, d in stays[s].detours[d].tasks.indices.map { (s, d, $0) } }
        func any<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
        switch kind {
        case "destination":
            let last = stays.map(\.departure).max() ?? CalendarDay(year: 2027, month: 1, day: 1) ?? .unixEpoch
            let arrival = last.adding(days: Int.random(in: 0...3, using: &random)) ?? last
            let departure = arrival.adding(days: Int.random(in: 1...4, using: &random)) ?? arrival
            let stayName = "Stay \(number)"
            return Step(
                path: "/destinations",
                fields: [
                    ("name", stayName), ("arrival", "\(arrival)"), ("departure", "\(departure)"),
                    ("lat", String(format: "%.4f", Double.random(in: -60...60, using: &random))),
                    ("lon", String(format: "%.4f", Double.random(in: -179...179, using: &random))),
                    ("trip", String(base.dropFirst("/trips/".count))),
                ], what: "add \(stayName)",
                expect: { before, after in
                    after.destinations.count == before.destinations.count + 1
                        && after.destinations.last?.name == stayName
                })
        case "detour":
            let s = Int.random(in: 0..<stays.count, using: &random)
            return Step(
                path: "\(base)/destinations/\(s + 1)/detours", fields: [], what: "add a detour to stay \(s + 1)",
                expect: { before, after in
                    after.destinations[s].detours.count == before.destinations[s].detours.count + 1
                })
        case "task":
            let (s, d) = any(detours.filter { stays[$0.0].detours[$0.1].tasks.count < 2 })
            let side = stays[s].detours[d].tasks.isEmpty ? "left" : "right"
            let currency = stays.flatMap(\.detours).flatMap(\.tasks).first.map { "\($0.cost.currency)" } ?? "EUR"
            let location = stays[s].location
            let taskName = "Task \(number)"
            var fields = [
                ("\(side)-name", taskName),
                ("\(side)-duration", any(["1h30m", "PT2H", "45m", "90m", "PT1.5H", "P0,25D"])),
                ("\(side)-cost", "\(any(["0", "12.50", "7"])) \(currency)"),
            ]
            if Bool.random(using: &random) {
                fields += [
                    ("\(side)-lat", String(format: "%.4f", location.latitude + 0.01)),
                    ("\(side)-lon", String(format: "%.4f", location.longitude - 0.01)),
                ]
            }
            return Step(
                path: "\(base)/destinations/\(s + 1)/detours/\(d + 1)/tasks", fields: fields,
                what: "add \(taskName) on the \(side) of detour \(d + 1) of stay \(s + 1)",
                expect: { before, after in
                    after.destinations[s].detours[d].tasks.count == before.destinations[s].detours[d].tasks.count + 1
                        && after.destinations[s].detours[d].tasks.contains { $0.name == taskName }
                })
        case "pro", "con":
            let (s, d, t) = any(tasks)
            let text = "\(kind == "pro" ? "Good" : "Bad") \(number)"
            let field = "\(t == 0 ? "left" : "right")-\(kind)"
            return Step(
                path: "\(base)/destinations/\(s + 1)/detours/\(d + 1)/tasks/\(t + 1)", fields: [(field, text)],
                what: "add the \(kind) \(text) to task \(t + 1) of detour \(d + 1) of stay \(s + 1)",
                expect: { _, after in
                    let task = after.destinations[s].detours[d].tasks[t]
                    return (kind == "pro" ? task.pros : task.cons).last == text
                })
        case "delete-pro", "delete-con":
            let pro = kind == "delete-pro"
            let (s, d, t) = any(
                tasks.filter { s, d, t in
                    let task = stays[s].detours[d].tasks[t]
                    return !(pro ? task.pros : task.cons).isEmpty
                })
            let notes = pro ? stays[s].detours[d].tasks[t].pros : stays[s].detours[d].tasks[t].cons
            let index = Int.random(in: 0..<notes.count, using: &random)
            var left = notes
            left.remove(at: index)
            return Step(
                path: "\(base)/destinations/\(s + 1)/detours/\(d + 1)/tasks/\(t + 1)", fields: [(kind, "\(index)")],
                what: "\(kind) \(index) of task \(t + 1) of detour \(d + 1) of stay \(s + 1)",
                expect: { [left] _, after in
                    let task = after.destinations[s].detours[d].tasks[t]
                    return (pro ? task.pros : task.cons) == left
                })
        case "delete-detour":
            let (s, d) = any(detours)
            return Step(
                path: "\(base)/destinations/\(s + 1)/detours/\(d + 1)/delete", fields: [],
                what: "delete detour \(d + 1) of stay \(s + 1)",
                expect: { before, after in
                    var detours = before.destinations[s].detours
                    detours.remove(at: d)
                    return after.destinations[s].detours == detours
                })
        default:
            let s = Int.random(in: 0..<stays.count, using: &random)
            return Step(
                path: "\(base)/destinations/\(s + 1)/delete", fields: [], what: "delete stay \(s + 1)",
                expect: { before, after in
                    var destinations = before.destinations
                    destinations.remove(at: s)
                    return after.destinations == destinations
                })
        }
    }

    @Test(arguments: ["lisbon.json", "nordic.gpx"])
    func anySequenceOfEditsLeavesAFileTheCommandLineReadsAsThePagesShowIt(fileName: String) async throws {
        let nordic = try #require(TripLoader.load(try Fixtures.sample("nordic-budget.json"), format: .json).trip)
        let store = FakeTripStore([
            "lisbon.json": try Fixtures.sample("lisbon-city-break.json"),
            "nordic.gpx": Array(try TripGPXWriter.write(nordic).utf8),
        ])
        let file = try #require(TripFile(fileName: fileName))
        let name = file.name.text
        let site = try site(store)
        let cli = try CommandRunner.built()
        let folder = try ScratchFolder("detour-app-edits")
        try await site.application().test(.router) { client in
            var driven = site
            driven.client = client
            var random = SplitMix(seed: fileName == "lisbon.json" ? 39 : 40)
            var number = 0
            var seen: Set<String> = []
            for sequence in 0..<8 {
                for _ in 0..<8 {
                    number += 1
                    let (bytes, before) = try Self.current(store, file)
                    let step = Self.step(before, name: name, number: number, &random)
                    let fields = step.fields + [("version", TripLibrary.entityTag(of: bytes))]
                    let response = try await driven.respond(
                        to: request(.post, step.path, headers: Self.form, body: Array(AccountSite.encoded(fields).utf8))
                    )
                    let note = "sequence \(sequence), \(step.what)"
                    try #require(
                        response.status == .seeOther, "\(note): \(response.status) \(body(response).suffix(1500))")
                    seen.insert(step.kind)
                    let (_, after) = try Self.current(store, file)
                    #expect(step.expect(before, after), "\(note)")
                }
                // What the command line makes of the file is what the server shows of it.
                let (bytes, trip) = try Self.current(store, file)
                let written = folder.url.appendingPathComponent(fileName)
                try Data(bytes).write(to: written)
                let rendered = try cli.run([written.path, "--format", "json", "--today", "\(Self.today)"])
                #expect(rendered.status == 0, "\(rendered.stderr)")
                let served = try await driven.respond(to: request(.get, "/trips/\(name).json"))
                #expect(body(served) == String(decoding: rendered.stdout, as: UTF8.self), "sequence \(sequence)")
                for (index, destination) in trip.destinations.enumerated() {
                    let page = body(
                        try await driven.respond(to: request(.get, "/trips/\(name)/destinations/\(index + 1)")))
                    #expect(page.contains("<h1>\(destination.name)</h1>"), "sequence \(sequence), stay \(index + 1)")
                }
            }
            // Every kind of edit was made.
            let kinds: Set = [
                "destination", "detour", "task", "pro", "con", "delete-pro", "delete-con", "delete-detour",
                "delete-destination",
            ]
            #expect(seen == kinds)
        }
    }
}
