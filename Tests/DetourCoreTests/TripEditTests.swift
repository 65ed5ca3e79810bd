import Testing

@testable import DetourCore

/// The app's changes made to a draft where the file numbers a detour's sides (GPX's `side`):
/// a new task takes the free side, and a task named by its side is found by it.
@Suite struct TripEditTests {
    static func task(_ name: String) -> TaskDraft {
        TaskDraft(
            position: .unknown, name: .present(name, .unknown), duration: .present("1h", .unknown),
            cost: .missing(.unknown), coordinate: .missing(.unknown), pros: [], cons: [])
    }

    static func draft(sides: [String], tasks: [String]) -> TripDraft {
        let detour = DetourDraft(
            position: .unknown, tasks: tasks.map(task), sides: sides.map { .present($0, .unknown) })
        let stay = DestinationDraft(
            position: .unknown, name: .present("Lisbon", .unknown), coordinate: .missing(.unknown),
            arrival: .missing(.unknown), departure: .missing(.unknown), detours: [detour])
        return TripDraft(
            position: .unknown, title: .present("T", .unknown), traveler: .missing(.unknown),
            destinations: .present([stay], .unknown))
    }

    static func detour(_ draft: TripDraft) -> DetourDraft? {
        guard case .present(let stays, _) = draft.destinations else { return nil }
        return stays.first?.detours.first
    }

    static let fields = TripEdit.TaskFields(
        name: "New", duration: "1h", amount: "", currency: "", latitude: "", longitude: "")

    @Test(arguments: [(["2"], ["2", "1"]), (["1"], ["1", "2"]), ([" 1 ", "2"], [" 1 ", "2", "3"])])
    func aNewTaskTakesTheFreeSide(sides: [String], expected: [String]) throws {
        let draft = Self.draft(sides: sides, tasks: sides.map { "Task \($0)" })
        let changed = try TripEdit.addTask(stay: 0, detour: 0, Self.fields).applied(to: draft)
        #expect(Self.detour(changed)?.sides.compactMap(\.value) == expected)
    }

    /// A pro for the left side goes to the task the file numbers `1`, wherever it stands.
    @Test func aNoteGoesToTheTaskOfItsSide() throws {
        let draft = Self.draft(sides: ["2", "1"], tasks: ["Right", "Left"])
        let changed = try TripEdit.addNote(stay: 0, detour: 0, side: 0, .pro, "Shade").applied(to: draft)
        #expect(Self.detour(changed)?.tasks.map { $0.pros.compactMap(\.value) } == [[], ["Shade"]])
        let removed = try TripEdit.deleteNote(stay: 0, detour: 0, side: 0, .pro, 0).applied(to: changed)
        #expect(Self.detour(removed)?.tasks.map { $0.pros.count } == [0, 0])
        #expect(throws: TripEdit.Missing.self) {
            try TripEdit.deleteNote(stay: 0, detour: 0, side: 0, .pro, 0).applied(to: removed)
        }
        let unsided = Self.draft(sides: [], tasks: ["A", "B"])
        let second = try TripEdit.addNote(stay: 0, detour: 0, side: 1, .con, "Far").applied(to: unsided)
        #expect(Self.detour(second)?.tasks.map { $0.cons.compactMap(\.value) } == [[], ["Far"]])
    }

    /// An edit that names a stay, detour or task the draft does not have is not made.
    @Test func anEditOfWhatIsNotThereIsNotMade() {
        let draft = Self.draft(sides: [], tasks: ["A"])
        for edit in [
            TripEdit.addDetour(stay: 1), .deleteDetour(stay: 0, detour: 1),
            .addNote(stay: 0, detour: 0, side: 1, .pro, "x"),
            .deleteDestination(stay: 2),
        ] {
            #expect(throws: TripEdit.Missing.self) { try edit.applied(to: draft) }
        }
        let empty = TripDraft(
            position: .unknown, title: .missing(.unknown), traveler: .missing(.unknown), destinations: .invalid)
        #expect(TripEdit.addDetour(stay: 0).path(in: empty) == "destinations[0]")
        #expect(throws: TripEdit.Missing.self) { try TripEdit.addDetour(stay: 0).applied(to: empty) }
    }
}
