import DetourCore
import DetourTestSupport
import Testing

@testable import DetourIO

/// The trip reader maps JSON as it reads it, without a tree.
///
/// Its law: it gives exactly what parsing into a tree and then walking the tree gives
/// (``TreeDraftMapper``, the reader this one replaced): the same syntax error at the same place, or the
/// same draft and the same shape diagnostics. Checked on the samples mutated at random, in shape and in
/// bytes.
@Suite struct JSONPullTests {
    /// Both readers on `text`; a description of the first difference, or `nil`.
    static func difference(_ text: [UInt8], maximumDepth: Int) -> String? {
        let streamed = TripJSONReader.read(text, limits: ReadLimits(maxDepth: maximumDepth))
        let model = TreeDraftMapper.read(text, maximumDepth: maximumDepth)
        // Compared in the order users see them: ``TripLoader`` sorts by place, keeping the order
        // found among diagnostics at one place.
        func inFileOrder(_ diagnostics: [Diagnostic]) -> String {
            let sorted = diagnostics.enumerated().sorted { a, b in
                (a.element.position?.offset ?? -1, a.offset) < (b.element.position?.offset ?? -1, b.offset)
            }
            return String(reflecting: sorted.map(\.element))
        }
        let diagnostics = (inFileOrder(streamed.diagnostics), inFileOrder(model.diagnostics))
        if diagnostics.0 != diagnostics.1 {
            return "diagnostics:\n  \(diagnostics.0)\nthe tree gives\n  \(diagnostics.1)"
        }
        let drafts = (String(reflecting: streamed.draft), String(reflecting: model.draft))
        if drafts.0 != drafts.1 { return "drafts:\n  \(drafts.0)\nthe tree gives\n  \(drafts.1)" }
        return nil
    }

    @Test(arguments: Fixtures.sampleTrips())
    func eachSampleReadsAsTheTreeReadsIt(_ name: String) throws {
        let text = try Fixtures.sample(name)
        let difference = Self.difference(text, maximumDepth: ReadLimits.standard.maxDepth)
        #expect(difference == nil, "\(name): \(difference ?? "")")
    }

