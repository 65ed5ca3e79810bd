import DetourTestSupport
import Foundation
import Testing

/// Which targets do I/O, as `docs/ARCHITECTURE.md` says ("Core does no I/O"): a scan of the
/// sources for the calls that open files, list folders, watch them, read the environment or the
/// clock, or start programs.
@Suite struct IORuleTests {
    /// What does I/O, by what Swift and the C library name it.
    static let calls = try? NSRegularExpression(
        pattern: [
            #"FileManager|FileHandle|FileDescriptor|Date\(\)|getenv\(|environment\b"#,
            #"fopen\(|opendir\(|openat\(|\bopen\([^)]*O_[A-Z]|contentsOfFile|String\(contentsOf|Data\(contentsOf"#,
            #"inotify_|\blstat\(|\bstat\(|Process\(\)|posix_spawn|\bmkdir\(|\bflock\("#,
        ].joined(separator: "|"))

    /// The targets that read only from bytes they are handed and write only into a sink.
    static let pure = [
        "DetourCore", "DetourIO", "DetourRender", "DetourTemplateSchema", "DetourMustacheSyntax", "DetourBase",
        "DetourPlaces",
    ]

    /// Where a library may do I/O: a whole target, or one folder or file of one.
    static let allowed = [
        "DetourFiles/", "DetourCommandLine/", "DetourServer/Store/", "DetourAccounts/AccountsFolder.swift",
    ]

    /// Each Swift file under `Sources/` (as `TARGET/PATH`) whose code, comments left out, makes
    /// such a call.
    static func doingIO() throws -> [String] {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let calls = try #require(calls)
        return try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
            .filter { path in
                let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
                return text.split(separator: "\n").contains { line in
                    let code = String(line.trimmingCharacters(in: .whitespaces))
                    guard !code.hasPrefix("//") else { return false }
                    return calls.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
                }
            }.sorted()
    }

    @Test func onlyTheFilesStoresAndCommandLineDoIO() throws {
        let found = try Self.doingIO()
        #expect(found.count > 10, "\(found)")
        let impurePure = found.filter { path in Self.pure.contains { path.hasPrefix($0 + "/") } }
        #expect(impurePure.isEmpty, "I/O in a pure target: \(impurePure)")
        let libraries = found.filter { path in
            guard let target = path.split(separator: "/").first else { return false }
            return target.hasPrefix("Detour")
        }
        let outside = libraries.filter { path in !Self.allowed.contains { path.hasPrefix($0) } }
        #expect(outside.isEmpty, "I/O where the map does not say: \(outside)")
        #expect(found.contains("DetourFiles/LocalFileStore.swift"))
        #expect(found.contains("DetourServer/Store/FolderWatch.swift"))
    }

    @Test func theScanFindsEachKindOfCall() throws {
        let calls = try #require(Self.calls)
        for line in [
            "let d = open(path, O_RDONLY)", "FileManager.default.removeItem(at: x)", "let now = Date()",
            "inotify_add_watch(fd, path, mask)", "ProcessInfo.processInfo.environment[\"X\"]", "lstat(path, &info)",
        ] {
            #expect(calls.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "\(line)")
        }
        for line in ["switch open(source, name: name, limits: limits) {", "guard clients.open(client) else {"] {
            #expect(calls.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) == nil, "\(line)")
        }
    }
}
