import DetourTestSupport
import Foundation
import Testing

/// Every target of `Sources/` declares in `Package.swift` each module it imports: a module reached
/// only through another target's dependency breaks when that target drops it, and hides what the
/// target links.
@Suite struct DeclaredImportsTests {
    /// The toolchain's own modules, which no manifest declares.
    static let toolchain: Set<String> = [
        "Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Synchronization", "_FoundationICU",
    ]

    /// Each target's name and the modules its entry in the manifest declares (targets by name,
    /// products by their `name:`).
    static func declared(in manifest: String) -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        let entries = ["Target(", ".target(", ".systemLibrary("].flatMap {
            manifest.components(separatedBy: $0).dropFirst()
        }
        for entry in entries {
            guard let name = quoted(after: "name: ", in: entry) else { continue }
            guard let start = entry.range(of: "dependencies: [") else {
                targets[name] = []
                continue
            }
            var depth = 1
            var end = start.upperBound
            while depth > 0, end < entry.endIndex {
                if entry[end] == "[" { depth += 1 }
                if entry[end] == "]" { depth -= 1 }
                end = entry.index(after: end)
            }
            let list = entry[start.upperBound..<end]
            // Every quoted name in the list but a package's.
            let parts = list.split(separator: "\"", omittingEmptySubsequences: false)
            targets[name] = Set(
                parts.indices.filter { $0 % 2 == 1 && !parts[$0 - 1].hasSuffix("package: ") }.map { String(parts[$0]) })
        }
        return targets
    }

    static func quoted(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker + "\"") else { return nil }
        return text[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    /// The modules the Swift files under `folder` import: at the start of a line, as Swift has
    /// them (an indented `import` is in a string, such as the code the template compiler writes).
    static func imports(under folder: URL) -> Set<String> {
        var found: Set<String> = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = walker?.nextObject() as? URL {
            guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                continue
            }
            for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "package"].contains($0) })
                else { continue }
                found.insert(String(words[index + 1]))
            }
        }
        return found
    }

    @Test func everyTargetDeclaresWhatItImports() throws {
        let root = Fixtures.repository
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = Self.declared(in: manifest)
        let sources = root.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        #expect(folders.count > 10)
        var undeclared: [String] = []
        for folder in folders.sorted() {
            guard let modules = declared[folder] else {
                undeclared.append("\(folder): no entry in Package.swift")
                continue
            }
            let own = folder.replacingOccurrences(of: "-", with: "_")
            for module in Self.imports(under: sources.appendingPathComponent(folder)).sorted()
            where !modules.contains(module) && !Self.toolchain.contains(module) && module != own {
                undeclared.append("\(folder) imports \(module)")
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "\n"))")
    }

    @Test func aTargetsDeclarationsAreReadFromTheManifest() {
        let manifest = """
            .executableTarget(
                name: "tool",
                dependencies: ["Core", .product(name: "ArgumentParser", package: "swift-argument-parser")]
            ),
            .target(name: "Core"),
            """
        #expect(Self.declared(in: manifest) == ["tool": ["Core", "ArgumentParser"], "Core": []])
    }
}
