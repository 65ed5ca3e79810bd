import ArgumentParser
import DetourRender
import SystemPackage

/// `--templates DIR`, for every command that renders: the template files read from the folder,
/// compiled and checked, their problems printed under the file names the user knows.
public enum TemplateFolder {
    /// The templates from `folder`; without one, only the built-in templates `builtIn`, compiled
    /// without checks (compiling a template costs more than rendering a small trip).
    ///
    /// At least one of `required` must be in the folder; the built-in template serves each of
    /// `required` and `optional` that is not. Every other `NAME.mustache` in the folder is a
    /// partial, `{{> NAME}}`: at most ``maxPartials``.
    public static func load(
        _ folder: String?, builtIn: [String], required: [String], optional: [String], printer: DiagnosticPrinter
    ) throws(ExitCode) -> ReportTemplates {
        do throws(ReportTemplates.LoadError) {
            guard let folder else { return try ReportTemplates.builtIn(builtIn) }
            var files: [String: String] = [:]
            for name in required + optional {
                let path = path(of: name, in: folder)
                guard let bytes = try? fileStore.contents(of: FilePath(path), limit: 1 << 20) else { continue }
                files[name] = String(decoding: bytes, as: UTF8.self)
            }
            // One report template is enough: the built-in one serves each format whose file is
            // absent. A folder with none is a mistake (a wrong path), not a wish for the defaults.
            if let first = required.first, !required.contains(where: { files[$0] != nil }) {
                throw .missing(path(of: first, in: folder))
            }
            for (name, text) in try partials(in: folder, besides: Set(required + optional)) { files[name] = text }
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

    /// The most partials a `--templates` folder may hold: far more than a report needs, few
    /// enough that reading them all costs nothing.
    public static let maxPartials = 100

    /// The folder's other templates, `NAME.mustache` read as the partial `NAME` (hidden files
    /// left out), each at most 1 MiB.
    private static func partials(in folder: String, besides known: Set<String>) throws(ReportTemplates.LoadError)
        -> [(String, String)]
    {
        let suffix = ".mustache"
        guard let entries = try? fileStore.entries(in: FilePath(folder)) else { return [] }
        let names = entries.map(\.name.string).filter {
            $0.hasSuffix(suffix) && !$0.hasPrefix(".") && !known.contains($0)
        }.sorted()
        guard names.count <= maxPartials else {
            throw .invalid(
                name: folder, line: 0, column: 0,
                reason: "the folder holds \(names.count) templates besides the reports', more than \(maxPartials)")
        }
        var partials: [(String, String)] = []
        for name in names {
            guard let bytes = try? fileStore.contents(of: FilePath(folder).appending(name), limit: 1 << 20) else {
                throw .missing(name)
            }
            partials.append((String(name.dropLast(suffix.count)), String(decoding: bytes, as: UTF8.self)))
        }
        return partials
    }

    /// A template file's path as the user would name it: inside the `--templates` folder.
    private static func path(of name: String, in folder: String?) -> String {
        guard let folder, !name.hasPrefix(folder) else { return name }
        return FilePath(folder).appending(name).string
    }
}
