/// Writes pretty-printed JSON straight into bytes, in the exact layout of
/// the JSON of ``JSONOutput`` (two-space indent, `"key": value`, `{}` and `[]` when empty).
///
/// The JSON report of a large trip is millions of values: building them as a ``JSONOutput`` tree
/// first held the whole report twice (tree and bytes) and spent a third of the run allocating
/// and freeing the tree. This writes each value where it goes. Containers are opened with
/// ``object(_:)`` and ``array(_:)``, whose closures write the members, so an open container
/// cannot be left unclosed.
struct JSONStream {
    /// The JSON so far, UTF-8 (since the last chunk handed to the sink, when there is one).
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// For each open container, whether it has no member yet.
    private var empty: [Bool] = []
    /// Where full chunks go; `nil` keeps the whole document in ``bytes``.
    private let sink: ReportSink?

    init(capacity: Int = 1 << 16, sink: ReportSink? = nil) {
        bytes.reserveCapacity(capacity)
        self.sink = sink
    }

    /// Hands what is written so far to the sink, when there is one.
    mutating func flush() {
        ReportChunk.hand(&bytes, to: sink)
    }

    /// An object; `body` writes its members with ``member(_:)`` followed by a value.
    mutating func object(_ body: (inout JSONStream) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// An array; `body` writes its elements, each after ``element()``.
    mutating func array(_ body: (inout JSONStream) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// An array of `items`, each written by `write`.
    mutating func array<S: Sequence>(_ items: S, _ write: (inout JSONStream, S.Element) -> Void) {
        array { stream in
            for item in items {
                stream.element()
                write(&stream, item)
            }
        }
    }

    /// Starts the member `key` of the object being written; its value comes next.
    ///
    /// The key is one of the report's own names, which need no escaping.
    mutating func member(_ key: StaticString) {
        assert(key.withUTF8Buffer { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } })
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes += "\": ".utf8
    }

    /// Starts the member whose key is `key`, text from elsewhere (escaped as any string).
    mutating func member(named key: String) {
        separate()
        JSONOutput.writeString(key, to: &bytes)
        bytes += ": ".utf8
    }

    /// Starts the next element of the array being written.
    mutating func element() {
        separate()
    }

    /// An array of numbers on one line, `[-9.1393, 38.7223]`: a GeoJSON position reads as one
    /// value, and a path of many points stays readable.
    mutating func inlineNumbers(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes += ", ".utf8 }
            bytes += text.utf8
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func string(_ text: String?) {
        guard let text else { return null() }
        JSONOutput.writeString(text, to: &bytes)
    }

    /// A number, written as this text (which must be a valid JSON number).
    mutating func number(_ text: String) {
        bytes += text.utf8
    }

    mutating func int(_ value: Int?) {
        guard let value else { return null() }
        bytes.appendDecimal(value)
    }

    mutating func bool(_ value: Bool) {
        bytes += (value ? "true" : "false").utf8
    }

    /// The newline that ends a document.
    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func null() {
        bytes += "null".utf8
    }

    /// A member whose value is `text` or `null`.
    mutating func member(_ key: StaticString, string text: String?) {
        member(key)
        string(text)
    }

    /// A member whose value is `value` or `null`.
    mutating func member(_ key: StaticString, int value: Int?) {
        member(key)
        int(value)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONStream) -> Void) {
        bytes.append(open)
        depth += 1
        empty.append(true)
        body(&self)
        depth -= 1
        if empty.removeLast() == false {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
        bytes.append(close)
    }

    /// `\n` before the first member, `,\n` before the others, then the indent.
    private mutating func separate() {
        ReportChunk.hand(&bytes, to: sink, once: ReportChunk.size)
        if empty[empty.count - 1] {
            empty[empty.count - 1] = false
            bytes.append(UInt8(ascii: "\n"))
        } else {
            bytes += ",\n".utf8
        }
        indent()
    }

    private mutating func indent() {
        var width = 2 * depth
        while width > 0 {
            let run = min(width, JSONStream.spaces.count)
            bytes.append(contentsOf: JSONStream.spaces[..<run])
            width -= run
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)
}

extension [UInt8] {
    /// `value` in decimal (`-42`), as `String(value)` writes it, without making the `String`:
    /// reports write hundreds of thousands of numbers.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Digits from the right into 24 bytes on the stack (UInt.max has 20).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(contentsOf: buffer[start...])
        }
    }
}
