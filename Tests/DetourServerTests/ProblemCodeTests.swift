import DetourTestSupport
import Foundation
import Testing

@testable import DetourServer

/// One registry of refusal codes: `ProblemCode` has every code the server sends, each once;
/// `docs/openapi.yaml` documents exactly those, and each is sent from somewhere.
@Suite struct ProblemCodeTests {
    static let document =
        (try? String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)) ?? ""

    /// The codes listed after `enum: [` (which may run over several lines) or `const:` right
    /// below each `code:` of the document.
    static func documentedCodes() -> (all: Set<String>, each: Set<String>) {
        let lines = document.components(separatedBy: "\n")
        var all: Set<String> = []
        var each: Set<String> = []
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "code:" {
            let below = lines[(index + 1)...].prefix(20)
            guard let start = below.firstIndex(where: { $0.contains("enum: [") || $0.contains("const: ") }) else {
                continue
            }
            if let constant = lines[start].components(separatedBy: "const: ").dropFirst().first {
                each.insert(constant.trimmingCharacters(in: .whitespaces))
                continue
            }
            var text = lines[start].components(separatedBy: "enum: [").last ?? ""
            var next = start + 1
            while !text.contains("]"), next < lines.count {
                text += lines[next]
                next += 1
            }
            let codes = text.prefix { $0 != "]" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            // The `code` of every refusal (ErrorDetail) lists them all; a response's own, some.
            if codes.count > 20 { all.formUnion(codes) } else { each.formUnion(codes) }
        }
        return (all, each)
    }

    @Test func theDocumentListsEveryCodeAndNoOther() {
        let (all, each) = Self.documentedCodes()
        let codes = Set(ProblemCode.allCases.map(\.rawValue))
        #expect(
            all == codes,
            "documented only: \(all.subtracting(codes).sorted()); sent only: \(codes.subtracting(all).sorted())")
        #expect(
            each.isSubset(of: codes),
            "a response documents a code the server has not: \(each.subtracting(codes).sorted())")
        #expect(each.count > 20)
        #expect(all.allSatisfy { ProblemCode(rawValue: $0) != nil })
    }

    /// Every code is sent from somewhere in the server's code, not only declared.
    @Test func everyCodeIsSent() throws {
        let folder = Fixtures.repository.appendingPathComponent("Sources/DetourServer")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        let sources = try files.filter { $0.hasSuffix(".swift") && !$0.hasSuffix("ProblemCode.swift") }
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(files.count > 30)
        for code in ProblemCode.allCases {
            #expect(sources.contains(".\(code)"), "\(code.rawValue) is never sent")
        }
    }
}
