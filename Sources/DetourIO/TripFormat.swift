/// The trip file formats detour-report reads.
public enum TripFormat: String, Sendable, CaseIterable {
    /// Trip JSON, version 1.
    case json
    /// GPX 1.1 or 1.0 in the detour-report mapping.
    case gpx

    /// The format of a trip file in a folder of trips, and the file's name without its
    /// extension: `NAME.json` or `NAME.gpx`, the extension in any case; `nil` for any other file.
    ///
    /// This is what a batch run, `validate` and the server take for a trip when they are given a
    /// folder. A file named on its own may also be `.xml` (``init(fileName:)``), but no `.xml` is
    /// picked out of a folder: most XML files are not trips.
    public static func ofTripInFolder(_ fileName: String) -> (stem: Substring, format: TripFormat)? {
        let bytes = fileName.utf8
        for format in allCases {
            let suffix = ("." + format.rawValue).utf8
            guard bytes.count > suffix.count else { continue }
            let start = bytes.index(bytes.endIndex, offsetBy: -suffix.count)
            // ASCII letters in either case; every other byte as it is.
            let lowered = bytes[start...].lazy.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            if lowered.elementsEqual(suffix) { return (fileName[..<start], format) }
        }
        return nil
    }

    /// The format a file name implies, or `nil` when its extension is not one we read.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".json") {
            self = .json
        } else if lowered.hasSuffix(".gpx") || lowered.hasSuffix(".xml") {
            self = .gpx
        } else {
            return nil
        }
    }

    /// The format the first bytes of a file suggest: `<` means XML, anything else JSON.
    public init(sniffing prefix: [UInt8]) {
        let start = prefix.drop { [0xEF, 0xBB, 0xBF, 0xFE, 0xFF, 0x00, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
        self = start.first == UInt8(ascii: "<") ? .gpx : .json
    }
}
