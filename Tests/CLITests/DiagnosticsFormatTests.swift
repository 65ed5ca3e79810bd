import DetourTestSupport
import Foundation
import Testing

/// `--diagnostics json`: the same diagnostics as the text form, one JSON object per line.
@Suite struct DiagnosticsFormatTests {
    let cli: CommandRunner
    let twins = Fixtures.repository.appendingPathComponent("Tests/Twins")

    init() throws {
        cli = try CommandRunner.built()
    }

    /// Each line of standard error as a JSON object.
    func records(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test(arguments: ["validate", "render"])
    func eachDiagnosticIsOneJSONObjectWithEveryKey(_ command: String) throws {
        let trip = twins.appendingPathComponent("trip-level-mistakes.json").path
        let day = command == "render" ? ["--today", "2026-11-22"] : []
        let text = try cli.run([command, trip] + day)
        let json = try cli.run([command, trip, "--diagnostics", "json"] + day)
        #expect(json.status == 65)
        #expect(json.status == text.status)
        // validate says how each trip went on standard output, whatever the diagnostics' format.
        #expect(json.output == (command == "validate" ? text.output : ""))
        #expect(json.output.split(separator: "\n").count == (command == "validate" ? 1 : 0))
        let lines = try records(json.stderr)
        try #require(lines.count == text.stderr.split(separator: "\n").count)
        let keys: Set = ["severity", "code", "path", "file", "line", "column", "message"]
        for record in lines { #expect(Set(record.keys) == keys) }
        let first = lines[0]
        #expect(first["severity"] as? String == "error")
        #expect(first["code"] as? String == "missing-field")
        #expect(first["path"] as? String == "title")
        #expect(first["file"] as? String == trip)
        #expect(first["line"] as? Int == 1)
        #expect(first["column"] as? Int == 1)
        #expect(first["message"] as? String == "a trip needs a title")
        // The machine form carries what the text form says, no more and no less.
        let textLines = text.stderr.split(separator: "\n").map(String.init)
        for (record, line) in zip(lines, textLines) {
            let code = try #require(record["code"] as? String)
            let message = try #require(record["message"] as? String)
            #expect(line.hasSuffix("\(message) [\(code)]"))
        }
    }

    @Test func unknownPartsAreNull() throws {
        let twin = twins.appendingPathComponent("trip-level-mistakes.gpx").path
        let result = try cli.run(["validate", twin, "--diagnostics", "json"])
        let lines = try records(result.stderr)
        let first = try #require(lines.first)
        #expect(first["line"] as? Int == 2)
        #expect(first["column"] is NSNull)
        let missing = try cli.run(["validate", "/nonexistent/trip.json", "--diagnostics", "json"])
        #expect(missing.status == 66)
        let record = try #require(try records(missing.stderr).first)
        #expect(record["code"] as? String == "read-failed")
        #expect(record["path"] is NSNull)
        #expect(record["line"] is NSNull)
    }

    @Test func theTextFormIsTheDefaultAndEndsWithTheCode() throws {
        let trip = twins.appendingPathComponent("path-mistakes.json").path
        let result = try cli.run(["validate", trip])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.hasPrefix(trip + ":") && $0.hasSuffix("]") })
    }
}

/// `--day-hours H`: one length of day for every stay, checked by the trip's own rule.
@Suite struct DayHoursOptionTests {
    let cli: CommandRunner

    init() throws {
        cli = try CommandRunner.built()
    }

    @Test func theOptionOverridesEveryStayAndFollowsTheRule() throws {
        let sample = Fixtures.samples.appendingPathComponent("nordic-budget.json").path
        let result = try cli.run([sample, "--today", "2026-11-22", "--format", "json", "--day-hours", "4.5"])
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let sections = try #require(report["sections"] as? [[String: Any]])
        let stays = sections.flatMap { ($0["destinations"] as? [[String: Any]]) ?? [] }
        #expect(stays.count == 2)
        #expect(stays.allSatisfy { ($0["day_hours"] as? NSNumber)?.doubleValue == 4.5 })
        #expect(stays.allSatisfy { ($0["available_minutes"] as? Int) == 3 * 270 })
        let bad = try cli.run([sample, "--day-hours", "25"])
        #expect(bad.status == 64)
        #expect(bad.stdout.isEmpty)
        #expect(
            bad.stderr
                == "detour-report: error: --day-hours: day hours \"25\" is not more than 0 and at most 24 [bad-day-hours]\n"
        )
    }
}
