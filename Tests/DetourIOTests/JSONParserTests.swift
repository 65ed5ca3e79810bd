import DetourIO
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONNode {
        try JSONParser.parse(Array(text.utf8))
    }

    func failure(_ text: String) -> JSONParser.SyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func keepsNumbersAsWrittenAndStringsUnescaped() throws {
        let node = try parse(#"{"a": 3.10, "b": "x\"\u00e9\ud83d\ude00\n", "c": [true, false, null], "d": -0.5e-3}"#)
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b", "c", "d"])
        guard case .number(let a) = members[0].value.value, case .string(let b) = members[1].value.value,
            case .number(let d) = members[3].value.value
        else {
            Issue.record("wrong kinds")
            return
        }
        #expect(a == "3.10")
        #expect(b == "x\"é😀\n")
        #expect(d == "-0.5e-3")
    }

    @Test(arguments: [
        (#"{"a": [1, 2,]}"#, "trailing comma before \"]\""),
        (#"{"a": 1,}"#, "trailing comma before \"}\""),
        (#"{"a": NaN}"#, "NaN and Infinity are not JSON numbers"),
        (#"{"a": -Infinity}"#, "NaN and Infinity are not JSON numbers"),
        (#"{"a": 01}"#, "leading zero"),
        (#"{"a": 1.}"#, "a digit was expected after the decimal point"),
        (#"{"a": 0x10}"#, "unexpected \"x\""),
        (#"{"a": 1, "a": 2}"#, "duplicate key \"a\""),
        // A key's control characters are not written into the message as they are.
        (#"{"a\u0001\u007f": 1, "a\u0001\u007f": 2}"#, "duplicate key \"a??\" in one object"),
        (#"{'a': 1}"#, "JSON strings use double quotes"),
        (#"{"a": "\ud800"}"#, "lone high surrogate"),
        (#"{"a": "\udc00"}"#, "lone low surrogate"),
        (#"{"a": "\x"}"#, "invalid escape"),
        ("{\"a\": \"tab\there\"}", "control character U+0009 inside a string must be escaped"),
        (#"{"a": "open"#, "unexpected end of input inside a string"),
        (#"{"a": 1} {"#, "after the end of the JSON value"),
        (#"// c"#, "JSON has no comments"),
        ("", "unexpected end of input"),
    ])
    func refusesWhatRFC8259Refuses(_ text: String, _ expected: String) {
        let error = failure(text)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "accepted")")
    }

    @Test func reportsTheOffsetOfTheProblem() {
        #expect(failure("{\"a\": [1, 2,]}")?.offset == 12)
        #expect(failure("{\"a\": 1, \"a\": 2}")?.offset == 9)
    }

    @Test func limitsNestingInsteadOfExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(deep)?.message.contains("nesting is too deep") == true)
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(failure(fine) == nil)
    }
}

@Suite struct TextEncodingTests {
    @Test func findsTheFirstInvalidByte() {
        #expect(TextEncoding.firstInvalidUTF8(Array("Zürich 😀".utf8)) == nil)
        #expect(TextEncoding.firstInvalidUTF8([0x61, 0xFC, 0x62]) == 1)  // not a lead byte
        #expect(TextEncoding.firstInvalidUTF8([0x61, 0x80]) == 1)  // lone continuation
        #expect(TextEncoding.firstInvalidUTF8([0xC0, 0xBC]) == 0)  // overlong "<"
        #expect(TextEncoding.firstInvalidUTF8([0x61, 0xE2, 0x82]) == 1)  // truncated
        #expect(TextEncoding.firstInvalidUTF8([0xED, 0xA0, 0x80]) == 0)  // a surrogate
        #expect(TextEncoding.firstInvalidUTF8([0xF4, 0x90, 0x80, 0x80]) == 0)  // past U+10FFFF
    }

    @Test func namesOtherUnicodeEncodings() {
        #expect(TextEncoding.otherEncoding([0xFF, 0xFE, 0x7B, 0x00]) == "UTF-16LE")
        #expect(TextEncoding.otherEncoding([0xFE, 0xFF, 0x00, 0x7B]) == "UTF-16BE")
        #expect(TextEncoding.otherEncoding([0x7B, 0x00]) == "UTF-16LE")
        #expect(TextEncoding.otherEncoding(Array("{}".utf8)) == nil)
    }
}

@Suite struct LineTableTests {
    @Test func countsColumnsInScalarsNotBytes() {
        let table = LineTable(Array("ab\nzü x\n".utf8))
        #expect(table.position(of: 0) == (1, 1))
        #expect(table.position(of: 3) == (2, 1))
        #expect(table.position(of: 6) == (2, 3))  // the space after "ü" (2 bytes)
        #expect(table.position(of: 9) == (3, 1))
    }

    /// Many offsets at once come back in the order asked, repeats and all; one before the text
    /// or past its end is where the text starts or ends.
    @Test func manyOffsetsComeBackInTheOrderAsked() {
        let table = LineTable(Array("ab\nzü x\n".utf8))
        let found = table.positions(of: [9, 0, 6, 6, -5, 100, 3]).map { "\($0.line):\($0.column)" }
        #expect(found == ["3:1", "1:1", "2:3", "2:3", "1:1", "3:1", "2:1"])
        #expect(table.positions(of: []).isEmpty)
    }
}