    @Test func mutatedTripsReadAsTheTreeReadsThem() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix(seed: seed)
        let samples = try Fixtures.sampleTrips().map { try JSONParser.parse(Fixtures.sample($0)) }
        var failures = 0
        var kinds = (syntax: 0, tooDeep: 0, shape: 0, clean: 0)
        let rounds = 1_000
        for round in 0..<rounds {
            var tree = samples[round % samples.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) { Mutation.apply(to: &tree, using: &generator) }
            var text = Writer.write(tree, using: &generator)
            if Int.random(in: 0..<4, using: &generator) == 0 { Mutation.applyToBytes(&text, using: &generator) }
            guard String(validating: text, as: UTF8.self) != nil,
                text.contains(where: { ![0x20, 0x0A, 0x09, 0x0D].contains($0) })
            else {
                continue  // refused before any JSON is read, the same way for both
            }
            // Mostly the standard limit; else just at or under the trip's own depth, so the limit
            // is met deep inside a trip rather than at its first object.
            let deepest = Self.depth(of: tree)
            let depth = [64, 64, 64, deepest, deepest - 1][Int.random(in: 0...4, using: &generator)]
            if let difference = Self.difference(text, maximumDepth: depth) {
                failures += 1
                Issue.record(
                    "seed \(seed), round \(round), depth \(depth): \(difference)\n\(String(decoding: text, as: UTF8.self))"
                )
                if failures == 3 { return }
            }
            switch TreeDraftMapper.read(text, maximumDepth: depth) {
            case (nil, let diagnostics) where diagnostics.map(\.code) == [.jsonTooDeep]: kinds.tooDeep += 1
            case (nil, let diagnostics) where diagnostics.count == 1 && diagnostics[0].code.rawValue.hasPrefix("json"):
                kinds.syntax += 1
            case (_, let diagnostics) where !diagnostics.isEmpty: kinds.shape += 1
            default: kinds.clean += 1
            }
        }
        // The mutations must reach every outcome often, or the comparison proves little.
        #expect(kinds.syntax > rounds / 10 && kinds.tooDeep > rounds / 20 && kinds.shape > rounds / 3, "\(kinds)")
    }

    /// How deeply arrays and objects nest in `node` (an object of numbers is 1).
    static func depth(of node: JSONNode) -> Int {
        switch node.value {
        case .object(let members): return 1 + (members.map { depth(of: $0.value) }.max() ?? 0)
        case .array(let elements): return 1 + (elements.map { depth(of: $0) }.max() ?? 0)
        default: return 0
        }
    }

    /// Keys are code points: escaped or raw, one key; precomposed or decomposed, two.
    ///
    /// Past 16
    /// keys an object's keys are checked in a set, which must agree; and a value that is skipped
    /// (under an unknown key) is checked all the same.
    @Test(arguments: [
        (#"{"title": "T", "destinations": [], "caf\u00e9": 1, "café": 2}"#, [DiagnosticCode.jsonDuplicateKey]),
        ("{\"title\": \"T\", \"destinations\": [], \"café\": 1, \"cafe\u{301}\": 2}", [.unknownKey, .unknownKey]),
        (#"{"t\u0069tle": "T", "destinations": [], "n\u0061me": 1}"#, [.unknownKey]),
        (Self.rates(300, then: #""SEK""#), [.jsonDuplicateKey]),
        (Self.rates(300, then: #""\u0053EK""#), [.jsonDuplicateKey]),
        (Self.rates(300, then: #""\u0041B\u0043""#), []),
        (#"{"title": "T", "destinations": [], "extra": [{"a": 1, "\u0061": 2}]}"#, [.jsonDuplicateKey]),
    ])
    func keysAreCodePointsWhateverTheirSpelling(_ text: String, _ codes: [DiagnosticCode]) {
        let bytes = Array(text.utf8)
        #expect(TripJSONReader.read(bytes).diagnostics.map(\.code) == codes)
        #expect(Self.difference(bytes, maximumDepth: 64) == nil)
    }

    /// A trip whose `rates` has `count` three-letter keys (`SEK` among them), then `last`.
    static func rates(_ count: Int, then last: String) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var keys = ["\"SEK\""]
        for index in 0..<count - 1 {
            keys.append("\"X\(letters[index / 26 % 26])\(letters[index % 26])\"")
        }
        let members = (keys + [last]).map { "\($0): 0.1" }.joined(separator: ", ")
        return #"{"title": "T", "destinations": [], "rates": {"# + members + "}}"
    }

    @Test func keysWrittenWithEscapesAreTheKeysTheySpell() throws {
        let text = Array(#"{"\u0074itle": "T", "destinations": [], "t\u0069tle": "again"}"#.utf8)
        let result = TripJSONReader.read(text)
        #expect(result.draft == nil)
        #expect(result.diagnostics.map(\.code) == [.jsonDuplicateKey])
        #expect(Self.difference(text, maximumDepth: 64) == nil)
    }
}

/// Random changes to a trip's JSON tree: values of another kind, members removed, added (known,
/// unknown or repeated keys), lists emptied or grown.
enum Mutation {
    static let keys = [
        "name", "location", "lat", "lon", "cost", "amount", "currency", "tasks", "detours", "path", "pros", "cons",
        "travel", "budget", "day_hours", "rates", "title", "traveler", "arrival", "departure", "duration",
        "destinations", "$schema", "bogus", "caf\u{E9}", "with space", "SEK",
    ]

    static func randomValue(depth: Int = 0, using generator: inout SplitMix) -> JSONValue {
        switch Int.random(in: 0..<(depth > 1 ? 5 : 8), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(["0", "-1.5", "12", "3e2", "48.85"][Int.random(in: 0...4, using: &generator)])
        case 3:
            return .string(
                ["", "x", "PT1H", "2027-05-01", "EUR", "caf\u{E9} \u{1F600}", "q\"b\\"][
                    Int.random(in: 0...6, using: &generator)])
        case 4: return .object([])
        case 5:
            let key = keys.randomElement(using: &generator) ?? "x"
            return .object([
                JSONMember(
                    key: key, keyOffset: 0,
                    value: JSONNode(value: randomValue(depth: depth + 1, using: &generator), offset: 0))
            ])
        case 6: return .array([])
        default:
            return .array(
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    JSONNode(value: randomValue(depth: depth + 1, using: &generator), offset: 0)
                })
        }
    }

    /// Every node's place, as the member or element indexes that lead to it.
    static func places(_ node: JSONNode, at place: [Int] = [], into all: inout [[Int]]) {
        all.append(place)
        switch node.value {
        case .object(let members):
            for (index, member) in members.enumerated() { places(member.value, at: place + [index], into: &all) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { places(element, at: place + [index], into: &all) }
        default: break
        }
    }

    static func change(_ node: inout JSONNode, at place: ArraySlice<Int>, _ body: (inout JSONNode) -> Void) {
        guard let first = place.first else { return body(&node) }
        switch node.value {
        case .object(var members):
            node.value = .null
            change(&members[first].value, at: place.dropFirst(), body)
            node.value = .object(members)
        case .array(var elements):
            node.value = .null
            change(&elements[first], at: place.dropFirst(), body)
            node.value = .array(elements)
        default: break
        }
    }

    static func apply(to tree: inout JSONNode, using generator: inout SplitMix) {
        var all: [[Int]] = []
        places(tree, into: &all)
        guard let place = all.randomElement(using: &generator) else { return }
        let choice = Int.random(in: 0..<5, using: &generator)
        change(&tree, at: place[...]) { node in
            switch (choice, node.value) {
            case (0, .object(var members)) where !members.isEmpty:
                members.remove(at: Int.random(in: 0..<members.count, using: &generator))
                node.value = .object(members)
            case (1, .object(var members)):
                let key = keys.randomElement(using: &generator) ?? "x"
                let value = JSONNode(value: randomValue(using: &generator), offset: 0)
                members.insert(
                    JSONMember(key: key, keyOffset: 0, value: value),
                    at: Int.random(in: 0...members.count, using: &generator))
                node.value = .object(members)
            case (2, .object(let members)) where members.count > 1:
                node.value = .object(members.shuffled(using: &generator))
            case (3, .array(var elements)) where !elements.isEmpty:
                if Bool.random(using: &generator) {
                    elements.remove(at: Int.random(in: 0..<elements.count, using: &generator))
                } else {
                    elements.append(elements[Int.random(in: 0..<elements.count, using: &generator)])
                }
                node.value = .array(elements)
            default:
                node.value = randomValue(using: &generator)
            }
        }
    }

    /// A byte dropped, a structural byte put in, or the text cut short.
    static func applyToBytes(_ text: inout [UInt8], using generator: inout SplitMix) {
        guard !text.isEmpty else { return }
        let at = Int.random(in: 0..<text.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: text.remove(at: at)
        case 1: text.insert(Array("{}[],:\"\\ n1-".utf8).randomElement(using: &generator) ?? 0x20, at: at)
        default: text.removeSubrange(at...)
        }
    }
}

/// Writes a tree back as JSON, with random white space and keys sometimes spelled with `\u`
/// escapes.
enum Writer {
    static func write(_ node: JSONNode, using generator: inout SplitMix) -> [UInt8] {
        var out: [UInt8] = []
        write(node, into: &out, using: &generator)
        return out
    }

    static func space(_ out: inout [UInt8], using generator: inout SplitMix) {
        out += [[], [], [0x20], [0x0A, 0x20, 0x20], [0x09]][Int.random(in: 0...4, using: &generator)]
    }

    static func string(_ text: String, escaping: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                out += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            } else if escaping && scalar.isASCII {
                out += Array(("\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)).utf8)
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func write(_ node: JSONNode, into out: inout [UInt8], using generator: inout SplitMix) {
        switch node.value {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                space(&out, using: &generator)
                string(member.key, escaping: Int.random(in: 0..<10, using: &generator) == 0, into: &out)
                out.append(UInt8(ascii: ":"))
                space(&out, using: &generator)
                write(member.value, into: &out, using: &generator)
            }
            space(&out, using: &generator)
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                space(&out, using: &generator)
                write(element, into: &out, using: &generator)
            }
            space(&out, using: &generator)
            out.append(UInt8(ascii: "]"))
        case .string(let text): string(text, escaping: false, into: &out)
        case .number(let text): out += Array(text.utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .null: out += Array("null".utf8)
        }
    }
}
