import DetourCore
import SystemPackage

/// A first argument that names no file but is close to a command's name: `serv` for `serve`.
public enum CommandSuggestion {
    /// The command `argument` was probably meant to be (``Suggestions/likely(_:among:)``), when `argument` looks like a word (no `/`, no `.`, not `-`) and no
    /// file of that name exists; otherwise `nil`, and the argument is taken as a trip.
    public static func mistyped(_ argument: String, among commands: [String]) -> String? {
        guard argument != "-", !argument.contains("/"), !argument.contains("."), !argument.isEmpty else { return nil }
        if (try? fileStore.info(FilePath(argument), followLinks: false)) != nil { return nil }
        return Suggestions.likely(argument.lowercased(), among: commands)
    }
}
