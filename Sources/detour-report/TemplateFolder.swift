import ArgumentParser
import DetourRender
import SystemPackage

/// `--templates DIR`, for every command that renders: the template files read from the folder,
/// compiled and checked, their problems printed under the file names the user knows.
enum TemplateFolder {
    /// The templates from `folder`; without one, only the built-in templates `builtIn`, compiled
    /// without checks (compiling a template costs more than rendering a small trip).
    ///
    /// `required` must be in the folder; `optional` may be, else the built-in ones serve.
    static func load(
        _ folder: String?, builtIn: [String], required: [String], optional: [String], printer: DiagnosticPrinter
    ) throws(ExitCode) -> ReportTemplates {
        do throws(ReportTemplates.LoadError) {
            guard let folder else { return try ReportTemplates.builtIn(builtIn) }
            var files: [String: String] = [:]
            for name in required + optional {
                let path = path(of: name, in: folder)
                guard let bytes = try? fileStore.contents(of: FilePath(path), limit: 1 << 20) else {
                    if optional.contains(name) { continue }
                    throw .missing(path)
                }
                files[name] = String(decoding: bytes, as: UTF8.self)
            }
            let loaded = try ReportTemplates.bundled(replacing: files)
            for warning in loaded.warnings {
                printer.print([warning.diagnostic], file: path(of: warning.file, in: folder))
            }
            return loaded
        } catch {
            printer.print([error.diagnostic], file: path(of: error.file, in: folder))
            throw ExitCodes.badTemplates
        }
    }

    /// A template file's path as the user would name it: inside the `--templates` folder.
    private static func path(of name: String, in folder: String?) -> String {
        guard let folder, !name.hasPrefix(folder) else { return name }
        return FilePath(folder).appending(name).string
    }
}
