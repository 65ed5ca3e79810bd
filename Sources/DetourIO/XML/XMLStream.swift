import CLibXML2
import DetourCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pull parser over libxml2's `xmlTextReader`, set up so no document can reach the network,
/// the file system or a large amount of memory.
///
/// Options: `XML_PARSE_NONET` only. Never `NOENT` (no entity is substituted), `DTDLOAD`,
/// `DTDATTR`, `DTDVALID`, `XINCLUDE`, `HUGE` or `RECOVER`. The process-wide external-entity
/// loader refuses every request, and callers stop at a DOCTYPE before any entity is used.
/// Errors are collected through a structured handler, so nothing of libxml2's reaches stderr.
final class XMLStream {
    /// One error libxml2 reported.
    struct Problem {
        /// libxml2's `xmlParserErrors` number, such as `XML_ERR_INVALID_CHAR`.
        var code: Int32
        var message: String
        var line: Int
        var column: Int

        /// The bytes are not in the encoding the document declares (or UTF-8).
        var isEncoding: Bool {
            code == Int32(XML_ERR_INVALID_CHAR.rawValue) || code == Int32(XML_ERR_INVALID_ENCODING.rawValue)
        }

        /// Entities that refer to each other in a loop.
        var isEntityLoop: Bool { code == Int32(XML_ERR_ENTITY_LOOP.rawValue) }

        /// The problem libxml2 reports in `error`: its number, its message trimmed (a stand-in
        /// when it has none) and where it was found.
        init(_ error: xmlError) {
            code = error.code
            message = error.message.map { TokenText.trimmed(String(cString: $0)) } ?? "unknown XML error"
            line = Int(error.line)
            column = Int(error.int2)
        }
    }

    /// The kinds of node the reader stops at, as libxml2 numbers them.
    enum NodeType: Int32 {
        case element = 1
        case text = 3
        case cdata = 4
        case documentType = 10
        case whitespace = 13
        case significantWhitespace = 14
        case endElement = 15
    }

    private static let guards: Void = clibxml2_install_guards()

    /// Installs the process-wide guards now.
    static func prepare() {
        guards
    }

    private let reader: xmlTextReaderPtr
    private let input: InputBox

    /// Opens a reader over `source`; `prefix` holds bytes already read from it.
    init?(source: any ByteSource, prefix: [UInt8], name: String, limits: ReadLimits) {
        XMLStream.guards
        clibxml2_quiet_generic_errors()
        let input = InputBox(
            source: source, pending: prefix, maxBytes: limits.maxGPXBytes,
            guardian: MarkupGuard(limit: limits.maxAttributes, maxDepth: limits.maxDepth, prefix: prefix))
        let inputPointer = Unmanaged.passRetained(input)
        guard
            let reader = xmlReaderForIO(
                XMLStream.readCallback, XMLStream.closeCallback, inputPointer.toOpaque(), name, nil,
                Int32(XML_PARSE_NONET.rawValue))
        else {
            inputPointer.release()
            return nil
        }
        // The reader holds one reference to the input and drops it in closeCallback; errors
        // reach the input too, through the reference this stream holds.
        self.reader = reader
        self.input = input
        xmlTextReaderSetStructuredErrorHandler(
            reader, XMLStream.errorCallback, Unmanaged.passUnretained(input).toOpaque())
    }

    deinit { xmlFreeTextReader(reader) }

    /// Where the start tag of the element last read ends, as the guard counted the lines.
    private(set) var tagLine = 1

    /// Moves to the next node: 1 if there is one, 0 at the end, -1 on an error.
    func read() -> Int32 { arrived(xmlTextReaderRead(reader)) }

    /// Skips the current element's subtree and moves to the node after it: 1, 0 or -1 as
    /// ``read()``.
    func next() -> Int32 {
        input.guardian.skipSubtree(depth: Int(xmlTextReaderDepth(reader)))
        return arrived(xmlTextReaderNext(reader))
    }

    /// `status`, once the line of the element the reader is on, if it is on one, is taken:
    /// each element the reader comes to is the next start tag the guard has kept.
    private func arrived(_ status: Int32) -> Int32 {
        if status == 1, xmlTextReaderNodeType(reader) == NodeType.element.rawValue {
            tagLine = input.guardian.takeTagLine()
        }
        return status
    }

    /// The current node's type, when it is one we handle.
    var nodeType: NodeType? { NodeType(rawValue: xmlTextReaderNodeType(reader)) }

    /// The current node's local name.
    var localName: String { xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? "" }

