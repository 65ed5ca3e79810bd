import DetourCore
import DetourIO

/// Reading a trip file as its format asks: GPX streams; JSON is read whole, up to its limit.
enum TripInput {
    /// How many bytes are looked at to tell JSON from GPX when the name does not say.
    static let sniffLength = 64

    /// Reads and validates the trip in `file`.
    ///
    /// The format is `format`, else the name's extension, else what the first bytes look like (`<` is
    /// XML).
    static func read(
        _ file: any ReadableFile, name: String, format: TripFormat?, limits: ReadLimits
    ) throws -> TripValidator.Outcome {
        var declared = format ?? TripFormat(fileName: name)
        var prefix: [UInt8] = []
        if declared == nil {
            prefix = try readUpTo(sniffLength, from: file)
            declared = TripFormat(sniffing: prefix)
        }
        if declared == .gpx {
            // GPX streams: a track of millions of points never sits in memory whole.
            return TripLoader.loadGPX(PrefixedSource(prefix, then: file), name: name, limits: limits)
        }
        if let size = file.regularFileSize, size > limits.maxJSONBytes {
            return TripValidator.Outcome(trip: nil, diagnostics: [FileChecks.tooLarge(.json, limits: limits)])
        }
        guard let bytes = try readWhole(file, after: prefix, limit: limits.maxJSONBytes) else {
            return TripValidator.Outcome(trip: nil, diagnostics: [FileChecks.tooLarge(.json, limits: limits)])
        }
        return TripLoader.load(bytes, format: .json, limits: limits)
    }

    /// Up to `count` bytes from the start of `file` (fewer only at its end).
    static func readUpTo(_ count: Int, from file: any ReadableFile) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = try bytes.withUnsafeMutableBytes { buffer in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// `prefix` and the rest of `file`; `nil` when that is longer than `limit` bytes (reading
    /// stops there, so a huge file is never held whole).
    static func readWhole(_ file: any ReadableFile, after prefix: [UInt8], limit: Int) throws -> [UInt8]? {
        var bytes = prefix
        if let size = file.regularFileSize { bytes.reserveCapacity(size) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return nil
    }
}

/// The bytes already read from a file, then the rest of it.
private struct PrefixedSource: ByteSource {
    var prefix: [UInt8]
    var offset = 0
    let file: any ReadableFile

    init(_ prefix: [UInt8], then file: any ReadableFile) {
        self.prefix = prefix
        self.file = file
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < prefix.count else { return try file.read(into: buffer) }
        let count = min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
