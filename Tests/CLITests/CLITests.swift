import DetourTestSupport
import Foundation
import Testing

/// The built `detour-report` binary, run as a user runs it.
@Suite(.serialized) struct CLITests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }
    let sample: String

    init() throws {
        cli = try CommandRunner.built()
        let name = try #require(Fixtures.sampleTrips().first, "no sample trips in samples/")
        sample = Fixtures.samples.appendingPathComponent(name).path
        folder = try ScratchFolder("detour-cli")
    }

    func write(_ text: String, to name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let threeBrokenRules = """
        {
          "title": "Broken",
          "traveler": "ab@.c",
          "destinations": [
            {"name": "Lisbon", "location": {"lat": 91, "lon": -9.1},
             "arrival": "2026-12-05", "departure": "2026-12-01"}
          ]
        }
        """

    @Test func theMainJobWritesHTMLToStandardOutput() throws {
        let result = try cli.run([sample, "--today", "2026-11-22"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("<!DOCTYPE html>"))
        #expect(result.output.hasSuffix("</html>\n"))
    }

    @Test func aTripThatBreaksThreeRulesReportsAllThreeAndExits65() throws {
        let path = try write(Self.threeBrokenRules, to: "broken.json")
        let result = try cli.run([path, "--today", "2026-11-22"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.stderr)")
        #expect(
            lines[0]
                == "\(path):3:15: error: traveler: \"ab@.c\" is not an email address: it needs one character either side of an \"@\", and a \".\" between two characters after it [bad-email]"
        )
        #expect(
            lines[1]
                == "\(path):5:44: error: destinations[0].location.lat: latitude 91 is outside [-90, 90] [coordinate-out-of-range]"
        )
        #expect(
            lines[2]
                == "\(path):6:44: error: destinations[0].departure: departure 2026-12-01 is not after arrival 2026-12-05 [departure-not-after-arrival]"
        )
    }

    @Test func aMissingInputExits66() throws {
        let result = try cli.run([scratch.appendingPathComponent("nope.json").path])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nope.json: error: cannot read the trip: No such file or directory"))
        let directory = try cli.run(["validate", scratch.path])
        #expect(directory.status == 66)
        #expect(directory.stderr.contains("the folder holds no trip file (*.json, *.gpx)"), "\(directory.stderr)")
        // Rendering a folder without -d is a usage error that says how to render a folder.
        let folder = try cli.run([scratch.path])
        #expect(folder.status == 64)
        #expect(folder.stderr.contains("is a folder; give -d DIR to render every trip in it"), "\(folder.stderr)")
    }

    @Test(arguments: [
        ["--format", "docx"], ["--today", "2026-02-30"], ["-o", "plan.docx"], ["--no-such-flag"], [],
    ])
    func badUsageExits64WithNothingOnStandardOutput(_ extra: [String]) throws {
        let arguments = extra.isEmpty ? [] : [sample] + extra
        let result = try cli.run(arguments, directory: scratch)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    /// A mistake `render` finds in its own options once it runs is shown with `render`'s usage,
    /// as ArgumentParser shows the ones it finds: an `-o` file of an unknown kind, a folder
    /// without `-d`, `-o` the trip itself; with or without the command's name.
    @Test(arguments: [
        (
            ["-o", "plan.txt"],
            "cannot tell the format of 'plan.txt' from its extension; use .html, .md, .json, .pdf, .gpx, .ics or .geojson, or pass --format"
        ),
        (["-o", "SAMPLE"], "-o 'SAMPLE' is the trip itself; writing there would replace the trip with its report"),
    ])
    func aMistakeInRendersOptionsShowsRendersUsage(_ extra: [String], _ message: String) throws {
        for command in [[], ["render"]] {
            let arguments = command + [sample] + extra.map { $0 == "SAMPLE" ? sample : $0 }
            let result = try cli.run(arguments, directory: scratch)
            #expect(result.status == 64)
            #expect(
                result.stderr
                    == "Error: \(message.replacingOccurrences(of: "SAMPLE", with: sample))\n"
                    + "Usage: detour-report render [<options>] [<trip> ...]\n"
                    + "  See 'detour-report render --help' for more information.\n")
            #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("plan.txt").path))
        }
        let folder = try cli.run([scratch.path])
        #expect(folder.stderr.hasSuffix("See 'detour-report render --help' for more information.\n"))
    }

    @Test func anUnwritableOutputExits73AndCreatesNothing() throws {
        let target = scratch.appendingPathComponent("missing-folder/plan.html").path
        let result = try cli.run([sample, "-o", target])
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "plan.html: error: cannot create or replace the file: No such file or directory [cannot-create-output]")
        )
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func anInvalidTripLeavesAnExistingOutputFileUntouched() throws {
        let broken = try write(Self.threeBrokenRules, to: "broken.json")
        let target = try write("previous report\n", to: "plan.html")
        let result = try cli.run([broken, "-o", target])
        #expect(result.status == 65)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "previous report\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["broken.json", "plan.html"])
    }

    @Test(arguments: [("plan.html", "<!DOCTYPE html>"), ("plan.md", "# "), ("plan.json", "{\n  \"format\"")])
    func theOutputFileNameSetsTheFormat(_ name: String, _ prefix: String) throws {
        let target = scratch.appendingPathComponent(name).path
        let result = try cli.run([sample, "-o", target, "--today", "2026-11-22"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(prefix))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [name])
    }

    @Test func theTripIsNeverOverwrittenByItsOwnReport() throws {
        let trip = try write(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: sample)), as: UTF8.self), to: "trip.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: trip))
        let result = try cli.run([trip, "-o", trip], directory: scratch)
        #expect(result.status == 64)
        #expect(result.stderr.contains("is the trip itself"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: trip)) == before)
    }

    @Test func anExplicitFormatBeatsTheExtension() throws {
        let target = scratch.appendingPathComponent("report.txt").path
        let result = try cli.run([sample, "-o", target, "--format", "markdown"])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("# "))
    }

    @Test func standardInputIsReadFromADash() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sample))
        let piped = try cli.run(["-", "--format", "json", "--today", "2026-11-22"], stdin: bytes)
        let direct = try cli.run([sample, "--format", "json", "--today", "2026-11-22"])
        #expect(piped.status == 0)
        #expect(piped.stdout == direct.stdout)
    }

    @Test func validateChecksWithoutWritingAReport() throws {
        let good = try cli.run(["validate", sample])
        #expect(good.status == 0)
        #expect(good.output.contains("valid trip"))
        let broken = try write(Self.threeBrokenRules, to: "broken.json")
        let bad = try cli.run(["validate", broken])
        #expect(bad.status == 65)
        #expect(bad.output == "\(broken): invalid trip: 3 errors, 0 warnings\n")
        #expect(bad.stderr.split(separator: "\n").count == 3)
    }

    @Test func warningsGoToStandardErrorAndTheReportStillComes() throws {
        let path = try write(
            """
            {"title": "T", "extra": true, "destinations": [{"name": "L", "location": {"lat": 0, "lon": 0},
              "arrival": "2026-12-01", "departure": "2026-12-02", "detours": [{"tasks": []}]}]}
            """, to: "warn.json")
        let result = try cli.run([path, "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(path):1:16: warning: extra: unknown key \"extra\", ignored"))
        #expect(result.stderr.contains("warning: destinations[0].detours[0]: draft detour"))
        #expect(result.output.contains("\"warnings\": ["))
    }

    @Test func theBinaryRunsFromAnyDirectoryWithBuiltInTemplates() throws {
        let result = try cli.run([sample, "--format", "markdown"], directory: URL(fileURLWithPath: "/"))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("# "))
    }

    @Test func outputDoesNotDependOnTimeZoneOrLocale() throws {
        let arguments = [sample, "--today", "2026-11-22"]
        let utc = try cli.run(arguments, environment: ["TZ": "UTC", "LANG": "C", "LC_ALL": "C"])
        let elsewhere = try cli.run(
            arguments, environment: ["TZ": "Pacific/Kiritimati", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(utc.status == 0)
        #expect(utc.stdout == elsewhere.stdout)
    }

    /// Without `--today`, today is the local day: in UTC+14 and UTC-11 (25 hours apart) it is the
    /// day this test's own calendar gives in each zone, one or two days apart.
    @Test func todayIsTheDayInTheLocalTimeZone() throws {
        func today(_ zone: String) throws -> String {
            let result = try cli.run(
                [sample, "--format", "json"], environment: ["TZ": zone], removing: ["SOURCE_DATE_EPOCH"])
            let line = result.output.split(separator: "\n").first { $0.contains("\"today\"") } ?? ""
            return String(line.split(separator: "\"").dropFirst(3).first ?? "")
        }
        func days(in zone: String) -> DateFormatter {
            let days = DateFormatter()
            days.locale = Locale(identifier: "en_US_POSIX")
            days.timeZone = TimeZone(identifier: zone)
            days.dateFormat = "yyyy-MM-dd"
            return days
        }
        let (east, west) = (days(in: "Pacific/Kiritimati"), days(in: "Pacific/Pago_Pago"))
        let before = Date()
        let (eastToday, westToday) = (try today("Pacific/Kiritimati"), try today("Pacific/Pago_Pago"))
        let after = Date()
        #expect(
            [east.string(from: before), east.string(from: after)].contains(eastToday), "\(eastToday) in Kiritimati")
        #expect([west.string(from: before), west.string(from: after)].contains(westToday), "\(westToday) in Pago Pago")
        #expect(eastToday != westToday)
    }

    @Test func sourceDateEpochSetsTodayAndTheOptionBeatsIt() throws {
        let epoch = ["SOURCE_DATE_EPOCH": "1796428800"]  // 2026-12-05T00:00:00Z, not the pinned clock
        let fromEpoch = try cli.run([sample, "--format", "json"], environment: epoch)
        #expect(fromEpoch.output.contains("\"today\": \"2026-12-05\""))
        let fromOption = try cli.run(
            [sample, "--format", "json", "--today", "2027-01-01"], environment: epoch)
        #expect(fromOption.output.contains("\"today\": \"2027-01-01\""))
        let bad = try cli.run([sample], environment: ["SOURCE_DATE_EPOCH": "soon"])
        #expect(bad.status == 64)
        #expect(bad.stdout.isEmpty)
    }

    @Test func templatesCanBeLoadedFromAFolder() throws {
        let folder = scratch.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{{% CONTENT_TYPE: DETOUR_HTML}}<h1>{{title}}</h1>\n".utf8)
            .write(to: folder.appendingPathComponent("report.html.mustache"))
        try FileManager.default.copyItem(
            at: Fixtures.templates.appendingPathComponent("report.md.mustache"),
            to: folder.appendingPathComponent("report.md.mustache"))
        let result = try cli.run([sample, "--templates", folder.path])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("<h1>"))
        // One report template is enough: the built-in one serves each format whose file is absent.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("report.md.mustache"))
        let htmlOnly = try cli.run([sample, "--templates", folder.path])
        #expect(htmlOnly.status == 0, "\(htmlOnly.stderr)")
        #expect(htmlOnly.output.hasPrefix("<h1>"))
        let builtIn = try cli.run([sample, "--format", "markdown", "--today", "2026-11-22"])
        let markdown = try cli.run([
            sample, "--format", "markdown", "--today", "2026-11-22", "--templates", folder.path,
        ])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.output.hasPrefix("# "))
        if CI.runs(whenAvailable: Tool.usable("cmark-gfm")) {
            let read = try MarkdownCheck.gfm(markdown.output, unsafe: true)
            #expect(read == (try MarkdownCheck.gfm(builtIn.output, unsafe: true)), "the built-in template serves")
        }
        let out = scratch.appendingPathComponent("out")
        let batch = try cli.run([sample, "-d", out.path, "--format", "html,markdown", "--templates", folder.path])
        #expect(batch.status == 0, "\(batch.stderr)")

        // A folder with neither report template is a wrong path, not a wish for the defaults.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("report.html.mustache"))
        let missing = try cli.run([sample, "--templates", folder.path])
        #expect(missing.status == 78)
        #expect(
            missing.stderr.contains("/templates/report.html.mustache: error: template not found [template-missing]"))
        #expect(missing.stdout.isEmpty)
    }

    @Test(.enabled(if: Tool.fileUsable("/dev/full"), "needs /dev/full (Linux)"))
    func aFullDiskIsAnErrorNotASilentSuccess() throws {
        let result = try cli.run(["-c", "exec \"$0\" \"$1\" > /dev/full", cli.executable.path, sample], viaShell: true)
        #expect(result.status == 74)
        #expect(result.stderr.contains("No space left on device"))
    }

    @Test func travelAndPreferenceOptionsChangeThePlan() throws {
        let lisbon = Fixtures.samples.appendingPathComponent("lisbon-city-break.json").path
        let plain = try cli.run([lisbon, "--format", "json", "--today", "2026-11-22"])
        let driving = try cli.run([
            lisbon, "--format", "json", "--today", "2026-11-22", "--travel", "drive", "--prefer", "cost",
        ])
        #expect(plain.status == 0 && driving.status == 0)
        #expect(plain.output.contains("\"travel_mode\": \"transit\""))
        #expect(!driving.output.contains("\"travel_mode\": \"transit\""))
        #expect(driving.output.contains("\"prefer\": \"cost\""))
        let bad = try cli.run([lisbon, "--travel", "teleport"])
        #expect(bad.status == 64)
        #expect(bad.stdout.isEmpty)
    }

    @Test func versionNamesTheProgramAndLibxml2() throws {
        let result = try cli.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("detour-report "))
        #expect(result.output.contains("libxml2 2."))
    }
}
