import Foundation

/// Paths to the repository's files, found from this source file so tests run from anywhere.
public enum Fixtures {
    /// The repository's root folder.
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DetourTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `samples/`.
    public static var samples: URL { repository.appendingPathComponent("samples") }

    /// `Templates/`.
    public static var templates: URL { repository.appendingPathComponent("Templates") }

    /// `Tests/Corpus/`: the vendored test corpora (`gpx-real`, `hostile`), outside every target.
    public static var corpus: URL { repository.appendingPathComponent("Tests/Corpus") }

    /// The JSON sample trips, sorted by name.
    public static func sampleTrips(extension ext: String = "json") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        return names.filter { $0.hasSuffix(".\(ext)") && !$0.contains(".report.") }.sorted()
    }

    /// The bytes of a sample trip.
    public static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: samples.appendingPathComponent(name)))
    }
}
