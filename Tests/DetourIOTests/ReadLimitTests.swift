import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// Every limit a reader applies before a trip is validated, exactly at the limit (read) and one past it (refused with
/// its code), in each format it applies to.
///
/// The table is checked against ``ReadLimits`` itself, so a limit added there without a row here fails.
@Suite struct ReadLimitTests {
    static let json = #"{"title": "T", "destinations": []}"#

    /// A GPX trip of one stay.
    static func gpx(_ inside: String = "", attributes: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:dr="urn:detour-report:gpx:1"\(attributes)>
        <metadata><name>T</name></metadata>
        <wpt lat="1" lon="2"><name>S</name><extensions><dr:stay arrival="2026-12-01" departure="2026-12-02"/></extensions></wpt>
        \(inside)
        </gpx>
        """
    }

    /// `text` padded with white space (where both formats allow it) to exactly `size` bytes.
    static func padded(_ text: String, to size: Int) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(contentsOf: Array(repeating: UInt8(ascii: " "), count: size - bytes.count))
        return bytes
    }

    func codes(_ bytes: [UInt8], _ format: TripFormat, _ limits: ReadLimits) -> [DiagnosticCode] {
        TripLoader.load(bytes, format: format, limits: limits).diagnostics.filter { $0.severity == .error }.map(\.code)
    }

    func streamedCodes(_ bytes: [UInt8], _ limits: ReadLimits) -> [DiagnosticCode] {
        TripLoader.loadGPX(BufferSource(bytes), name: "t.gpx", limits: limits).diagnostics
            .filter { $0.severity == .error }.map(\.code)
    }

    @Test func everyReadLimitHasATest() {
        let properties = Mirror(reflecting: ReadLimits.standard).children.compactMap(\.label)
        // `trip` is TripLimits, whose own table is TripLimitTests in DetourCoreTests.
        #expect(Set(properties) == ["maxJSONBytes", "maxGPXBytes", "maxDepth", "maxAttributes", "trip"])
    }

    @Test(arguments: [200, 1000, 4097, 70_000])
    func aJSONFileOfExactlyTheLimitIsReadAndOneByteMoreIsNot(_ limit: Int) {
        let limits = ReadLimits(maxJSONBytes: limit)
        #expect(codes(Self.padded(Self.json, to: limit), .json, limits) == [])
        #expect(codes(Self.padded(Self.json, to: limit + 1), .json, limits) == [.fileTooLarge])
    }

    // The GPX limit is counted as the file streams in, across the reader's chunks; 4,096 is
    // the prefix read before parsing starts.
    @Test(arguments: [1000, 4095, 4096, 4097, 70_000, 200_000])
    func aGPXFileOfExactlyTheLimitIsReadAndOneByteMoreIsNot(_ limit: Int) {
        let limits = ReadLimits(maxGPXBytes: limit)
        #expect(streamedCodes(Self.padded(Self.gpx(), to: limit), limits) == [])
        #expect(streamedCodes(Self.padded(Self.gpx(), to: limit + 1), limits) == [.fileTooLarge])
        #expect(codes(Self.padded(Self.gpx(), to: limit + 1), .gpx, limits) == [.fileTooLarge])
    }

    /// A trip nested `depth` levels deep, counting the trip's own object as 1.
    static func nestedJSON(depth: Int) -> [UInt8] {
        let inner = depth - 1
        return Array(
            (#"{"title": "T", "destinations": [], "x": "# + String(repeating: "[", count: inner)
                + String(repeating: "]", count: inner) + "}").utf8)
    }

    @Test(arguments: [2, 5, 64])
    func jsonNestedExactlyToTheLimitIsReadAndOneLevelMoreIsNot(_ limit: Int) {
        let limits = ReadLimits(maxDepth: limit)
        #expect(codes(Self.nestedJSON(depth: limit), .json, limits) == [])
        #expect(codes(Self.nestedJSON(depth: limit + 1), .json, limits) == [.jsonTooDeep])
    }

    @Test func theStandardJSONDepthIsSixtyFour() {
        #expect(codes(Self.nestedJSON(depth: 64), .json, .standard) == [])
        #expect(codes(Self.nestedJSON(depth: 65), .json, .standard) == [.jsonTooDeep])
    }

    /// A GPX trip whose deepest element is `depth` levels down, counting `<gpx>` as 1.
    static func nestedGPX(depth: Int) -> [UInt8] {
        // <gpx> <extensions> then depth - 2 elements of another vocabulary.
        let inner = depth - 2
        let open = (0..<inner).map { _ in "<x:e>" }.joined()
        let close = (0..<inner).map { _ in "</x:e>" }.joined()
        return Array(Self.gpx("<extensions>\(open)\(close)</extensions>", attributes: " xmlns:x=\"urn:x\"").utf8)
    }

    /// GPX is nested no deeper than JSON: the same limit, counting `<gpx>` as level 1.
    @Test(arguments: [3, 5, 64])
    func gpxNestedExactlyToTheLimitIsReadAndOneLevelMoreIsNot(_ limit: Int) {
        let limits = ReadLimits(maxDepth: limit)
        #expect(codes(Self.nestedGPX(depth: limit), .gpx, limits) == [])
        #expect(codes(Self.nestedGPX(depth: limit + 1), .gpx, limits) == [.xmlTooDeep])
    }

    @Test func theStandardGPXDepthIsSixtyFourToo() {
        #expect(codes(Self.nestedGPX(depth: 64), .gpx, .standard) == [])
        let past = TripLoader.load(Self.nestedGPX(depth: 65), format: .gpx)
        #expect(past.diagnostics.map(\.message) == ["XML: the elements are nested too deeply (more than 64 levels)"])
        // Empty elements and end tags do not deepen; comments, CDATA and values that look like tags do not either.
        let flat = Self.gpx(
            "<extensions>" + String(repeating: "<x:e/><x:f a=\"/>\"></x:f><!-- <c> --><![CDATA[<d>]]>", count: 100)
                + "</extensions>", attributes: " xmlns:x=\"urn:x\"")
        #expect(codes(Array(flat.utf8), .gpx, ReadLimits(maxDepth: 3)) == [])
    }

    static func element(attributes count: Int) -> String {
        "<x:e " + (0..<count).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>"
    }

    @Test(arguments: [1, 3, 256])
    func anElementWithExactlyTheLimitOfAttributesIsReadAndOneMoreIsNot(_ limit: Int) {
        let limits = ReadLimits(maxAttributes: limit)
        let at = Self.gpx(
            "<extensions>\(Self.element(attributes: limit))</extensions>", attributes: " xmlns:x=\"urn:x\"")
        let past = Self.gpx(
            "<extensions>\(Self.element(attributes: limit + 1))</extensions>", attributes: " xmlns:x=\"urn:x\"")
        // The root itself has four attributes (version, creator, two namespaces, and x's).
        let rootCount = limit >= 5 ? [] : [DiagnosticCode.xmlTooManyAttributes]
        #expect(codes(Array(at.utf8), .gpx, limits) == rootCount)
        #expect(codes(Array(past.utf8), .gpx, limits) == [.xmlTooManyAttributes])
    }

    @Test func theStandardAttributeLimitIsTwoHundredFiftySix() {
        let at = Self.gpx("<extensions>\(Self.element(attributes: 256))</extensions>", attributes: " xmlns:x=\"urn:x\"")
        let past = Self.gpx(
            "<extensions>\(Self.element(attributes: 257))</extensions>", attributes: " xmlns:x=\"urn:x\"")
        #expect(codes(Array(at.utf8), .gpx, .standard) == [])
        #expect(codes(Array(past.utf8), .gpx, .standard) == [.xmlTooManyAttributes])
    }

    /// docs/commands.md and the option's help state the input limits; the code must say the same.
    @Test func theStandardSizesAreTheDocumentedOnes() throws {
        #expect(ReadLimits.standard.maxJSONBytes == 64 * 1024 * 1024)
        #expect(ReadLimits.standard.maxGPXBytes == 4096 * 1024 * 1024)
        let commands = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        #expect(commands.contains("default 64 MiB for JSON"))
        #expect(commands.contains("4096 MiB for GPX"))
        #expect(ReadLimits.standard.withInputLimit(mebibytes: 3).maxJSONBytes == 3 << 20)
        #expect(ReadLimits.standard.withInputLimit(mebibytes: 3).maxGPXBytes == 3 << 20)
    }

    /// A text past the trip's text limit is refused by the validator whichever format holds it;
    /// the GPX reader stops keeping a long text just past the limit, so it must keep enough.
    @Test(arguments: [TripFormat.json, .gpx])
    func aTextOfExactlyTheLimitIsKeptWholeInEitherFormat(_ format: TripFormat) throws {
        let limits = ReadLimits(trip: TripLimits(maxTextBytes: 5000))
        func trip(_ title: String) -> [UInt8] {
            switch format {
            case .json: return Array(#"{"title": "\#(title)", "destinations": []}"#.utf8)
            case .gpx:
                return Array(Self.gpx().replacingOccurrences(of: "<name>T</name>", with: "<name>\(title)</name>").utf8)
            }
        }
        let at = String(repeating: "é", count: 2500)
        let outcome = TripLoader.load(trip(at), format: format, limits: limits)
        #expect(outcome.diagnostics.errors.isEmpty)
        #expect(outcome.trip?.title == at)
        #expect(codes(trip(at + "a"), format, limits) == [.textTooLong])
        #expect(codes(trip(at + at), format, limits) == [.textTooLong])
    }
}
