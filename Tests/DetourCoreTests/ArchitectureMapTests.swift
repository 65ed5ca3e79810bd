import DetourTestSupport
import Foundation
import Testing

/// `docs/ARCHITECTURE.md` is the map of the code: every file and folder it names in backticks
/// (`Delivery.swift`, `Batch/Ownership.swift`, `Formats/`, `docs/openapi.yaml`) is there, so the
/// map cannot point at nothing after a file is moved or renamed.
@Suite struct ArchitectureMapTests {
    /// The repository's files and folders, as paths from its root, without build folders.
    static func paths() -> [String] {
        let root = Fixtures.repository.standardizedFileURL.path
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            if path.hasPrefix(".build") || path.hasPrefix(".git") {
                walker?.skipDescendants()
                continue
            }
            found.append("/" + path)
        }
        return found
    }

    /// What the map names in backticks that has the shape of a file (a known extension) or of a
    /// folder (a name ending with `/`); a system header (`<libxml/xmlversion.h>`) is none of ours.
    static func named(in text: String) -> Set<String> {
        let spans = text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
            $0.offset % 2 == 1
        }
        let extensions = [".swift", ".md", ".yaml", ".py", ".h"]
        return Set(
            spans.map { String($0.element) }.filter { span in
                !span.contains(" ") && !span.hasPrefix("-") && !span.hasPrefix("<")
                    && (extensions.contains { span.hasSuffix($0) } || (span.hasSuffix("/") && span.count > 1))
            })
    }

    @Test func everyFileAndFolderTheMapNamesExists() throws {
        let map = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let names = Self.named(in: map)
        #expect(names.count > 40, "\(names.sorted())")
        let paths = Self.paths()
        let missing = names.filter { name in
            let suffix = "/" + (name.hasSuffix("/") ? String(name.dropLast()) : name)
            return !paths.contains { $0.hasSuffix(suffix) }
        }
        #expect(missing.isEmpty, "named in ARCHITECTURE.md, found nowhere: \(missing.sorted())")
    }

    @Test func aNameThatIsNoFileIsNotTaken() {
        let names = ArchitectureMapTests.named(
            in: "`RenderJob` in `RenderJob.swift`, `Batch/`, `--format`, `/`, `a b.md`, `<stdio.h>`")
        #expect(names == ["RenderJob.swift", "Batch/"])
    }
}
