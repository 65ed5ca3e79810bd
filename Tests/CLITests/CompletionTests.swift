import DetourTestSupport
import Foundation
import Testing

/// The completion scripts the binary writes, run in the shells themselves: bash through
/// `COMP_WORDS` and the completion function, fish through `complete -C`; zsh is parsed.
@Suite struct CompletionTests {
    let cli: CommandRunner
    let folder: ScratchFolder
    var scratch: URL { folder.url }

    init() throws {
        cli = try CommandRunner.built()
        folder = try ScratchFolder("detour-completion")
        // A folder to complete in: trips, a report, a folder of templates, a program.
        let files = ["lisbon.json", "oslo.gpx", "notes.txt", "plan.html", "Templates/report.html.mustache"]
        for file in files {
            let url = scratch.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
    }

    func script(_ shell: String) throws -> URL {
        let result = try cli.run(["--generate-completion-script", shell])
        try #require(result.status == 0, "\(result.stderr)")
        let url = scratch.appendingPathComponent("completion.\(shell)")
        try result.stdout.write(to: url)
        return url
    }

    /// What bash offers for `line` (words split on spaces; a trailing space starts a new word).
    func bash(_ lines: [String]) throws -> [String] {
        let bash = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("bash"))))
        let driver = """
            source "$1"; shift
            cd "$1"; shift
            for line in "$@"; do
                read -r -a COMP_WORDS <<< "$line"
                [[ "$line" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$line"; COMP_POINT=${#line}; COMPREPLY=()
                _detour-report detour-report "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "$(printf '%s\\n' "${COMPREPLY[@]}" | sort | tr '\\n' ' ')"
            done
            """
        let result = try bash.run(
            ["-c", driver, "bash", try script("bash").path, scratch.path] + lines,
            environment: ["PATH": cli.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    static let cases: [(line: String, offered: String)] = [
        // The first word: a command or a trip (JSON, GPX, folders).
        (
            "detour-report ",
            "--help --version -h Templates help import index init lisbon.json oslo.gpx render serve user validate"
        ),
        ("detour-report se", "serve"),
        ("detour-report li", "lisbon.json"),
        // Under the default command, as under render.
        ("detour-report lisbon.json --format ", "geojson gpx html ics json markdown pdf"),
        ("detour-report render lisbon.json --format ", "geojson gpx html ics json markdown pdf"),
        ("detour-report lisbon.json --paper ", "a4 letter"),
        ("detour-report lisbon.json --travel ", "cycle drive transit walk"),
        ("detour-report lisbon.json --prefer ", "cost distance time"),
        ("detour-report lisbon.json --format md --paper l", "letter"),
        ("detour-report lisbon.json o", "oslo.gpx"),
        ("detour-report lisbon.json -o pl", "plan.html"),
        ("detour-report lisbon.json -d Te", "Templates"),
        ("detour-report lisbon.json --templates Te", "Templates"),
        ("detour-report lisbon.json --browser no", "notes.txt"),
        ("detour-report validate li", "lisbon.json"),
        ("detour-report index Te", "Templates"),
        ("detour-report serve Te", "Templates"),
    ]

    @Test func bashCompletesTripsFoldersAndValuesUnderTheDefaultCommand() throws {
        let offered = try bash(Self.cases.map(\.line))
        try #require(offered.count == Self.cases.count, "\(offered)")
        for (index, expected) in Self.cases.enumerated() {
            #expect(offered[index] == expected.offered, "\(expected.line)")
        }
    }

    @Test(.enabled(if: CI.runs(whenAvailable: Tool.usable("fish")), "needs fish"))
    func fishCompletesTheSame() throws {
        let fish = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("fish"))))
        let driver = """
            source $argv[1]; cd $argv[2]
            for line in $argv[3..]
                echo (complete -C"$line" | cut -f1 | sort | string join ' ')
            end
            """
        let cases = Self.cases.filter { !$0.line.hasSuffix("detour-report ") }
        let result = try fish.run(
            ["-c", driver, try script("fish").path, scratch.path] + cases.map(\.line),
            environment: ["PATH": cli.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"])
        try #require(result.status == 0, "\(result.stderr)")
        let offered = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        try #require(offered.count == cases.count, "\(result.output)")
        for (index, expected) in cases.enumerated() {
            // fish writes a folder with its slash.
            #expect(offered[index].replacingOccurrences(of: "/", with: "") == expected.offered, "\(expected.line)")
        }
    }

    @Test(.enabled(if: CI.runs(whenAvailable: Tool.usable("zsh")), "needs zsh"))
    func zshReadsItsScriptWithTheDefaultCommand() throws {
        let zsh = CommandRunner(executable: URL(fileURLWithPath: try #require(Tool.path("zsh"))))
        let url = try script("zsh")
        let parsed = try zsh.run(["-n", url.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("_files -g '*.json *.gpx' && ret=0"))
        #expect(text.contains("words=(render \"${words[@]}\")"))
    }
}
