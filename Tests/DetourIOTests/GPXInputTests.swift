import DetourCore
import DetourIO
import Testing

/// What the GPX reader says of input that is no GPX trip at all: a source that fails, an
/// encoding it does not read, XML that is not well-formed, another kind of document.
@Suite struct GPXInputTests {
    /// A source that gives `bytes`, then fails.
    struct FailingSource: ByteSource {
        struct Failure: Error, CustomStringConvertible {
            var description: String { "the disk went away" }
        }

        var bytes: [UInt8]
        var offset = 0

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard offset < bytes.count else { throw Failure() }
            let count = min(buffer.count, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<offset + count])
            offset += count
            return count
        }
    }

    /// Each diagnostic as `LINE:COLUMN code: message`, `-` for what is not known.
    func found(_ bytes: [UInt8]) -> [String] {
        TripLoader.load(bytes, format: .gpx).diagnostics.map(Self.described)
    }

    static func described(_ diagnostic: Diagnostic) -> String {
        let line = diagnostic.position?.line.map(String.init) ?? "-"
        let column = diagnostic.position?.column.map(String.init) ?? "-"
        return "\(line):\(column) \(diagnostic.code.rawValue): \(diagnostic.fullMessage)"
    }

    /// The source fails before it gives a byte, after only white space, before the reader has
    /// its first 4,096 bytes, or after it has begun to parse: the trip cannot be read, and the
    /// message says why (a file that cannot be read is not known to be empty).
    @Test(arguments: [("trip", 0), ("blank", 5000), ("trip", 100), ("trip", 4096), ("trip", 10_000)])
    func aSourceThatFailsIsAReadFailure(_ kind: String, _ count: Int) {
        let good =
            kind == "blank" ? Array(repeating: UInt8(ascii: " "), count: count) : Array(Self.padded.prefix(count))
        let outcome = TripLoader.loadGPX(FailingSource(bytes: good), name: "t.gpx")
        #expect(outcome.trip == nil)
        #expect(
            outcome.diagnostics.map(Self.described) == ["-:- read-failed: cannot read the trip: the disk went away"])
    }

    /// The Lisbon trip with 10,000 spaces inside its root, so it is longer than the first read.
    static let padded = Array(
        GPXReaderTests.lisbon.replacingOccurrences(
            of: "</gpx>", with: String(repeating: " ", count: 10_000) + "</gpx>"
        ).utf8)

    /// libxml2 keeps an element's line in 16 bits; past line 65,535 a problem still names its own
    /// line, after a track read past unopened and inside a path that is read point by point.
    @Test func problemsPastLine65535NameTheirOwnLines() {
        let shape = GPXShapeTests.self
        let track =
            "<trk><name>t</name><trkseg>" + String(repeating: "<trkpt lat=\"1\"\n lon=\"2\"/>\n", count: 1000)
            + "</trkseg></trk>\n"
        let route =
            "<rte><extensions><dr:path destination=\"l\" task=\"Tram\"/></extensions>"
            + "<rtept lat=\"38.7\" lon=\"-9.1\"/>\n<rtept lat=\"138.71\" lon=\"-9.13\"/></rte>"
        let body =
            String(repeating: "\n", count: 70_000) + track + shape.stay(" colour=\"red\"") + "\n" + shape.task("Tram")
            + shape.task("Walk") + "\n" + route
        let text = GPXReaderTests.gpx(body)
        func line(of marker: String) -> Int {
            text.components(separatedBy: marker)[0].count { $0 == "\n" } + 1
        }
        #expect(
            found(Array(text.utf8)) == [
                "\(line(of: "colour")):- unknown-attribute: wpt 1 \"Lisbon\": unknown attribute \"colour\" on dr:stay, ignored (allowed here: \"day-hours\", \"id\", \"arrival\", \"departure\")",
                "\(line(of: "138.71")):- coordinate-out-of-range: rte 1: latitude 138.71 is outside [-90, 90]",
            ])
        #expect(line(of: "colour") > 70_000)
    }

    @Test func aRootThatIsNotGPXIsNotAGPXFile() {
        let kml = "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>"
        #expect(found(Array(kml.utf8)) == ["2:- not-gpx: this is not a GPX file: its root element is <kml>, not <gpx>"])
    }

    /// Entities in a loop are refused as they are declared, before the DOCTYPE is even seen.
    @Test func entitiesInALoopAreAnXMLErrorNamedSo() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY a "&b;"><!ENTITY b "&a;"><!ATTLIST gpx x CDATA "&a;">]>
            <gpx xmlns="http://www.topografix.com/GPX/1/1"/>
            """
        #expect(found(Array(text.utf8)) == ["2:76 xml-syntax: XML: entities refer to each other in a loop"])
    }

    static func utf16(_ text: String, bigEndian: Bool, mark: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test(arguments: [true, false])
    func utf16WithAByteOrderMarkIsReadEitherWay(_ bigEndian: Bool) throws {
        let text = GPXReaderTests.lisbon.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        let trip = try #require(TripLoader.load(Self.utf16(text, bigEndian: bigEndian), format: .gpx).trip)
        #expect(trip.destinations.first?.detours.first?.title == "Ride Tram 28 or Walk the Alfama")
    }

    /// The attribute limit holds in UTF-16 too, where each character is two bytes.
    @Test(arguments: [true, false])
    func tooManyAttributesAreRefusedInUTF16Too(_ bigEndian: Bool) {
        let attributes = (0..<300).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let text = GPXReaderTests.lisbon.replacingOccurrences(of: "UTF-8", with: "UTF-16")
            .replacingOccurrences(of: "<trk>", with: "<wpt lat=\"1\" lon=\"2\"\n \(attributes)/><trk>")
        let outcome = TripLoader.load(Self.utf16(text, bigEndian: bigEndian), format: .gpx)
        #expect(
            outcome.diagnostics.map(Self.described) == [
                "9:- xml-too-many-attributes: an element has more than 256 attributes; no GPX element needs that many"
            ])
    }

    @Test(
        arguments: [
            ([0x00, 0x00, 0xFE, 0xFF], "the file is UTF-32, which is not supported; save it as UTF-8"),
            ([0xFF, 0xFE, 0x00, 0x00], "the file is UTF-32, which is not supported; save it as UTF-8"),
            ([0x00, 0x3C, 0x00, 0x3F], "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"),
            ([0x3C, 0x00, 0x3F, 0x00], "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"),
        ] as [([UInt8], String)])
    func encodingsWithoutAMarkOrPastUTF16AreRefusedByName(_ start: [UInt8], _ message: String) {
        let bytes = start + Array(GPXReaderTests.lisbon.utf8)
        #expect(found(bytes) == ["-:- unsupported-encoding: " + message])
    }

    /// A declaration of UTF-16 on a file without a byte-order mark cannot be true: the
    /// declaration itself was read as one byte a character.
    @Test(arguments: ["UTF-16", "utf-16", "UTF16", "utf16"])
    func utf16DeclaredWithoutAMarkIsRefused(_ name: String) {
        let text = GPXReaderTests.lisbon.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"\(name)\"")
        #expect(
            found(Array(text.utf8)) == [
                "-:- unsupported-encoding: the file declares UTF-16 but has no byte-order mark; save it as UTF-8"
            ])
    }

    /// An encoding name without quotes is no declaration the reader can judge: libxml2 reports
    /// the syntax error.
    @Test func anUnquotedEncodingIsAnXMLError() {
        let text = GPXReaderTests.lisbon.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=windows-1252")
        #expect(found(Array(text.utf8)) == ["1:30 xml-syntax: XML: String not started expecting ' or \""])
    }
}