    /// Whether the current node's local name is `name`, compared in libxml2's own buffer: no String
    /// is made for an element that is read past.
    func localNameIs(_ name: some RawRepresentable<String>) -> Bool {
        guard let current = xmlTextReaderConstLocalName(reader) else { return false }
        return name.rawValue.withCString {
            strcmp(UnsafeRawPointer(current).assumingMemoryBound(to: CChar.self), $0) == 0
        }
    }

    /// Whether the current node's namespace URI is `uri` (`""` for none), compared without a String.
    func namespaceIs(_ uri: StaticString) -> Bool {
        guard let current = xmlTextReaderConstNamespaceUri(reader) else { return uri.utf8CodeUnitCount == 0 }
        return strcmp(
            UnsafeRawPointer(current).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(uri.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The current node's namespace URI, or `""`.
    var namespaceURI: String { xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) } ?? "" }

    /// The current node's text, for text nodes.
    var value: String { xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? "" }

    /// Whether the current element is written `<x/>`.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The line of the current element: where its start tag ends.
    ///
    /// libxml2 keeps a node's line in 16 bits, 65,535 standing for every line from there on;
    /// past it (or for a node without a line), the guard's count is the line.
    var line: Int {
        let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
        return line > 0 && line < 65535 ? line : tagLine
    }

    /// Why the source failed, if it did.
    var sourceFailure: (any Error)? { input.failure }

    /// Whether the source gave more bytes than allowed.
    var exceededLimit: Bool { input.exceeded }

    /// The line of a start tag past the attribute or depth limit, and which, if the input had one.
    var overflow: (line: Int, kind: MarkupGuard.Overflow)? { input.guardian.overflow }

    /// Calls `body` with the local name of each attribute of the current element that is in no
    /// namespace, or in `namespace`, with whether it is in `namespace`; namespace declarations
    /// and attributes of other vocabularies are left alone.
    func forEachAttribute(
        in namespace: StaticString, _ body: (_ localName: String, _ namespaced: Bool, _ value: String) -> Void
    ) {
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return }
        repeat {
            let inNone = namespaceIs("")
            let inOurs = !inNone && namespaceIs(namespace)
            if inNone || inOurs { body(localName, inOurs, value) }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
    }

    /// The value of the current element's attribute `name` (with no namespace), if it has one.
    func attribute(_ name: some RawRepresentable<String>) -> String? {
        attributeNamed(name.rawValue)
    }

    /// The value of the element's attribute `name` (in no namespace), or `nil`.
    func attributeNamed(_ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { clibxml2_free(value) }
        return String(cString: value)
    }

    /// The errors libxml2 reported, in order.
    var problems: [Problem] { input.problems }

    // MARK: - Callbacks (C function pointers: no captures; state travels in the context pointer)

    private static let readCallback: xmlInputReadCallback = { context, buffer, length in
        guard let context, let buffer, length > 0 else { return 0 }
        let input = Unmanaged<InputBox>.fromOpaque(context).takeUnretainedValue()
        return Int32(input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
    }

    private static let closeCallback: xmlInputCloseCallback = { context in
        guard let context else { return 0 }
        Unmanaged<InputBox>.fromOpaque(context).release()
        return 0
    }

    private static let errorCallback: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        Unmanaged<InputBox>.fromOpaque(context).takeUnretainedValue().problems.append(Problem(error.pointee))
    }
}

/// The byte source, seen from libxml2's read callback, and where its error handler puts what it
/// is told.
private final class InputBox {
    var problems: [XMLStream.Problem] = []
    var source: any ByteSource
    var pending: [UInt8]
    var pendingOffset = 0
    var total = 0
    var failure: (any Error)?
    let maxBytes: Int
    var exceeded = false
    var guardian: MarkupGuard

    init(source: any ByteSource, pending: [UInt8], maxBytes: Int, guardian: MarkupGuard) {
        self.source = source
        self.pending = pending
        self.maxBytes = maxBytes
        self.guardian = guardian
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard total <= maxBytes else {
            exceeded = true
            return -1
        }
        let count: Int
        if pendingOffset < pending.count {
            count = min(buffer.count, pending.count - pendingOffset)
            pending.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[pendingOffset..<pendingOffset + count]))
            }
            pendingOffset += count
        } else {
            do {
                count = try source.read(into: buffer)
            } catch {
                failure = error
                return -1
            }
        }
        total += count
        // libxml2 must never see a start tag past a limit: it checks attributes for duplicates
        // pair by pair, so 50,000 of them take seconds.
        guard guardian.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return -1 }
        return count
    }
}
