import DetourCore

/// The trip file formats detour-report reads.
public enum TripFormat: String, Sendable, CaseIterable {
    /// Trip JSON, version 1.
    case json
    /// GPX 1.1 or 1.0 in the detour-report mapping.
    case gpx

    /// The format of a trip file in a folder of trips, and the file's name without its
    /// extension: `NAME.json` or `NAME.gpx`, the extension in lower case; `nil` for any other file.
    ///
    /// This is the one rule a batch run, `validate` and the server follow when they take trips
    /// out of a folder. The extension is matched as written, so that one trip is one file on every
    /// file system and the server's `PUT` replaces the very file its `GET` read; a file whose
    /// extension differs only in case (`Lisbon.JSON`) is named by ``misspelledInFolder(_:)`` so
    /// that a run can say why it was left out. A file named on its own may also be `.xml`, in any
    /// case (``init(fileName:)``), but no `.xml` is picked out of a folder: most XML files are not
    /// trips.
    public static func ofTripInFolder(_ fileName: String) -> (stem: Substring, format: TripFormat)? {
        guard let (stem, format, exact) = extensionInAnyCase(fileName), exact else { return nil }
        return (stem, format)
    }

    /// The name `fileName` would be a trip under (`Lisbon.json`), when only the case of its
    /// extension keeps it out of a folder's trips (`Lisbon.JSON`, `oslo.Gpx`); `nil` for a trip
    /// file or any other file.
    public static func misspelledInFolder(_ fileName: String) -> String? {
        guard let (stem, format, exact) = extensionInAnyCase(fileName), !exact else { return nil }
        return stem + "." + format.rawValue
    }

    /// `NAME.json` or `NAME.gpx` with the extension in any case, split, and whether the extension
    /// is written in lower case.
    private static func extensionInAnyCase(_ fileName: String) -> (stem: Substring, format: TripFormat, exact: Bool)? {
        let bytes = fileName.utf8
        for format in allCases {
            let suffix = ("." + format.rawValue).utf8
            guard bytes.count > suffix.count else { continue }
            let start = bytes.index(bytes.endIndex, offsetBy: -suffix.count)
            // ASCII letters in either case; every other byte as it is.
            let lowered = bytes[start...].lazy.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            if lowered.elementsEqual(suffix) {
                return (fileName[..<start], format, bytes[start...].elementsEqual(suffix))
            }
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

extension Diagnostic {
    /// The warning for a file of a folder that ``TripFormat/misspelledInFolder(_:)`` names:
    /// `leftOut` says what was not done with it (`read`, `served`); `renamed` is the name to give it.
    public static func tripExtensionCase(_ leftOut: String, renamed: String) -> Diagnostic {
        Diagnostic(
            .tripExtensionCase,
            "not \(leftOut): a trip file in a folder ends in \".json\" or \".gpx\" in lower case; rename it "
                + Quoting.quoted(renamed, limit: nil))
    }
}
