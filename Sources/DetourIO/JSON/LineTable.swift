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
        positions(of: [offset])[0]
    }

    /// The lines and columns of many byte offsets, in the order given, found in one pass over
    /// the text; an offset before the text or past its end is where the text starts or ends.
    public func positions(of offsets: [Int]) -> [(line: Int, column: Int)] {
        var found = Array(repeating: (line: 1, column: 1), count: offsets.count)
        var line = 1
        var column = 1
        var index = 0
        for slot in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let next = min(max(offsets[slot], 0), bytes.count)
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
            found[slot] = (line, column)
        }
        return found
    }
}
