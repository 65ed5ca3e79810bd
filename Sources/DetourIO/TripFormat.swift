/// The trip file formats detour-report reads.
public enum TripFormat: String, Sendable, CaseIterable {
    /// Trip JSON, version 1.
    case json
    /// GPX 1.1 or 1.0 in the detour-report mapping.
    case gpx

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
