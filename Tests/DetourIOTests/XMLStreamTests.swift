import CLibXML2
import Testing

@testable import DetourIO

/// The pull parser under the GPX reader, on its own: what it says of a node, and of an error
/// libxml2 reports.
@Suite struct XMLStreamTests {
    func stream(_ text: String) throws -> XMLStream {
        try #require(XMLStream(source: BufferSource([]), prefix: Array(text.utf8), name: "t.xml", limits: .standard))
    }

    /// Text libxml2 does not have (an element's value, a namespace a node is not in, anything
    /// past the end) is empty, never a crash.
    @Test func whatANodeDoesNotHaveIsEmpty() throws {
        let stream = try stream("<a b=\"1\">\n<x:c xmlns:x=\"urn:x\">text</x:c></a>")
        #expect(stream.read() == 1)
        #expect((stream.nodeType, stream.localName, stream.namespaceURI, stream.value) == (.element, "a", "", ""))
        #expect(stream.read() == 1)
        #expect((stream.nodeType, stream.value) == (.significantWhitespace, "\n"))
        #expect(stream.read() == 1)
        #expect((stream.localName, stream.namespaceURI, stream.line) == ("c", "urn:x", 2))
        #expect(stream.read() == 1)
        #expect((stream.nodeType, stream.value) == (.text, "text"))
        #expect(stream.read() == 1)
        #expect(stream.nodeType == .endElement)
        #expect(stream.read() == 1)
        #expect(stream.read() == 0)
        #expect((stream.localName, stream.namespaceURI, stream.value) == ("", "", ""))
        #expect(!stream.localNameIs(GPXMapping.GPX.gpx))
        #expect(stream.nodeType == nil)
    }

    @Test func aProblemKeepsLibxml2sNumberItsPlaceAndItsMessageTrimmed() {
        var error = xmlError()
        error.code = Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue)
        error.line = 3
        error.int2 = 14
        "  Opening and ending tag mismatch: a and b\n".withCString { text in
            error.message = UnsafeMutablePointer(mutating: text)
            let problem = XMLStream.Problem(error)
            #expect(problem.code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue))
            #expect((problem.line, problem.column) == (3, 14))
            #expect(problem.message == "Opening and ending tag mismatch: a and b")
            #expect(!problem.isEncoding && !problem.isEntityLoop)
        }
    }

    @Test func aProblemWithoutAMessageSaysItIsUnknown() {
        var error = xmlError()
        error.code = Int32(XML_ERR_ENTITY_LOOP.rawValue)
        let problem = XMLStream.Problem(error)
        #expect(problem.message == "unknown XML error")
        #expect(problem.isEntityLoop)
    }
}

/// The scan that refuses a start tag past a limit before libxml2 sees it.
@Suite struct MarkupGuardTests {
    func scan(_ scanner: inout MarkupGuard, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { scanner.scan($0) }
    }

    /// Once a tag has gone past a limit, every later scan is refused too, and the first
    /// overflow is the one kept.
    @Test func anOverflowIsFinal() {
        var scanner = MarkupGuard(limit: 1, maxDepth: 2, prefix: [])
        #expect(scan(&scanner, "<a x=\"1\">"))
        #expect(!scan(&scanner, "\n<b x=\"1\" y=\"2\">"))
        #expect(scanner.overflow?.line == 2)
        #expect(scanner.overflow?.kind == .attributes)
        #expect(!scan(&scanner, "<c><d><e>"))
        #expect(scanner.overflow?.line == 2)
        #expect(scanner.overflow?.kind == .attributes)
    }

    /// `<!>` is over at its own `>`: the start tag after it is counted, not taken for the rest
    /// of a declaration.
    @Test func anEmptyDeclarationEndsAtItsOwnBracket() {
        var scanner = MarkupGuard(limit: 1, maxDepth: 64, prefix: [])
        #expect(!scan(&scanner, "<!><a x=\"1\" y=\"2\">"))
        #expect(scanner.overflow?.kind == .attributes)
        var declaration = MarkupGuard(limit: 1, maxDepth: 64, prefix: [])
        #expect(scan(&declaration, "<!ELEMENT a x=\"1\" y=\"2\">"))
    }
}
