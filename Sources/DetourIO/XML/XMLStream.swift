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
        var message: String
        var line: Int
        var column: Int
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
    private let errors: Unmanaged<ErrorBox>

    /// Opens a reader over `source`; `prefix` holds bytes already read from it.
    init?(source: any ByteSource, prefix: [UInt8], name: String, maxBytes: Int, maxAttributes: Int) {
        XMLStream.guards
        clibxml2_quiet_generic_errors()
        let input = InputBox(
            source: source, pending: prefix, maxBytes: maxBytes,
            guardian: AttributeGuard(limit: maxAttributes, prefix: prefix))
        let errors = ErrorBox()
        let inputPointer = Unmanaged.passRetained(input)
        guard
            let reader = xmlReaderForIO(
                XMLStream.readCallback, XMLStream.closeCallback, inputPointer.toOpaque(), name, nil,
                Int32(XML_PARSE_NONET.rawValue))
        else {
            inputPointer.release()
            return nil
        }
        // The reader holds one reference to the input and drops it in closeCallback.
        self.reader = reader
        self.input = input
        self.errors = Unmanaged.passRetained(errors)
        xmlTextReaderSetStructuredErrorHandler(reader, XMLStream.errorCallback, self.errors.toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        errors.release()
    }

    /// Moves to the next node: 1 if there is one, 0 at the end, -1 on an error.
    func read() -> Int32 { xmlTextReaderRead(reader) }

    /// Skips the current node's subtree and moves to the node after it: 1, 0 or -1 as ``read()``.
    func next() -> Int32 { xmlTextReaderNext(reader) }

    /// The current node's type, when it is one we handle.
    var nodeType: NodeType? { NodeType(rawValue: xmlTextReaderNodeType(reader)) }

    /// The current node's local name.
    var localName: String { string(xmlTextReaderConstLocalName(reader)) ?? "" }

    /// Whether the current node's local name is `name`, compared without making a String.
    func localNameIs(_ name: StaticString) -> Bool {
        guard let current = xmlTextReaderConstLocalName(reader) else { return false }
        return strcmp(
            UnsafeRawPointer(current).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// Whether the current node's namespace URI is `uri` (`""` for none), compared without a String.
    func namespaceIs(_ uri: StaticString) -> Bool {
        guard let current = xmlTextReaderConstNamespaceUri(reader) else { return uri.utf8CodeUnitCount == 0 }
        return strcmp(
            UnsafeRawPointer(current).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(uri.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The current node's namespace URI, or `""`.
    var namespaceURI: String { string(xmlTextReaderConstNamespaceUri(reader)) ?? "" }

    /// The current node's text, for text nodes.
    var value: String { string(xmlTextReaderConstValue(reader)) ?? "" }

    /// Whether the current element is written `<x/>`.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The line of the current node (where its start tag is), or else the line the parser is on.
    var line: Int {
        if let node = xmlTextReaderCurrentNode(reader) {
            let line = xmlGetLineNo(node)
            if line > 0 { return Int(line) }
        }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }

    /// Why the source failed, if it did.
    var sourceFailure: (any Error)? { input.failure }

    /// Whether the source gave more bytes than allowed.
    var exceededLimit: Bool { input.exceeded }

    /// The line of a start tag with more attributes than allowed, if the input had one.
    var attributeOverflowLine: Int? { input.guardian.overflowLine }

    /// Calls `body` with the local name of each attribute of the current element that is in no
    /// namespace, or in `namespace`, with whether it is in `namespace`; namespace declarations
    /// and attributes of other vocabularies are left alone.
    func forEachAttribute(in namespace: StaticString, _ body: (_ localName: String, _ namespaced: Bool) -> Void) {
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return }
        repeat {
            let inNone = namespaceIs("")
            let inOurs = !inNone && namespaceIs(namespace)
            if inNone || inOurs { body(localName, inOurs) }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
    }

    /// The value of the current element's attribute `name` (with no namespace), if it has one.
    func attribute(_ name: StaticString) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name.utf8Start) else { return nil }
        defer { clibxml2_free(value) }
        return String(cString: value)
    }

    /// The value of attribute `name` with XML Schema's white-space rule for tokens and numbers
    /// (`xsd:decimal`, `xsd:token`) applied: no white space at either end.
    func tokenAttribute(_ name: StaticString) -> String? {
        attribute(name).map(XMLStream.collapsed)
    }

    /// `text` without XML white space (space, tab, CR, LF) at either end.
    static func collapsed(_ text: String) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = text.utf8.first, let last = text.utf8.last, isSpace(first) || isSpace(last) else {
            return text
        }
        let bytes = text.utf8.drop(while: isSpace)
        return String(decoding: bytes.reversed().drop(while: isSpace).reversed(), as: UTF8.self)
    }

    /// The errors libxml2 reported, in order.
    var problems: [Problem] { errors.takeUnretainedValue().problems }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

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
        let errors = Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue()
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown XML error"
        errors.problems.append(
            Problem(
                message: message.trimmingCharacters(in: "\n "), line: Int(error.pointee.line),
                column: Int(error.pointee.int2)))
    }
}

/// The byte source, seen from libxml2's read callback.
private final class InputBox {
    var source: any ByteSource
    var pending: [UInt8]
    var pendingOffset = 0
    var total = 0
    var failure: (any Error)?
    let maxBytes: Int
    var exceeded = false
    var guardian: AttributeGuard

    init(source: any ByteSource, pending: [UInt8], maxBytes: Int, guardian: AttributeGuard) {
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
        // libxml2 must never see a start tag with too many attributes: it checks them for
        // duplicates pair by pair, so 50,000 of them take seconds.
        guard guardian.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return -1 }
        return count
    }
}

/// Where the structured error handler puts what it is told.
private final class ErrorBox {
    var problems: [XMLStream.Problem] = []
}

extension String {
    /// The string without any of `characters` at either end.
    func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
