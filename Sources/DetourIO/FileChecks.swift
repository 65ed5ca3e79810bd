import DetourCore

/// What holds for a trip file whatever it says: it is not empty, not compressed, in an encoding
/// its format allows, and within its size limit.
///
/// The one place these are decided and worded. `TripLoader` tells an empty file, each reader asks
/// about its first bytes (JSON is looked at whole, GPX before libxml2 sees it), and `TripInput` in
/// `DetourJob` stops reading a file at the size limit; every one of them asks here.
public enum FileChecks {
    /// The diagnostic for a file over its format's size limit.
    public static func tooLarge(_ format: TripFormat, limits: ReadLimits) -> Diagnostic {
        let (what, limit) =
            switch format {
            case .json: ("a trip read whole (JSON)", limits.maxJSONBytes)
            case .gpx: ("GPX", limits.maxGPXBytes)
            }
        return Diagnostic(.fileTooLarge, "the file is larger than the \(limit >> 20) MiB limit for \(what)")
    }

    /// What is wrong with a file that starts with `prefix`, before its content is read: it is
    /// compressed, or in an encoding `format` does not allow (JSON is UTF-8 alone, RFC 8259 §8.1;
    /// GPX is what its XML declaration says, among those libxml2 reads right).
    public static func problem(startingWith prefix: [UInt8], format: TripFormat) -> Diagnostic? {
        if let problem = TextEncoding.compressionProblem(prefix) {
            return Diagnostic(.compressedFile, problem)
        }
        switch format {
        case .json:
            guard TextEncoding.bomLength(prefix) == 0, let encoding = TextEncoding.otherEncoding(prefix) else {
                return nil
            }
            return Diagnostic(.unsupportedEncoding, "the file is \(encoding); trip JSON must be UTF-8 (RFC 8259 §8.1)")
        case .gpx:
            return TextEncoding.xmlProblem(prefix).map { Diagnostic(.unsupportedEncoding, $0) }
        }
    }

    /// The diagnostic for trip JSON whose first bad UTF-8 is at `offset` in the file, which is
    /// `position` in its text.
    static func invalidUTF8(offset: Int, at position: SourcePosition) -> Diagnostic {
        Diagnostic(
            .invalidUTF8, at: position,
            "the file is not valid UTF-8 (byte offset \(offset)); trip JSON must be UTF-8")
    }

    /// A file of nothing but white space (after a byte-order mark), in either format.
    static func empty(_ format: TripFormat) -> Diagnostic {
        let needs =
            switch format {
            case .json: "a trip needs at least {\"title\": …, \"destinations\": […]}"
            case .gpx: "a GPX trip needs a <gpx> element with waypoints"
            }
        return Diagnostic(.emptyFile, "the file is empty: \(needs)")
    }
}

/// A source that notes whether everything read through it was white space, so a streamed file
/// is known to be empty without being held.
final class BlankWatch<Source: ByteSource>: ByteSource {
    private var source: Source
    private var atStart = true
    /// Whether every byte read was white space and no read failed: a file that cannot be read
    /// is not known to be empty.
    private(set) var sawOnlyBlanks = true

    init(_ source: Source) {
        self.source = source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count: Int
        do {
            count = try source.read(into: buffer)
        } catch {
            sawOnlyBlanks = false
            throw error
        }
        if sawOnlyBlanks, count > 0 {
            var bytes = UnsafeRawBufferPointer(buffer)[0..<count]
            if atStart, bytes.starts(with: TextEncoding.utf8BOM) { bytes = bytes.dropFirst(3) }
            sawOnlyBlanks = TextEncoding.isBlank(bytes)
            atStart = false
        }
        return count
    }
}
