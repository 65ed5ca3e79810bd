/// Where a reader gets its bytes: a whole buffer, or a stream the caller opens.
///
/// Readers never open files themselves; the executable hands them a source. A streaming source
/// lets the GPX reader keep its memory flat however large the file is.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer`; returns how many (0 at the end), or throws.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A source over bytes already in memory.
public struct BufferSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// A source that yields `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
