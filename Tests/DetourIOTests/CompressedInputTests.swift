import DetourCore
import DetourIO
import Testing

@Suite struct CompressedInputTests {
    /// The first bytes of `gzip trip.json`: magic, deflate, no flags, a time, then data.
    static let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x5E, 0x2F, 0x21, 0x69, 0x00, 0x03, 0xAB, 0x56, 0x2A, 0xC9]

    @Test func gzipIsNamedWithTheCommandThatUndoesIt() {
        #expect(
            TextEncoding.compressionProblem(Self.gzip)
                == "the file is gzip-compressed; decompress it first (gunzip FILE)")
    }

    @Test(
        arguments: [
            ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "zip"), ([0x42, 0x5A, 0x68, 0x39, 0x31, 0x41], "bzip2"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00], "xz"), ([0x28, 0xB5, 0x2F, 0xFD, 0x04, 0x00], "zstd"),
        ] as [([UInt8], String)])
    func otherCompressedFormatsAreNamed(_ prefix: [UInt8], _ name: String) throws {
        let message = try #require(TextEncoding.compressionProblem(prefix))
        #expect(message.contains(name))
    }

    @Test(
        arguments: [
            Array("{\"title\": \"x\"}".utf8), Array("<?xml version=\"1.0\"?>".utf8), [0xEF, 0xBB, 0xBF, 0x7B],
            [0x1F], [0x50, 0x4B], Array("BZ".utf8), Array("PKG".utf8), [],
        ] as [[UInt8]])
    func textIsNotCompressed(_ prefix: [UInt8]) {
        #expect(TextEncoding.compressionProblem(prefix) == nil)
    }

    @Test func aGzipCompressedGPXTripSaysSoInsteadOfAnXMLError() {
        let result = TripGPXReader.read(BufferSource(Self.gzip))
        #expect(result.draft == nil)
        #expect(result.diagnostics.map(\.message) == ["the file is gzip-compressed; decompress it first (gunzip FILE)"])
    }
}
