import ArgumentParser
import DetourCore
import Testing

@testable import DetourCommandLine

@Suite struct ServeOptionsTests {
    @Test func theDefaultsAreLoopbackAndSixteenMebibytes() throws {
        let options = try ServeOptions.parse([])
        #expect(options.folder == ".")
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 8080)
        #expect(options.plan.prefer == .time)
        #expect(!options.readOnly && !options.quiet)
        #expect(options.inputLimit.bytes(defaultMebibytes: 16) == 16 << 20)
        #expect(options.diagnostics == .text)
    }

    @Test(
        arguments: [
            (["--port", "65535"], true), (["--port", "65536"], false), (["--port", "0"], true),
            (["--port", "-1"], false),
            (["--max-input-mib", "1048576"], true), (["--max-input-mib", "1048577"], false),
            (["--max-input-mib", "0"], false),
            (["--poll", "0.1"], true), (["--poll", "0.09"], false), (["--poll", "3600"], true),
            (["--poll", "3601"], false),
            (["--host", "0.0.0.0"], true), (["--host", "0.0.0.0", "--token-file", "t"], true),
        ] as [([String], Bool)])
    func eachLimitIsCheckedAtItsEdge(_ arguments: [String], _ accepted: Bool) {
        // parse(_:) validates too.
        let parsed = try? ServeOptions.parse(arguments)
        #expect((parsed != nil) == accepted, Comment(rawValue: arguments.joined(separator: " ")))
    }
}

@Suite struct DiagnosticPrinterTests {
    @Test func theRequestedFormatIsTheLastValidOneBeforeTheEndOfOptions() {
        typealias Format = DiagnosticPrinter.Format
        #expect(Format.requested(in: []) == .text)
        #expect(Format.requested(in: ["--diagnostics", "json"]) == .json)
        #expect(Format.requested(in: ["--diagnostics=json"]) == .json)
        #expect(Format.requested(in: ["--diagnostics", "json", "--diagnostics", "bogus"]) == .json)
        #expect(Format.requested(in: ["--diagnostics=json", "--diagnostics=bogus"]) == .json)
        #expect(Format.requested(in: ["--", "--diagnostics", "json"]) == .text)
        #expect(Format.requested(in: ["--diagnostics"]) == .text)
    }

    @Test func textHoldsBackWarningsPastTwentyOfACodeAndJSONDoesNot() {
        let warnings = (0..<23).map { _ in Diagnostic(.draftDetour, "draft") }
        let errors = (0..<25).map { _ in Diagnostic(.blankText, "blank") }
        let text = DiagnosticPrinter(file: "t.json").text(warnings + errors)
        #expect(
            text.split(separator: "\n").filter { $0.contains("[blank-text]") }.count == 25, "errors are never held back"
        )
        #expect(text.split(separator: "\n").filter { $0.hasSuffix("draft [draft-detour]") }.count == 20)
        #expect(
            text.hasSuffix(
                "t.json: warning: 3 more draft-detour warnings not shown; --all-warnings shows every one [draft-detour]\n"
            ))
        let all = DiagnosticPrinter(file: "t.json", allWarnings: true).text(warnings)
        #expect(all.split(separator: "\n").count == 23)
        let json = DiagnosticPrinter(file: "t.json", format: .json).text(warnings)
        #expect(json.split(separator: "\n").count == 23)
    }

    @Test func theLocalDayIsACalendarDay() {
        #expect(SystemCalls.localDay() > CalendarDay.unixEpoch)
    }
}
