import DetourCore
import DetourIO
import DetourTestSupport
import Foundation
import Testing

/// UTF-8 and JSON string escapes, checked against their standards over generated inputs rather
/// than a few examples: the UTF-8 check against the standard library's own decoder, and the JSON
/// string reader against a decoder written here from RFC 8259 §7.
@Suite struct UTF8PropertyTests {
    /// The offset of the first ill-formed sequence, by the standard library's UTF-8 parser.
    static func reference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Every overlong form of every length: a scalar written in more bytes than it needs.
    @Test func everyOverlongFormIsRefused() {
        // Two bytes for U+0000...U+007F: C0 80 to C1 BF.
        for lead in UInt8(0xC0)...0xC1 {
            for trail in UInt8(0x80)...0xBF {
                #expect(TextEncoding.firstInvalidUTF8([0x61, lead, trail]) == 1, "\(lead) \(trail)")
            }
        }
        // Three bytes for U+0000...U+07FF: E0 80 80 to E0 9F BF.
        for second in UInt8(0x80)...0x9F {
            #expect(TextEncoding.firstInvalidUTF8([0xE0, second, 0x80]) == 0, "E0 \(second)")
        }
        #expect(TextEncoding.firstInvalidUTF8([0xE0, 0xA0, 0x80]) == nil)  // U+0800, the first that needs three
        // Four bytes for U+0000...U+FFFF: F0 80 80 80 to F0 8F BF BF.
        for second in UInt8(0x80)...0x8F {
            #expect(TextEncoding.firstInvalidUTF8([0xF0, second, 0x80, 0x80]) == 0, "F0 \(second)")
        }
        #expect(TextEncoding.firstInvalidUTF8([0xF0, 0x90, 0x80, 0x80]) == nil)  // U+10000
        // Five and six bytes (F8-FD leads) were never UTF-8, overlong or not; FE and FF neither.
        for lead in UInt8(0xF5)...0xFF {
            #expect(TextEncoding.firstInvalidUTF8([lead, 0x80, 0x80, 0x80, 0x80, 0x80]) == 0, "\(lead)")
        }
    }

    @Test func everySurrogateIsRefusedAndItsNeighboursAreNot() {
        for second in UInt8(0xA0)...0xBF {
            for third in [UInt8(0x80), 0xBF] {
                #expect(TextEncoding.firstInvalidUTF8([0xED, second, third]) == 0, "ED \(second) \(third)")
            }
        }
        #expect(TextEncoding.firstInvalidUTF8([0xED, 0x9F, 0xBF]) == nil)  // U+D7FF
        #expect(TextEncoding.firstInvalidUTF8([0xEE, 0x80, 0x80]) == nil)  // U+E000
        #expect(TextEncoding.firstInvalidUTF8([0xF4, 0x8F, 0xBF, 0xBF]) == nil)  // U+10FFFF
        #expect(TextEncoding.firstInvalidUTF8([0xF4, 0x90, 0x80, 0x80]) == 0)  // U+110000
    }

    /// Every sequence of two bytes, and of three from every lead with the trails that matter.
    @Test func everyShortSequenceIsJudgedAsTheStandardLibraryJudgesIt() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                #expect(TextEncoding.firstInvalidUTF8(bytes) == Self.reference(bytes), "\(bytes)")
            }
        }
        let trails: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in UInt8(0xC0)...0xFF {
            for second in trails {
                for third in trails {
                    for fourth in trails {
                        let bytes = [lead, second, third, fourth]
                        #expect(TextEncoding.firstInvalidUTF8(bytes) == Self.reference(bytes), "\(bytes)")
                    }
                }
            }
        }
    }

    /// Random strings of valid text with damage here and there: the first bad offset is found.
    @Test func generatedBytesAreJudgedAsTheStandardLibraryJudgesThem() {
        var random = SplitMix(seed: 3629)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), Array("\u{10FFFF}".utf8),
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0], [0xED, 0xA0, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFE], [0xFF], [0xF0, 0x90, 0x80],
        ]
        var invalid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                // Mostly valid text, now and then a damaged piece.
                let piece =
                    Int.random(in: 0..<100, using: &random) < 85
                    ? Int.random(in: 0..<5, using: &random) : Int.random(in: 5..<pieces.count, using: &random)
                bytes += pieces[piece]
            }
            let expected = Self.reference(bytes)
            if expected != nil { invalid += 1 }
            #expect(TextEncoding.firstInvalidUTF8(bytes) == expected, "\(bytes)")
        }
        #expect(invalid > 1000)
    }

    /// A trip file with bad UTF-8 anywhere is refused naming its byte offset.
    @Test func aTripWithBadUTF8IsRefusedAtItsOffset() {
        let good = Array(#"{"title": "Zürich", "destinations": []}"#.utf8)
        for bad: [UInt8] in [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80],
        ] {
            let text = Array(good[..<11]) + bad + Array(good[11...])
            let outcome = TripLoader.load(text, format: .json)
            #expect(outcome.diagnostics.map(\.code) == [.invalidUTF8])
            #expect(outcome.diagnostics.first?.message.contains("byte offset 11") == true, "\(outcome.diagnostics)")
        }
    }
}

