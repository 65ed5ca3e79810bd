import DetourCore
import SystemPackage

/// A first argument that names no file but is close to a command's name: `serv` for `serve`.
public enum CommandSuggestion {
    /// The command `argument` was probably meant to be: the nearest of `commands` within an
    /// edit distance of 2, when `argument` looks like a word (no `/`, no `.`, not `-`) and no
    /// file of that name exists; otherwise `nil`, and the argument is taken as a trip.
    public static func mistyped(_ argument: String, among commands: [String]) -> String? {
        guard argument != "-", !argument.contains("/"), !argument.contains("."), !argument.isEmpty else { return nil }
        if (try? fileStore.info(FilePath(argument), followLinks: false)) != nil { return nil }
        return Suggestions.nearest(to: argument.lowercased(), among: commands, within: 2).first
    }
}
