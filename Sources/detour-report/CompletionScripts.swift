import ArgumentParser

/// The shell completion scripts, as ArgumentParser writes them, taught that `render` is the
/// default command.
///
/// ArgumentParser's scripts take the first word for a subcommand, so after
/// `detour-report trip.json --format` they offered the subcommands' names instead of the
/// formats, and no trip file at all. Each script is changed at one place per shell (the root's
/// dispatch on the first word): a first word that is no command is completed, and read, as
/// `render`'s. A change that no longer finds its place fails the completion tests, which run
/// the bash script in bash.
enum CompletionScripts {
    /// `--generate-completion-script SHELL` (or `=SHELL`) as the first arguments: the shell
    /// asked for, or `nil` when the arguments ask for something else (ArgumentParser then
    /// handles them, and names a shell it does not know).
    static func requested(in arguments: [String]) -> CompletionShell? {
        let option = "--generate-completion-script"
        guard let first = arguments.first else { return nil }
        if first == option, arguments.count == 2 { return CompletionShell(rawValue: arguments[1]) }
        if first.hasPrefix(option + "="), arguments.count == 1 {
            return CompletionShell(rawValue: String(first.dropFirst(option.count + 1)))
        }
        return nil
    }

    /// The script for `shell`, with `render` completing a first word that is no command.
    static func script(for shell: CompletionShell) -> String {
        let generated = DetourReport.completionScript(for: shell)
        switch shell {
        case .bash: return bash(generated)
        case .zsh: return zsh(generated)
        case .fish: return fish(generated)
        default: return generated
        }
    }

    /// The names of the commands, as the scripts list them.
    private static var commands: String { (DetourReport.commandNames + ["help"]).joined(separator: " ") }

    private static func bash(_ script: String) -> String {
        let dispatch = """
                *)
                    # Offer subcommand completions
                    COMPREPLY+=($(compgen -W '\(commands)' -- "${cur}"))

            """
        return script.replacingOccurrences(
            of: dispatch,
            with: """
                    *)
                        # Offer subcommand completions for the first word
                        if [[ "${COMP_CWORD}" -eq 1 ]]; then
                            COMPREPLY+=($(compgen -W '\(commands)' -- "${cur}"))
                        fi
                        # render is the default command: a first word that is no command is its trip.
                        unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                        _detour-report_render

                """)
    }

    private static func zsh(_ script: String) -> String {
        var out: [String] = []
        var afterDispatch = false
        for line in script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            out.append(line)
            if line == "        _describe -V subcommand subcommands && ret=0" {
                // The first word: a command, or render's trip.
                out.append("        _files -g '*.json *.gpx' && ret=0")
            }
            if line == "            \"_detour-report_${words[1]}\" && ret=0" { afterDispatch = true }
            if afterDispatch, line == "            ;;" {
                afterDispatch = false
                out += [
                    "        *)",
                    "            # render is the default command: a first word that is no command is its trip.",
                    "            words=(render \"${words[@]}\")",
                    "            (( CURRENT += 1 ))",
                    "            _detour-report_render && ret=0",
                    "            ;;",
                ]
            }
        }
        return out.joined(separator: "\n")
    }

    private static func fish(_ script: String) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        // render's own trip completion, offered for the first word too.
        let renderTrips = "__detour-report_should_offer_completions_for_positional \"detour-report render\" -ge 1"
        let firstWord = "__detour-report_should_offer_completions_for_positional \"detour-report\" -eq 1"
        var out: [String] = []
        var renderParse: String?
        for line in lines {
            // In the parser, a first word that is no command is read as render's: a last case.
            if line == "        end", let parse = renderParse {
                out += ["        case '?*'", "            set -p unparsed_tokens render", parse]
                renderParse = nil
            }
            if out.last == "        case 'render'" { renderParse = String(line) }
            out.append(String(line))
            if line.contains(renderTrips) {
                out.append(line.replacingOccurrences(of: renderTrips, with: firstWord))
            }
        }
        return out.joined(separator: "\n")
    }
}
