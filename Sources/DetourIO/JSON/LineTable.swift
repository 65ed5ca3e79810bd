/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
///
/// It keeps a reference to the text and scans it only when asked, so a file with no problems
/// costs nothing here.
public struct LineTable: Sendable {
    private let bytes: [UInt8]

    /// A table over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The line and column of a byte offset.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        positions(of: [offset])[offset] ?? (1, 1)
    }

    /// The lines and columns of many byte offsets, found in one pass over the text.
    public func positions(of offsets: [Int]) -> [Int: (line: Int, column: Int)] {
        var wanted = ArraySlice(Set(offsets.map { min(max($0, 0), bytes.count) }).sorted())
        var found: [Int: (line: Int, column: Int)] = [:]
        var line = 1
        var column = 1
        var index = 0
        while let next = wanted.first {
            while index < next {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1  // count scalars, not bytes: skip UTF-8 continuation bytes
                }
                index += 1
            }
            found[next] = (line, column)
            wanted = wanted.dropFirst()
        }
        for offset in offsets where found[offset] == nil {
            found[offset] = found[min(max(offset, 0), bytes.count)]
        }
        return found
    }
}
