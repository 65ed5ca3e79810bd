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

    /// `samples/gpx/`: the GPX twins of the JSON samples, in a folder of their own so that
    /// `detour-report samples/ -d out/` renders without a clash of report names.
    public static var gpxSamples: URL { samples.appendingPathComponent("gpx") }

    /// The sample trips with extension `ext` (JSON in `samples/`, GPX in `samples/gpx/`), by
    /// file name, sorted.
    public static func sampleTrips(extension ext: String = "json") -> [String] {
        let folder = ext == "gpx" ? gpxSamples : samples
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".\(ext)") && !$0.contains(".report.") }.sorted()
    }

    /// The sample trip file `name` (a `.gpx` name is looked up in `samples/gpx/`).
    public static func sampleURL(_ name: String) -> URL {
        (name.hasSuffix(".gpx") ? gpxSamples : samples).appendingPathComponent(name)
    }

    /// The bytes of a sample trip.
    public static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: sampleURL(name)))
    }
}
