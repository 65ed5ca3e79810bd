import Testing

@testable import DetourRender

/// What a compiled template writes for each kind of value, escaped for each content type, as the
/// template engine writes it: text escaped, numbers in decimal, flags as `true`/`false`, nothing
/// for a value that is missing.
@Suite struct TemplateOutputTests {
    func written(_ write: (inout TemplateOutput) -> Void) -> String {
        var out = TemplateOutput()
        write(&out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test func everyValueKindIsWrittenForEveryContentType() {
        let text: String? = "a <b> & *c*"
        let none: String? = nil
        #expect(written { $0.raw(text) } == "a <b> & *c*")
        #expect(written { $0.html(text) } == "a &lt;b&gt; &amp; *c*")
        #expect(written { $0.markdown(text) } == Escaping.markdown("a <b> & *c*"))
        for write in [{ (out: inout TemplateOutput) in out.raw(none) }, { $0.html(none) }, { $0.markdown(none) }] {
            #expect(written(write) == "")
        }
        #expect(written { $0.raw(-42) } == "-42")
        #expect(written { $0.html(1_204) } == "1204")
        #expect(written { $0.markdown(7) } == "7")
        #expect(written { $0.raw(true) } == "true")
        #expect(written { $0.html(false) } == "false")
        #expect(written { $0.markdown(true) } == "true")
    }

    /// `first()`, `last()`, `index()`, `even()` and `odd()` over a list of three.
    @Test func aPositionKnowsItsPlaceInTheList() {
        let places = (0..<3).map { TemplatePosition(index: $0, count: 3) }
        #expect(places.map(\.isFirst) == [true, false, false])
        #expect(places.map(\.isLast) == [false, false, true])
        #expect(places.map(\.isEven) == [true, false, true])
        #expect(places.map(\.isOdd) == [false, true, false])
    }
}
