import DetourCore
import DetourTestSupport
import Foundation
import Testing

/// One code's section in `docs/diagnostics.md`: its `` ### `code` `` heading and the
/// `**Severity:**` line under it.
struct DiagnosticsDocSection: Equatable {
    var code: String
    var severity: String?
    var line: Int
}

/// Reads `docs/diagnostics.md` the way its readers search it, and compares it with
/// ``DiagnosticCode``.
enum DiagnosticsDoc {
    static var url: URL { Fixtures.repository.appendingPathComponent("docs/diagnostics.md") }

    /// Every `` ### `code` `` heading outside code blocks, with the first `**Severity:**` line
    /// before the next heading.
    static func sections(_ text: String) -> [DiagnosticsDocSection] {
        var sections: [DiagnosticsDocSection] = []
        // The section a severity line would belong to; any other heading ends it.
        var open: Int?
        var inCodeBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inCodeBlock.toggle()
                continue
            }
            if inCodeBlock { continue }
            if line.hasPrefix("#") {
                open = nil
                if line.hasPrefix("### `"), line.hasSuffix("`"), line.count > 6 {
                    let code = line.dropFirst(5).dropLast()
                    sections.append(DiagnosticsDocSection(code: String(code), severity: nil, line: index + 1))
                    open = sections.count - 1
                }
                continue
            }
            let prefix = "**Severity:**"
            if line.hasPrefix(prefix), let current = open, sections[current].severity == nil {
                sections[current].severity = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            }
        }
        return sections
    }

    /// The codes listed under `## Retired codes`, each on a line `` - `code`: … ``.
    static func retired(_ text: String) -> [String] {
        guard let range = text.range(of: "\n## Retired codes\n") else { return [] }
        return text[range.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }

    /// What is wrong with `sections` as the documentation of `codes`, one sentence each.
    static func problems(_ sections: [DiagnosticsDocSection], codes: [DiagnosticCode]) -> [String] {
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for section in sections {
            if let first = seen[section.code] {
                problems.append("`\(section.code)` has two sections, on lines \(first) and \(section.line)")
                continue
            }
            seen[section.code] = section.line
            guard let code = DiagnosticCode(rawValue: section.code), codes.contains(code) else {
                problems.append(
                    "`\(section.code)` (line \(section.line)) is not a DiagnosticCode; rename or remove the section")
                continue
            }
            guard let severity = section.severity else {
                problems.append("`\(section.code)` (line \(section.line)) has no **Severity:** line")
                continue
            }
            if severity != code.severity.rawValue {
                problems.append(
                    "`\(section.code)` (line \(section.line)) says severity \(severity), but the code's severity is \(code.severity.rawValue)"
                )
            }
        }
        for code in codes where seen[code.rawValue] == nil {
            problems.append(
                "`\(code.rawValue)` has no section; add `### `\(code.rawValue)``, **Severity:** \(code.severity.rawValue), "
                    + "what it means, an example and the fix")
        }
        return problems
    }
}

@Suite struct DiagnosticsDocTests {
    @Test func everyDiagnosticCodeHasExactlyOneSectionWithItsSeverity() throws {
        let text = try String(contentsOf: DiagnosticsDoc.url, encoding: .utf8)
        let sections = DiagnosticsDoc.sections(text)
        #expect(!sections.isEmpty, "docs/diagnostics.md has no ### `code` sections")
        for problem in DiagnosticsDoc.problems(sections, codes: DiagnosticCode.allCases) {
            Issue.record("docs/diagnostics.md: \(problem)")
        }
    }

    /// A retired code keeps its name out of use: no case of ``DiagnosticCode`` may take it back.
    @Test func aRetiredCodeIsNeverReused() throws {
        let text = try String(contentsOf: DiagnosticsDoc.url, encoding: .utf8)
        let retired = DiagnosticsDoc.retired(text)
        #expect(retired.contains("gpx-no-stays"))
        for code in retired {
            #expect(DiagnosticCode(rawValue: code) == nil, "`\(code)` is retired; give the new case another name")
        }
        #expect(DiagnosticsDoc.retired("# D\n\n## Retired codes\n\n- `a-b`: gone.\n- `c`: too.\n") == ["a-b", "c"])
    }

    @Test func theDocCheckReportsMissingUnknownRepeatedAndMisjudgedCodes() {
        let text = """
            # Diagnostics

            ```
            ### `in-a-code-block`
            ```

            ## Trip rules

            ### `departure-not-after-arrival`

            **Severity:** warning

            ### `no-such-code`

            **Severity:** error

            ### `bad-day`

            ### `bad-day`

            **Severity:** error
            """
        let sections = DiagnosticsDoc.sections(text)
        #expect(sections.map(\.code) == ["departure-not-after-arrival", "no-such-code", "bad-day", "bad-day"])
        // The first bad-day has no severity of its own: the one under the second heading is not its.
        #expect(sections[2].severity == nil)
        let problems = DiagnosticsDoc.problems(sections, codes: [.departureNotAfterArrival, .badDay, .unknownCurrency])
        #expect(
            problems == [
                "`departure-not-after-arrival` (line 9) says severity warning, but the code's severity is error",
                "`no-such-code` (line 13) is not a DiagnosticCode; rename or remove the section",
                "`bad-day` (line 17) has no **Severity:** line",
                "`bad-day` has two sections, on lines 17 and 19",
                "`unknown-currency` has no section; add `### `unknown-currency``, **Severity:** warning, "
                    + "what it means, an example and the fix",
            ])
    }

    @Test func aSeverityBelowAnotherHeadingBelongsToNoCode() {
        let text = """
            ### `bad-day`

            ## Next group

            **Severity:** error
            """
        #expect(DiagnosticsDoc.sections(text) == [DiagnosticsDocSection(code: "bad-day", severity: nil, line: 1)])
    }
}