@Suite struct JSONEscapePropertyTests {
    /// What a JSON string literal's body means, by RFC 8259 §7, or `nil` when it is not one.
    static func reference(_ body: [UInt8]) -> String? {
        var scalars = String.UnicodeScalarView()
        var index = 0
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= body.count, let text = String(bytes: body[at..<at + 4], encoding: .ascii),
                text.allSatisfy(\.isHexDigit)
            else { return nil }
            return UInt32(text, radix: 16)
        }
        var raw: [UInt8] = []
        func flush() -> Bool {
            guard let text = String(validating: raw, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            raw = []
            return true
        }
        while index < body.count {
            let byte = body[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") { return nil }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            guard flush(), index + 1 < body.count else { return nil }
            let escaped = body[index + 1]
            index += 2
            let simple: [UInt8: Unicode.Scalar] = [
                UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{08}",
                UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
            ]
            if let scalar = simple[escaped] {
                scalars.append(scalar)
                continue
            }
            guard escaped == UInt8(ascii: "u"), let unit = hex4(index) else { return nil }
            index += 4
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 6 <= body.count, body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u"),
                    let low = hex4(index + 2), (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00))
                else { return nil }
                index += 6
                scalars.append(scalar)
            } else {
                guard let scalar = Unicode.Scalar(unit) else { return nil }  // a lone low surrogate
                scalars.append(scalar)
            }
        }
        guard flush() else { return nil }
        return String(scalars)
    }

    /// The title the trip reader finds in `{"title": "BODY", …}`, or `nil` when it refuses it.
    static func read(_ body: [UInt8]) -> String? {
        let bytes = Array(#"{"title": ""#.utf8) + body + Array(#"", "destinations": []}"#.utf8)
        let outcome = TripLoader.load(bytes, format: .json)
        guard
            outcome.diagnostics.errors.isEmpty
                || outcome.diagnostics.errors.allSatisfy({ $0.code != .jsonSyntax && $0.code != .invalidUTF8 })
        else { return nil }
        return TripJSONReader.read(bytes).draft?.title.value
    }

    @Test func everySimpleEscapeMeansWhatTheRFCSays() {
        let escapes: [(String, String)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\n"#, "\n"),
            (#"\r"#, "\r"), (#"\t"#, "\t"), (#"\u0041"#, "A"), (#"\u00e9"#, "é"), (#"\u00E9"#, "é"),
            (#"\ud83d\ude00"#, "😀"), (#"\uD83D\uDE00"#, "😀"), (#"\u0000"#, "\u{0}"), (#"\uffff"#, "\u{FFFF}"),
        ]
        for (escape, meaning) in escapes {
            #expect(Self.read(Array("a\(escape)b".utf8)) == "a\(meaning)b", "\(escape)")
            #expect(Self.reference(Array("a\(escape)b".utf8)) == "a\(meaning)b", "\(escape)")
        }
        // Every other letter after a backslash is refused.
        for byte in UInt8(0x21)...0x7E where !Array(#""\/bfnrtu"#.utf8).contains(byte) {
            #expect(Self.read([UInt8(ascii: "\\"), byte]) == nil, "\\\(UnicodeScalar(byte))")
        }
    }

    /// Every ASCII byte raw in a string, in a string with no escape (read on a fast path) and in
    /// one with an escape (read on another): refused for every control and for the quote that
    /// ends it early, as the RFC says.
    @Test func everyRawASCIIByteIsJudgedOnEitherPath() {
        for byte in UInt8(0)...0x7F {
            for body in [[0x61, byte, 0x62], [0x61, byte, 0x5C, 0x6E]] {
                let expected = Self.reference(body)
                #expect(Self.read(body) == expected, "byte \(byte) in \(body)")
                if byte < 0x20 || byte == 0x22 { #expect(expected == nil, "byte \(byte)") }
            }
        }
    }

    /// Each surrogate range's first and last code unit, and the code units just outside them.
    @Test func surrogatePairsAreReadToTheEdgesOfTheirRanges() {
        let units: [UInt32] = [0xD7FF, 0xD800, 0xD801, 0xDBFE, 0xDBFF, 0xDC00, 0xDC01, 0xDFFE, 0xDFFF, 0xE000]
        for high in units {
            for low in units {
                let body = Array(String(format: "\\u%04X\\u%04x", high, low).utf8)
                let expected = Self.reference(body)
                #expect(Self.read(body) == expected, "\(String(decoding: body, as: UTF8.self))")
            }
        }
        #expect(Self.read(Array(#"\uDBFF\uDFFF"#.utf8)) == "\u{10FFFF}")
        #expect(Self.read(Array(#"\uD800\uDC00"#.utf8)) == "\u{10000}")
    }

    /// Random bodies of text, escapes right and wrong, raw controls and quotes: the reader and
    /// the RFC agree on every one, on what it means or that it is not a string.
    @Test func generatedStringsReadAsTheRFCReadsThem() {
        var random = SplitMix(seed: 8259)
        let pieces: [String] = [
            "a", "Z", " ", "é", "😀", "€", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0041"#,
            #"\u00e9"#, #"\uD834\uDD1E"#, #"\ud834\udd1e"#, #"\u001f"#, #"\u2028"#,
            // Wrong: lone or swapped surrogates, short \u, bad escapes, a raw quote or control.
            #"\ud800"#, #"\udc00"#, #"\udc00\ud800"#, #"\ud800\u0041"#, #"\u12"#, #"\u12g4"#, #"\x"#, #"\U0041"#, "\"",
            "\u{01}", "\t", "\\",
        ]
        var refused = 0
        for round in 0..<5_000 {
            var body = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let piece =
                    Int.random(in: 0..<100, using: &random) < 80
                    ? Int.random(in: 0..<20, using: &random) : Int.random(in: 0..<pieces.count, using: &random)
                body += pieces[piece]
            }
            let bytes = Array(body.utf8)
            let expected = Self.reference(bytes)
            if expected == nil { refused += 1 }
            #expect(Self.read(bytes) == expected, "round \(round): \(body)")
        }
        #expect(refused > 500)
    }
}

/// JSON numbers, read where the trip keeps them and where it skips them, against RFC 8259 §6's
/// grammar over generated texts.
@Suite struct JSONNumberGrammarTests {
    static func matchesGrammar(_ text: String) -> Bool {
        text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+\-]?[0-9]+)?/) != nil
    }

    /// What the trip reader makes of `number` as a kept value (`day_hours`) and as a skipped one
    /// (under an unknown key): the text kept, or `nil` when the JSON is refused.
    static func read(_ number: String) -> (kept: String?, skippedFine: Bool) {
        let kept = TripJSONReader.read(Array(#"{"title": "T", "destinations": [], "day_hours": \#(number)}"#.utf8))
        let skipped = TripJSONReader.read(Array(#"{"title": "T", "destinations": [], "x": [\#(number)]}"#.utf8))
        return (kept.draft?.dayHours.value, skipped.draft != nil)
    }

    @Test func everyGeneratedNumberIsReadAsTheGrammarSays() {
        var random = SplitMix(seed: 6)
        let pieces = ["-", "+", "0", "1", "9", "00", "12", ".", "e", "E", "e+", "e-", "E+", " ", "x"]
        var accepted = 0
        for round in 0..<6000 {
            let text = (0..<Int.random(in: 1...7, using: &random)).map { _ in
                pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
            .joined()
            // White space around a value is JSON's, not the number's.
            let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            // Nothing but white space is an empty list where the number is skipped.
            guard !trimmed.isEmpty else { continue }
            let valid = Self.matchesGrammar(trimmed)
            let (kept, skippedFine) = Self.read(text)
            #expect((kept != nil) == valid, "round \(round): \(text)")
            #expect(skippedFine == valid, "round \(round): \(text)")
            if valid {
                accepted += 1
                #expect(kept == trimmed, "round \(round): the text is kept as written")
            }
        }
        #expect(accepted > 300)
    }
}
