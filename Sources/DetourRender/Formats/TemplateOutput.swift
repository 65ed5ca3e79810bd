/// Where a compiled template writes: UTF-8 bytes, with the same escapers the engine applies.
///
/// The functions in `CompiledTemplates` (generated from `Templates/` at build time) call only
/// these, so what a compiled template writes for a value is decided here, once, the way the
/// template engine decides it: text as it is, numbers in decimal, flags as `true`/`false`,
/// nothing for a missing value.
struct TemplateOutput {
    /// What has been written (since the last chunk handed to the sink, when there is one).
    private(set) var bytes: [UInt8] = []
    /// Where full chunks go; `nil` keeps the whole report in ``bytes``.
    private let sink: ReportSink?

    init(sink: ReportSink? = nil) {
        self.sink = sink
        bytes.reserveCapacity(sink == nil ? 1 << 12 : ReportChunk.size + (1 << 12))
    }

    /// Hands what is written so far to the sink, when there is one.
    mutating func flush() {
        ReportChunk.hand(&bytes, to: sink)
    }

    /// Template text, written as it is.
    ///
    /// Chunks are cut here, between a template's pieces.
    mutating func text(_ text: StaticString) {
        ReportChunk.hand(&bytes, to: sink, once: ReportChunk.size)
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A value written without escaping (`{{{name}}}`).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func raw(_ text: String?) {
        if let text { raw(text) }
    }

    mutating func raw(_ number: Int) {
        bytes.appendDecimal(number)
    }

    mutating func raw(_ flag: Bool) {
        raw(flag ? "true" : "false")
    }

    /// A value escaped for HTML (`{{name}}` under `DETOUR_HTML`).
    mutating func html(_ text: String) {
        Escaping.html(text, into: &bytes)
    }

    mutating func html(_ text: String?) {
        if let text { html(text) }
    }

    mutating func html(_ number: Int) {
        raw(number)
    }

    mutating func html(_ flag: Bool) {
        raw(flag)
    }

    /// A value escaped for Markdown (`{{name}}` under `DETOUR_MARKDOWN`).
    mutating func markdown(_ text: String, _ context: MarkdownContext = .conservative) {
        Escaping.markdown(text, context, into: &bytes)
    }

    mutating func markdown(_ text: String?, _ context: MarkdownContext = .conservative) {
        if let text { markdown(text, context) }
    }

    mutating func markdown(_ number: Int, _ context: MarkdownContext = .conservative) {
        markdown(String(number), context)
    }

    mutating func markdown(_ flag: Bool, _: MarkdownContext = .conservative) {
        raw(flag)
    }

    /// A section's value as an optional, whether or not the model's property is one: the engine
    /// shows a section for any value that is there, even empty text.
    static func present<Value>(_ value: Value) -> Value? { value }

    static func present<Value>(_ value: Value?) -> Value? { value }
}

/// An element's place in the list a section repeats over: what `first()`, `last()`, `index()`,
/// `even()` and `odd()` read in a template.
struct TemplatePosition {
    /// 0-based.
    var index: Int
    /// How many elements the list has.
    var count: Int

    var isFirst: Bool { index == 0 }
    var isLast: Bool { index == count - 1 }
    var isEven: Bool { index & 1 == 0 }
    var isOdd: Bool { index & 1 == 1 }
}

/// Takes a report's bytes a chunk at a time, in order, as they are made; the executable writes
/// each to the output, so a large report is never held whole.
public typealias ReportSink = ([UInt8]) -> Void

/// How reports are cut into chunks for a ``ReportSink``.
enum ReportChunk {
    /// A chunk is handed on once it holds at least this many bytes.
    static let size = 1 << 16

    /// Hands `bytes` to `sink` and empties them, when there is a sink and they hold at least
    /// `minimum` bytes (any at all by default): how both report writers cut their chunks.
    static func hand(_ bytes: inout [UInt8], to sink: ReportSink?, once minimum: Int = 1) {
        guard let sink, bytes.count >= minimum, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
