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

    /// A document with every construct the guard steps over, multi-line start tags, CRLF and
    /// lone CR line ends, a subtree longer than libxml2 reads ahead, and more elements than the
    /// guard keeps lines for at once.
    static let varied =
        "<?xml version=\"1.0\"?>\r\n<?pi <a b=\"1\"> ?>\n<!-- <c d=\"2\"> -->\n<root\n  a=\"x > y\"\n  b='it\"s'\n>\n"
        + "<p>" + String(repeating: "<q r=\"1\"/>\n", count: 3000) + "</p>"
        + "<e/><f></f>\r<g><![CDATA[<h>\n</h>]]><i\tj=\"1\"\n/></g>\n<k>é\n<l/></k>\n"
        + String(repeating: "<m n=\"1\">\n<o/>\n</m>\n", count: 2500) + "</root>\n"

    /// The guard's line for each element's start tag is libxml2's own, read node by node or
    /// with subtrees read past.
    @Test(arguments: [false, true])
    func theGuardCountsEachElementsLineAsLibxml2Does(_ skipping: Bool) throws {
        let stream = try stream(Self.varied)
        var (elements, status) = (0, stream.read())
        var disagreements: [String] = []
        while status == 1 {
            if stream.nodeType == .element {
                elements += 1
                if stream.tagLine != stream.line {
                    disagreements.append(
                        "element \(elements) <\(stream.localName)>: \(stream.tagLine), not \(stream.line)")
                }
                if skipping, ["g", "m", "p"].contains(stream.localName) {
                    status = stream.next()
                    continue
                }
            }
            status = stream.read()
        }
        #expect(status == 0)
        #expect(disagreements.isEmpty, "\(disagreements.count) elements, the first: \(disagreements.prefix(3))")
        // root, p, e, f, g, i, k, l, the q's, and an m and an o each time; read past, i, the q's
        // and the o's are not seen.
        #expect(elements == (skipping ? 7 + 2500 : 8 + 3000 + 2 * 2500))
    }

    /// Past line 65,535, where libxml2 stops counting, the line is the guard's.
    @Test func linesPast65535AreTheGuards() throws {
        let text = "<root>" + String(repeating: "\n", count: 70_000) + "<a>\n<b\n/></a></root>"
        let stream = try stream(text)
        var lines: [String: Int] = [:]
        while stream.read() == 1 {
            if stream.nodeType == .element { lines[stream.localName] = stream.line }
        }
        #expect(lines == ["root": 1, "a": 70_001, "b": 70_003])
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

    /// The line of each start tag is taken in document order; with none scanned, the nearest
    /// answer is the line the scan is on.
    @Test func startTagLinesAreTakenInOrder() {
        var scanner = MarkupGuard(limit: 8, maxDepth: 8, prefix: [])
        #expect(scanner.takeTagLine() == 1)
        #expect(scan(&scanner, "<a\nb=\"1\">\n<c/><!-- <d> -->\n<e"))
        #expect(scanner.takeTagLine() == 2)
        #expect(scanner.takeTagLine() == 3)
        #expect(scanner.takeTagLine() == 4)
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

/// Why the GPX reader says a stream stopped, when nothing it knows of explains it.
@Suite struct GPXReadFailureTests {
    /// Should libxml2 stop without a word (it reports every error it meets, so only running out
    /// of memory could), the trip is still refused as XML that is not well-formed.
    @Test func aStreamThatStopsWithoutAProblemIsNotWellFormed() throws {
        let stream = try #require(
            XMLStream(source: BufferSource([]), prefix: Array("<gpx/>".utf8), name: "t.gpx", limits: .standard))
        #expect(stream.read() == 1)
        let failure = GPXReading(stream: stream, limits: .standard).readFailure()
        #expect(failure.code == .xmlSyntax)
        #expect(failure.position == nil)
        #expect(failure.message == "XML: not well-formed")
    }
}
