import HTTPTypes
import Testing

@testable import DetourServer

/// The one cookie a request is asked for, among all it carries.
@Suite struct CookiesTests {
    @Test(
        arguments: [
            (["a=1; detour_session=abc; b=2"], "abc"),
            (["detour_session=abc"], "abc"),
            (["a=1", "detour_session= abc \t"], "abc"),
            (["a=1;\tdetour_session=abc;"], "abc"),
            (["xdetour_session=abc"], nil),
            (["detour_session_old=abc"], nil),
            (["detour_session"], nil),
            (["detour_session="], ""),
            ([], nil),
        ] as [([String], String?)])
    func theNamedCookieIsFoundAndNoOther(fields: [String], expected: String?) {
        var headers = HTTPFields()
        for field in fields { headers.append(HTTPField(name: .cookie, value: field)) }
        #expect(Cookies.value("detour_session", in: headers) == expected)
    }
}
