import DetourTestSupport
import Foundation
import Testing

/// A mistyped option or command is named as such, not taken for a second trip.
@Suite struct MistypedCommandLineTests {
    let cli: CommandRunner
    let trip = Fixtures.sampleURL("lisbon-city-break.json").path

    init() throws {
        cli = try CommandRunner.built()
    }

    @Test(arguments: [
        (["--formt", "md"], "Unknown option '--formt'. Did you mean '--format'?"),
        (["--formt"], "Unknown option '--formt'. Did you mean '--format'?"),
        (["--paer", "letter"], "Unknown option '--paer'. Did you mean '--paper'?"),
        (["-o", "x.html", "--tody", "2026-11-22"], "Unknown option '--tody'. Did you mean '--today'?"),
    ])
    func anUnknownOptionIsNamedEvenWhenAValueFollows(_ extra: [String], _ message: String) throws {
        for command in [[], ["render"]] {
            let result = try cli.run(command + [trip] + extra)
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
        }
        let validate = try cli.run(["validate", trip, "--al-warnings", "x"])
        #expect(validate.status == 64)
        #expect(validate.stderr.hasPrefix("Error: Unknown option '--al-warnings'. Did you mean '--all-warnings'?"))
    }

    @Test(arguments: [("serv", "serve"), ("rendr", "render"), ("validat", "validate"), ("idnex", "index")])
    func aFirstArgumentCloseToACommandIsAMistypedCommand(_ typed: String, _ meant: String) throws {
        for extra in [[], ["samples"], ["a.json", "b.json"]] {
            let result = try cli.run([typed] + extra)
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix("Error: unknown command '\(typed)'; did you mean '\(meant)'?\n"),
                "\(result.stderr)")
        }
    }

    @Test func aFileOfThatNameIsATripNotACommand() throws {
        let folder = try ScratchFolder("detour-mistyped")
        try FileManager.default.copyItem(atPath: trip, toPath: folder.url.appendingPathComponent("serv").path)
        let result = try cli.run(["serv", "--format", "json"], directory: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        // Far from every command, or a path: a trip that does not exist (66), not a command.
        for name in ["lisbon", "./serv", "serve.json"] {
            let missing = try cli.run([name])
            #expect(missing.status == 66, "\(name): \(missing.stderr)")
        }
    }

    @Test func usageMistakesFoundAtRunTimeReadAsArgumentParsers() throws {
        let result = try cli.run([trip, trip + "x"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                Error: several trips need -d DIR, a folder to write their reports into
                Usage: detour-report render [<options>] [<trip> ...]
                  See 'detour-report render --help' for more information.

                """)
        let json = try cli.run(["serv", "--diagnostics", "json"])
        #expect(json.status == 64)
        #expect(json.stderr.contains(#""code":"usage""#))
        #expect(json.stderr.contains("unknown command 'serv'; did you mean 'serve'?"))
    }
}
