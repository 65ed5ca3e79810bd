import Foundation
import PackagePlugin

/// Compiles the report templates in `Templates/` to Swift for the target it is applied to.
///
/// The templates stay plain Mustache files that users read and copy; this turns the built-in ones
/// into code at build time, as askama or sailfish do for Rust, so a report does not pay the
/// template engine's lookups. `--templates DIR` still renders through the engine.
@main
struct CompileTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".mustache") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledTemplates.swift")
        return [
            .buildCommand(
                displayName: "Compiling the report templates to Swift",
                executable: try context.tool(named: "detour-template-compiler").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output]
            )
        ]
    }
}
